// Close a version: valid time ends at $invalid_at; record time ends at $expired_at.
// Reached from its subject's key: an edge has no index, so {uuid: $uuid} alone scans every edge.
MATCH (s:Entity {uuid: $subject_uuid})-[r:RELATES_TO]->()
WITH r  // filter after WITH: see cypher/ops/README.md (edge filters in Kuzu)
WHERE r.uuid = $uuid AND r.group_id = $group_id
SET r.invalid_at = $invalid_at, r.expired_at = $expired_at
RETURN r.uuid AS uuid
