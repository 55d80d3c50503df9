// What the group's last turns handed on to the extractor (newest first; turns that handed on
// nothing left out): ingest reads it when it starts, so earlier turns' claims ("it's Vienna, not
// York") come from the store, not from one process's memory.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
WITH e
WHERE e.extract_context IS NOT NULL AND e.extract_context <> ''
RETURN e.seq AS seq, e.extract_context AS context
ORDER BY e.seq DESC
LIMIT $limit
