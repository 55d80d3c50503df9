// A group's entities that have no name embedding yet (ingest embeds them in one batch).
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_ENTITY]->(n:Entity)
WHERE n.name_embedding IS NULL
RETURN n.uuid AS uuid, n.name AS name
