// The turns of one group whose text or speaker contains any of $terms (lower-case words), from
// the group's anchor: the candidates procedures/backfill.py ranks by BM25 with the group's own
// word frequencies.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
UNWIND $terms AS term
WITH e, term
WHERE lower(e.content) CONTAINS term OR lower(e.speaker) CONTAINS term
WITH DISTINCT e
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq
LIMIT $limit
