// Every Episodic node of some groups, all properties (snapshots compared before and after). Params: $groups.
MATCH (n:Episodic) WHERE n.group_id IN $groups RETURN n
