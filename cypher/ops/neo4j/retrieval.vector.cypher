// Vector search over one group's turns and sentences (chunk_embedding) and facts
// (fact_embedding). Neo4j reports (1 + cos) / 2; the score here is cos, like Kuzu's. Shape as
// retrieval.text; $efs is unused (Neo4j sizes its candidate list from $k_fetch).
CALL {
  CALL db.index.vector.queryNodes('chunk_embedding', $k_fetch, $vector) YIELD node AS c, score
  RETURN 'chunk' AS source, c.group_id AS g, {
    uuid: c.uuid, episode_uuid: c.episode_uuid, kind: c.kind, text: c.text, speaker: c.speaker,
    source_ref: c.source_ref, valid_at: c.valid_at, time_start: c.time_start, time_end: c.time_end,
    score: 2.0 * score - 1.0} AS row
  UNION ALL
  CALL db.index.vector.queryRelationships('fact_embedding', $k_fetch, $vector) YIELD relationship AS r, score
  RETURN 'fact' AS source, r.group_id AS g, {
    uuid: r.uuid, episode_uuid: r.episodes[0], kind: 'fact', text: r.fact, speaker: '',
    source_ref: r.source_ref, valid_at: r.valid_at, score: 2.0 * score - 1.0} AS row
}
WITH sum(CASE WHEN source = 'chunk' THEN 1 ELSE 0 END) AS chunks, sum(CASE WHEN source = 'fact' THEN 1 ELSE 0 END) AS facts,
     collect(CASE WHEN g = $group_id THEN row END) AS hits
RETURN CASE WHEN chunks > facts THEN chunks ELSE facts END AS raw, hits
