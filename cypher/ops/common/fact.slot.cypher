// Every version of one (subject, predicate, qualifier) slot, newest valid time first.
MATCH (s:Entity {uuid: $subject_uuid})-[r:RELATES_TO]->(o:Entity)
WITH s, r, o  // filter after WITH: see cypher/ops/README.md (edge filters in Kuzu)
WHERE r.group_id = $group_id AND r.name = $predicate AND coalesce(r.qualifier, '') = $qualifier
RETURN r.uuid AS uuid, o.uuid AS object_uuid, o.name AS object, r.version AS version,
       r.valid_at AS valid_at, r.invalid_at AS invalid_at, r.created_at AS created_at,
       r.expired_at AS expired_at, r.episodes AS episodes, r.supersedes AS supersedes
ORDER BY r.valid_at DESC, r.version DESC
