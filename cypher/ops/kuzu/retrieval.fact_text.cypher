// Full-text (BM25) search over one group's facts: their Chunk shadow rows (kind 'fact').
// One row: `raw` before the group filter, `hits` after (see retrieval.chunk_text).
CALL QUERY_FTS_INDEX('Chunk', 'chunk_text', $text, top := $k_fetch)
WITH node AS f, score
WITH count(*) AS raw,
     collect(CASE WHEN f.group_id = $group_id AND f.kind = 'fact' THEN {uuid: f.uuid, fact: f.text, score: score} ELSE NULL END) AS hits
RETURN raw, hits
