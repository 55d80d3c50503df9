// Anchors for every turn and entity that lacks one: those written before TkgGroup existed (schema
// version 1), or by an ingest that died between an episode's transaction and its anchoring
// (group.anchor). Run by ensure_schema on every open; each statement only touches nodes that still
// lack their anchor, so running it again changes nothing. An adopting group that has a stamp gets a
// new one ($stamp), so no process keeps a list read without the adopted nodes (tkg/group_cache.py);
// it keeps one, because another process's ingest may be between its episodes' transaction and its
// anchoring, and a group without a stamp is read past every cache until its next write. A node with
// no group_id is no tkg node (another application's, sharing the database): it is left alone, and
// the open must not fail on it. Links are MERGEd, as in group.anchor, which may be linking the
// same node at that moment.
MATCH (e:Episodic)
WHERE e.group_id IS NOT NULL AND NOT EXISTS { MATCH (e)<-[:HAS_EPISODE]-(:TkgGroup) }
WITH DISTINCT e.group_id AS gid
MATCH (m:TkgMeta {key: 'group:' + gid})
SET m.value = $stamp;
MATCH (n:Entity)
WHERE n.group_id IS NOT NULL AND NOT EXISTS { MATCH (n)<-[:HAS_ENTITY]-(:TkgGroup) }
WITH DISTINCT n.group_id AS gid
MATCH (m:TkgMeta {key: 'group:' + gid})
SET m.value = $stamp;
MATCH (e:Episodic)
WHERE e.group_id IS NOT NULL AND NOT EXISTS { MATCH (e)<-[:HAS_EPISODE]-(:TkgGroup) }
WITH DISTINCT e.group_id AS gid
MERGE (:TkgGroup {group_id: gid});
MATCH (e:Episodic)
WHERE e.group_id IS NOT NULL AND NOT EXISTS { MATCH (e)<-[:HAS_EPISODE]-(:TkgGroup) }
MATCH (g:TkgGroup {group_id: e.group_id})
MERGE (g)-[:HAS_EPISODE]->(e);
MATCH (n:Entity)
WHERE n.group_id IS NOT NULL AND NOT EXISTS { MATCH (n)<-[:HAS_ENTITY]-(:TkgGroup) }
WITH DISTINCT n.group_id AS gid
MERGE (:TkgGroup {group_id: gid});
MATCH (n:Entity)
WHERE n.group_id IS NOT NULL AND NOT EXISTS { MATCH (n)<-[:HAS_ENTITY]-(:TkgGroup) }
MATCH (g:TkgGroup {group_id: n.group_id})
MERGE (g)-[:HAS_ENTITY]->(n)
RETURN count(*) AS adopted
