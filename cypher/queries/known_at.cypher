// What the group knew at a record time: facts recorded by $at and not yet expired then (created_at <= $at < expired_at). Params: $group_id, $at (a datetime).
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id AND r.created_at <= $at AND (r.expired_at IS NULL OR r.expired_at > $at)
RETURN s.name AS subject, r.name AS predicate, r.qualifier AS qualifier, o.name AS value, r.version AS version,
       r.valid_at AS valid_at, r.invalid_at AS invalid_at, r.created_at AS created_at, r.expired_at AS expired_at
ORDER BY subject, predicate, qualifier, valid_at
