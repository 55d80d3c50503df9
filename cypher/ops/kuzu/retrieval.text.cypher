// Full-text (BM25) search over one group's turns, sentences and facts: in Kuzu they share the
// Chunk table and its one full-text index (facts ride as kind 'fact'), so one call serves all
// three lists. $text is plain words only (procedures/query_text.py). One row: `raw` = rows the
// index gave before the group filter (the caller over-fetches again when raw == $k_fetch and too
// few survived), `hits` = this group's rows (null when none); other groups' rows never leave
// the database. $bm25_k1/$bm25_b are BM25's k1 and b: the index also holds short sentences, so
// the length it normalises by is a sentence's, and a lower b stops it burying whole turns.
CALL QUERY_FTS_INDEX('Chunk', 'chunk_text', $text, K := $bm25_k1, B := $bm25_b, top := $k_fetch)
WITH node AS c, score
WITH count(*) AS raw,
     collect(CASE WHEN c.group_id = $group_id THEN {
       uuid: c.uuid, episode_uuid: c.episode_uuid, kind: c.kind, text: c.text, speaker: c.speaker,
       source_ref: c.source_ref, valid_at: c.valid_at, time_start: c.time_start, time_end: c.time_end,
       score: score} ELSE NULL END) AS hits
RETURN raw, hits
