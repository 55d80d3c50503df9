// Full-text (Lucene BM25) search over one group's turn and sentence chunks. $text is plain
// lower-case words only (procedures/query_text.py), so no Lucene syntax reaches the engine.
// One row: `raw` = rows the index gave before the group filter, `hits` = this group's rows.
CALL db.index.fulltext.queryNodes('chunk_text', $text, {limit: $k_fetch}) YIELD node AS c, score
WITH count(*) AS raw,
     collect(CASE WHEN c.group_id = $group_id THEN {
       uuid: c.uuid, episode_uuid: c.episode_uuid, kind: c.kind, text: c.text, speaker: c.speaker,
       source_ref: c.source_ref, valid_at: c.valid_at, time_start: c.time_start, time_end: c.time_end,
       score: score} END) AS hits
RETURN raw, hits
