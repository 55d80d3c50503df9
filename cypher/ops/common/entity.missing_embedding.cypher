MATCH (n:Entity)
WHERE n.group_id = $group_id AND n.name_embedding IS NULL
RETURN n.uuid AS uuid, n.name AS name
