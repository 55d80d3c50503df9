// Re-asserting the current value adds a source episode, not a version.
MATCH ()-[r:RELATES_TO {uuid: $uuid}]->()
WHERE r.group_id = $group_id AND NOT $episode_uuid IN r.episodes
SET r.episodes = r.episodes + [$episode_uuid]
RETURN r.uuid AS uuid
