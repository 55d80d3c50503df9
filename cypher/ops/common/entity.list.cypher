// A group's entities, from its anchor (read before every question to match names).
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_ENTITY]->(n:Entity)
RETURN n.uuid AS uuid, n.name AS name, n.name_key AS name_key, n.type AS type, n.aliases AS aliases
ORDER BY n.name
