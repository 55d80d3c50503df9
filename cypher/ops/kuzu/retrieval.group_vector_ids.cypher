// The uuids of every vector row of one group, in uuid order: the exact per-group vector search
// (procedures/group_vectors.py) compares them with what it holds and fetches only the new rows.
// Walked from the group's anchor (its turns, then their chunks and fact shadow rows), as
// retrieval.group_vectors is: Kuzu has no index on group_id, so a filter on it scans every group's rows.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(:Episodic)-[:HAS_CHUNK|STATES]->(c:Chunk)
WHERE c.group_id = $group_id AND c.embedding IS NOT NULL
RETURN c.uuid AS uuid
ORDER BY uuid
