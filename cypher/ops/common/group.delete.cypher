// Forget a tenant: relationships go with their nodes (DETACH), so nothing is left behind.
OPTIONAL MATCH (g:TkgGroup {group_id: $group_id})
DETACH DELETE g
WITH count(*) AS _g
OPTIONAL MATCH (m:TkgMeta {key: 'group:' + $group_id})
DELETE m
WITH count(*) AS _m
OPTIONAL MATCH (u:TkgUsage) WHERE u.group_id = $group_id
DELETE u
WITH count(*) AS _u
OPTIONAL MATCH (r:TkgMeta {key: 'embedder:' + $group_id})
DELETE r
WITH count(*) AS _r
OPTIONAL MATCH (c:Chunk) WHERE c.group_id = $group_id
DETACH DELETE c
WITH count(*) AS _c
OPTIONAL MATCH (n:Entity) WHERE n.group_id = $group_id
DETACH DELETE n
WITH count(*) AS _n
OPTIONAL MATCH (e:Episodic) WHERE e.group_id = $group_id
DETACH DELETE e
RETURN count(*) AS done
