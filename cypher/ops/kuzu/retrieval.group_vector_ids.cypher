// The uuids of every vector row of one group, in uuid order: the exact per-group vector search
// (procedures/group_vectors.py) compares them with what it holds and fetches only the new rows.
// Walked from the group's anchor, filtered after a WITH, as retrieval.group_vectors is (see there).
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(:Episodic)-[:HAS_CHUNK|STATES]->(c:Chunk)
WITH c.uuid AS uuid, c.group_id AS gid, c.embedding IS NOT NULL AS has_vector
WHERE gid = $group_id AND has_vector
RETURN uuid
ORDER BY uuid
