// Every vector of one group with the row retrieval.vector returns for it, for exact search in
// memory (procedures/group_vectors.py): turns and sentences on Chunk nodes, fact sentences on
// RELATES_TO edges (fact_embedding, graphiti-core's name). Ordered by uuid within each part.
// Times come as ISO text (UTC): the driver builds a DateTime per value far more slowly than it
// reads a string, and this read returns every row of a group (procedures/group_vectors.py turns them
// back into datetimes; the Kuzu version sends the same). A vector comes as its float32 bytes
// (embedding_f32, tkg.models.f32_bytes: 4 bytes a float, where Bolt sends a listed float as 9 and
// the server reads twice as much), or as the float list where a row has no copy (written by an
// older tkg, or by another client).
CALL {
  MATCH (c:Chunk) WHERE c.group_id = $group_id AND c.embedding IS NOT NULL
  RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.speaker AS speaker,
         c.source_ref AS source_ref,
         toString(c.valid_at) AS valid_at,
         toString(c.time_start) AS time_start,
         toString(c.time_end) AS time_end,
         coalesce(c.embedding_f32, c.embedding) AS embedding
  UNION ALL
  MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.fact_embedding IS NOT NULL
  RETURN r.uuid AS uuid, r.episodes[0] AS episode_uuid, 'fact' AS kind, r.fact AS text, '' AS speaker,
         r.source_ref AS source_ref,
         toString(r.valid_at) AS valid_at,
         null AS time_start,
         null AS time_end,
         coalesce(r.fact_embedding_f32, r.fact_embedding) AS embedding
}
RETURN uuid, episode_uuid, kind, text, speaker, source_ref, valid_at, time_start, time_end, embedding
ORDER BY uuid
