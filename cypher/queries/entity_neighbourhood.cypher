// An entity's neighbourhood: every fact edge into or out of it, current ones first. Params: $group_id, $entity (entity name, any case).
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id AND (lower(s.name) = lower($entity) OR lower(o.name) = lower($entity))
WITH s, r, o, r.invalid_at IS NULL AND r.expired_at IS NULL AS current
RETURN CASE WHEN lower(s.name) = lower($entity) THEN 'out' ELSE 'in' END AS direction,
       s.name AS subject, r.name AS predicate, r.qualifier AS qualifier, o.name AS object, o.type AS object_type,
       r.version AS version, current, r.valid_at AS valid_at, r.invalid_at AS invalid_at, r.source_ref AS source_ref
ORDER BY current DESC, direction DESC, predicate, valid_at
