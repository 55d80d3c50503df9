// The uuids of every vector row of one group (turns and sentences on Chunk nodes, fact sentences
// on RELATES_TO edges), in uuid order: see procedures/group_vectors.py.
CALL {
  MATCH (c:Chunk) WHERE c.group_id = $group_id AND c.embedding IS NOT NULL
  RETURN c.uuid AS uuid
  UNION ALL
  MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.fact_embedding IS NOT NULL
  RETURN r.uuid AS uuid
}
RETURN uuid
ORDER BY uuid
