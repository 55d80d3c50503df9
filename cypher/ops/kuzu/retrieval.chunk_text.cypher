// Full-text (BM25) search over one group's turn and sentence chunks. $text is plain words only
// (procedures/query_text.py). One row: `raw` = rows the index gave before the group filter (the
// caller over-fetches again when raw == $k_fetch and too few survived), `hits` = this group's rows
// (null when none). Other groups' rows never leave the database.
CALL QUERY_FTS_INDEX('Chunk', 'chunk_text', $text, top := $k_fetch)
WITH node AS c, score
WITH count(*) AS raw,
     collect(CASE WHEN c.group_id = $group_id AND c.kind <> 'fact' THEN {
       uuid: c.uuid, episode_uuid: c.episode_uuid, kind: c.kind, text: c.text, speaker: c.speaker,
       source_ref: c.source_ref, valid_at: c.valid_at, time_start: c.time_start, time_end: c.time_end,
       score: score} ELSE NULL END) AS hits
RETURN raw, hits
