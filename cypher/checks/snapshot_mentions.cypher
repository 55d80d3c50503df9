// Every MENTIONS edge touching some groups, all properties (snapshots compared before and after). Params: $groups.
MATCH (a:Episodic)-[r:MENTIONS]->(b:Entity) WHERE a.group_id IN $groups OR b.group_id IN $groups RETURN a.uuid AS a, b.uuid AS b, r
