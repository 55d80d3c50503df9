// MENTIONS edges touching a group, with the group of each end and of the edge. Params: $group_id.
MATCH (e:Episodic)-[m:MENTIONS]->(n:Entity) WHERE e.group_id = $group_id OR n.group_id = $group_id RETURN e.uuid AS episode, e.group_id AS a, n.group_id AS b, m.group_id AS r
