// Full-text (Lucene BM25) search over one group's turns and sentences (chunk_text) and facts
// (fact_text, on the RELATES_TO edges). $text is plain lower-case words only
// (procedures/query_text.py), so no Lucene syntax reaches the engine. One row: `raw` = the larger
// of the two indexes' row counts before the group filter (== $k_fetch: one was cut off),
// `hits` = this group's rows. Lucene's k1/b are fixed per index, so $bm25_k1/$bm25_b are unused.
CALL {
  CALL db.index.fulltext.queryNodes('chunk_text', $text, {limit: $k_fetch}) YIELD node AS c, score
  RETURN 'chunk' AS source, c.group_id AS g, {
    uuid: c.uuid, episode_uuid: c.episode_uuid, kind: c.kind, text: c.text, speaker: c.speaker,
    source_ref: c.source_ref, valid_at: c.valid_at, time_start: c.time_start, time_end: c.time_end,
    score: score} AS row
  UNION ALL
  CALL db.index.fulltext.queryRelationships('fact_text', $text, {limit: $k_fetch}) YIELD relationship AS r, score
  RETURN 'fact' AS source, r.group_id AS g, {
    uuid: r.uuid, episode_uuid: r.episodes[0], kind: 'fact', text: r.fact, speaker: '',
    source_ref: r.source_ref, valid_at: r.valid_at, score: score} AS row
}
WITH sum(CASE WHEN source = 'chunk' THEN 1 ELSE 0 END) AS chunks, sum(CASE WHEN source = 'fact' THEN 1 ELSE 0 END) AS facts,
     collect(CASE WHEN g = $group_id THEN row END) AS hits
RETURN CASE WHEN chunks > facts THEN chunks ELSE facts END AS raw, hits
