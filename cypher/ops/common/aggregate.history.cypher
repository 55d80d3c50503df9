// @each subject_uuids AS subject_uuid: one key lookup per entity (see NamedMixin.named)
// Every version of the given subjects' edges over several predicates, oldest first: the
// input of counting and listing. (Kuzu cannot bind an empty list: see aggregate.history_all.)
MATCH (s:Entity {uuid: $subject_uuid})-[r:RELATES_TO]->(o:Entity)
WITH s, r, o  // filter after WITH: see cypher/ops/README.md (edge filters in Kuzu)
WHERE r.group_id = $group_id AND r.name IN $predicates
RETURN r.uuid AS uuid, s.uuid AS subject_uuid, s.name AS subject, r.name AS predicate,
       o.uuid AS object_uuid, o.name AS object, r.qualifier AS qualifier, r.fact AS fact,
       r.version AS version, r.valid_at AS valid_at, r.invalid_at AS invalid_at,
       r.created_at AS created_at, r.expired_at AS expired_at, r.episodes AS episodes,
       r.source_ref AS source_ref, r.source_chunk AS source_chunk, r.confidence AS confidence,
       r.supersedes AS supersedes, r.time_text AS time_text
ORDER BY subject, predicate, valid_at, version
