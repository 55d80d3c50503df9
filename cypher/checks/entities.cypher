// A group's entities. Params: $group_id.
MATCH (n:Entity) WHERE n.group_id = $group_id RETURN n.uuid AS uuid
