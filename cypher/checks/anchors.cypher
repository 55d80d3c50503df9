// Anchor edges touching a group: its TkgGroup node's HAS_EPISODE and HAS_ENTITY edges, and any
// anchor edge into one of its nodes, with the group of each end. Params: $group_id.
MATCH (g:TkgGroup)-[:HAS_EPISODE]->(n:Episodic) WHERE g.group_id = $group_id OR n.group_id = $group_id
RETURN n.uuid AS node, g.group_id AS a, n.group_id AS b
UNION ALL
MATCH (g:TkgGroup)-[:HAS_ENTITY]->(n:Entity) WHERE g.group_id = $group_id OR n.group_id = $group_id
RETURN n.uuid AS node, g.group_id AS a, n.group_id AS b
