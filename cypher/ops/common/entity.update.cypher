MATCH (n:Entity {uuid: $uuid})
WHERE n.group_id = $group_id
SET n.name = $name, n.name_key = $name_key, n.aliases = $aliases, n.type = $type
RETURN n.uuid AS uuid
