// A group's most recent fact versions (current or closed), newest valid time first, from the group's anchor.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_ENTITY]->(s:Entity)-[r:RELATES_TO]->(o:Entity)
WITH s, r, o  // filter after WITH: see cypher/ops/README.md (edge filters in Kuzu)
WHERE r.group_id = $group_id
RETURN r.uuid AS uuid, s.uuid AS subject_uuid, s.name AS subject, r.name AS predicate,
       o.uuid AS object_uuid, o.name AS object, r.qualifier AS qualifier, r.fact AS fact,
       r.version AS version, r.valid_at AS valid_at, r.invalid_at AS invalid_at,
       r.created_at AS created_at, r.expired_at AS expired_at, r.episodes AS episodes,
       r.source_ref AS source_ref, r.source_chunk AS source_chunk, r.confidence AS confidence,
       r.supersedes AS supersedes, r.time_text AS time_text
ORDER BY valid_at DESC, created_at DESC, uuid
LIMIT $limit
