// The uuids of every vector row of one group, in uuid order: the exact per-group vector search
// (procedures/group_vectors.py) compares them with what it holds and fetches only the new rows.
MATCH (c:Chunk) WHERE c.group_id = $group_id AND c.embedding IS NOT NULL
RETURN c.uuid AS uuid
ORDER BY uuid
