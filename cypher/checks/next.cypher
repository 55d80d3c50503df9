// NEXT_EPISODE edges touching a group, with the group of each end and of the edge. Params: $group_id.
MATCH (x:Episodic)-[n:NEXT_EPISODE]->(y:Episodic) WHERE x.group_id = $group_id OR y.group_id = $group_id RETURN x.group_id AS a, y.group_id AS b, n.group_id AS r
