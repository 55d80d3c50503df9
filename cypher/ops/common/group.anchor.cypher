// Link just-committed turns and entities ($uuids) to their group's anchor (TkgGroup), from which
// the per-group reads start; a node already linked is left as it is. The group's stamp changes in
// the same transaction, so per-group caches (tkg/group_cache.py) see the new nodes with it. The link
// is a MERGE: another process's open may be adopting the same node (group.adopt), and on Neo4j
// only MERGE looks again once it holds the node's lock, so the node gets one link, not two.
MERGE (g:TkgGroup {group_id: $group_id});
MERGE (m:TkgMeta {key: 'group:' + $group_id})
SET m.value = $stamp;
UNWIND $uuids AS u
WITH DISTINCT u
MATCH (g:TkgGroup {group_id: $group_id}), (e:Episodic {uuid: u})
WHERE e.group_id = $group_id AND NOT EXISTS { MATCH (e)<-[:HAS_EPISODE]-(:TkgGroup) }
MERGE (g)-[:HAS_EPISODE]->(e);
UNWIND $uuids AS u
WITH DISTINCT u
MATCH (g:TkgGroup {group_id: $group_id}), (n:Entity {uuid: u})
WHERE n.group_id = $group_id AND NOT EXISTS { MATCH (n)<-[:HAS_ENTITY]-(:TkgGroup) }
MERGE (g)-[:HAS_ENTITY]->(n)
RETURN count(*) AS anchored
