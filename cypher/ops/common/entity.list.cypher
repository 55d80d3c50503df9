MATCH (n:Entity)
WHERE n.group_id = $group_id
RETURN n.uuid AS uuid, n.name AS name, n.name_key AS name_key, n.type AS type, n.aliases AS aliases
ORDER BY n.name
