UNWIND $rows AS row
MATCH (n:Entity {uuid: row.uuid})
WHERE n.group_id = $group_id
SET n.name_embedding = row.embedding
RETURN count(n) AS updated
