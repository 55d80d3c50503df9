// Forget a tenant: relationships go with their nodes (DETACH); fact shadow rows are Chunks.
MATCH (g:TkgGroup {group_id: $group_id})
DETACH DELETE g;
MATCH (m:TkgMeta {key: 'group:' + $group_id})
DELETE m;
MATCH (u:TkgUsage) WHERE u.group_id = $group_id
DELETE u;
MATCH (r:TkgMeta {key: 'embedder:' + $group_id})
DELETE r;
MATCH (c:Chunk) WHERE c.group_id = $group_id
DETACH DELETE c;
MATCH (n:Entity) WHERE n.group_id = $group_id
DETACH DELETE n;
MATCH (e:Episodic) WHERE e.group_id = $group_id
DETACH DELETE e
RETURN count(*) AS done
