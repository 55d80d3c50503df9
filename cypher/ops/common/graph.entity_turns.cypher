// The newest turns that mention one entity (MENTIONS also links every fact's subject and object
// to the turn that said it). Starts from the entity's key, so its cost follows the entity's
// degree, not the store's size: the evidence backfill of answers that rest on edges.
MATCH (n:Entity {uuid: $entity_uuid})<-[:MENTIONS]-(e:Episodic)
WHERE n.group_id = $group_id
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq
ORDER BY valid_at DESC
LIMIT $limit
