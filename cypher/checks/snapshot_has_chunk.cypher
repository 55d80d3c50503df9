// Every HAS_CHUNK edge touching some groups, all properties (snapshots compared before and after). Params: $groups.
MATCH (a:Episodic)-[r:HAS_CHUNK]->(b:Chunk) WHERE a.group_id IN $groups OR b.group_id IN $groups RETURN a.uuid AS a, b.uuid AS b, r
