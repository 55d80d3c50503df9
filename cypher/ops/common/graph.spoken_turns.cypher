// The turns one person said (a speaker's "I ..." turns carry no MENTIONS edge to them), ranked as
// graph.entity_turns ranks its turns, from the group's anchor: with graph.entity_turns, the
// evidence backfill of answers about that person.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
WHERE e.speaker = $speaker
UNWIND $terms AS term
WITH e, sum(CASE WHEN lower(e.content) CONTAINS term THEN 1 ELSE 0 END) AS overlap
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq, overlap
ORDER BY overlap DESC, valid_at DESC
LIMIT $limit
