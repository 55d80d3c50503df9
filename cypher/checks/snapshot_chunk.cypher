// Every Chunk node of some groups, all properties (snapshots compared before and after). Params: $groups.
MATCH (n:Chunk) WHERE n.group_id IN $groups RETURN n
