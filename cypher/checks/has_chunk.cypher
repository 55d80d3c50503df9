// HAS_CHUNK edges touching a group, with the group of each end and of the edge. Params: $group_id.
MATCH (e:Episodic)-[h:HAS_CHUNK]->(c:Chunk) WHERE e.group_id = $group_id OR c.group_id = $group_id RETURN e.uuid AS episode, c.uuid AS chunk, e.group_id AS a, c.group_id AS b, h.group_id AS r
