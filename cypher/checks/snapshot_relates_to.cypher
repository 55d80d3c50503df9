// Every RELATES_TO edge touching some groups, all properties (snapshots compared before and after). Params: $groups.
MATCH (a:Entity)-[r:RELATES_TO]->(b:Entity) WHERE a.group_id IN $groups OR b.group_id IN $groups RETURN a.uuid AS a, b.uuid AS b, r
