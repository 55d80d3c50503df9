// A subject's full fact history, every version of every slot in valid-time order. Params: $group_id, $subject (entity name, any case).
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id AND s.group_id = $group_id AND lower(s.name) = lower($subject)
RETURN r.name AS predicate, r.qualifier AS qualifier, o.name AS value, r.version AS version,
       r.valid_at AS valid_at, r.invalid_at AS invalid_at, r.created_at AS created_at, r.expired_at AS expired_at,
       r.invalid_at IS NULL AND r.expired_at IS NULL AS current, r.source_ref AS source_ref
ORDER BY predicate, qualifier, valid_at, version
