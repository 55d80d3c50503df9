// Re-asserting the current value adds a source episode, not a version.
MATCH ()-[r:RELATES_TO {uuid: $uuid}]->()
WHERE r.group_id = $group_id AND NOT list_contains(r.episodes, $episode_uuid)
SET r.episodes = list_append(r.episodes, $episode_uuid)
RETURN r.uuid AS uuid
