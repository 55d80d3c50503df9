// Re-asserting the current value adds a source episode, not a version.
// Reached from its subject's key: an edge has no index, so {uuid: $uuid} alone scans every edge.
MATCH (s:Entity {uuid: $subject_uuid})-[r:RELATES_TO]->()
WITH r  // filter after WITH: see cypher/ops/README.md (edge filters in Kuzu)
WHERE r.uuid = $uuid AND r.group_id = $group_id AND NOT $episode_uuid IN r.episodes
SET r.episodes = r.episodes + [$episode_uuid]
RETURN r.uuid AS uuid
