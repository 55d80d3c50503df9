// The turns that mention one entity (MENTIONS also links every fact's subject and object to the
// turn that said it), those containing most of $terms (lower-case words; give [''] for none)
// first, then the newest: the evidence backfill of answers that rest on edges. Starts from the
// entity's key and ranks in the database, so its cost follows the entity's degree, not the
// store's size, and only $limit rows travel back.
MATCH (n:Entity {uuid: $entity_uuid})<-[:MENTIONS]-(e:Episodic)
WHERE n.group_id = $group_id
UNWIND $terms AS term
WITH e, sum(CASE WHEN lower(e.content) CONTAINS term THEN 1 ELSE 0 END) AS overlap
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq, overlap
ORDER BY overlap DESC, valid_at DESC
LIMIT $limit
