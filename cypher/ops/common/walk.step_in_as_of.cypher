// @each from_uuids AS from_uuid: one key lookup per entity (see NamedMixin.named)
// One hop, object → subject, over edges valid at $as_of: valid_at <= as_of < invalid_at.
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity {uuid: $from_uuid})
WITH s, r, o  // filter after WITH: see cypher/ops/README.md (edge filters in Kuzu)
WHERE r.group_id = $group_id AND r.name = $predicate
  AND r.valid_at <= $as_of AND (r.invalid_at IS NULL OR r.invalid_at > $as_of)
RETURN r.uuid AS uuid, s.uuid AS subject_uuid, s.name AS subject, r.name AS predicate,
       o.uuid AS object_uuid, o.name AS object, r.qualifier AS qualifier, r.fact AS fact,
       r.version AS version, r.valid_at AS valid_at, r.invalid_at AS invalid_at,
       r.created_at AS created_at, r.expired_at AS expired_at, r.episodes AS episodes,
       r.source_ref AS source_ref, r.source_chunk AS source_chunk, r.confidence AS confidence,
       r.supersedes AS supersedes, r.time_text AS time_text, o.uuid AS from_uuid, s.uuid AS to_uuid, s.name AS to_name
