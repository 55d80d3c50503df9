// The graph as of a date in valid time: every fact true at $as_of (valid_at <= $as_of < invalid_at). Params: $group_id, $as_of (a datetime).
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id AND r.valid_at <= $as_of AND (r.invalid_at IS NULL OR r.invalid_at > $as_of)
RETURN s.name AS subject, r.name AS predicate, r.qualifier AS qualifier, o.name AS value, r.version AS version,
       r.valid_at AS valid_at, r.invalid_at AS invalid_at, r.source_ref AS source_ref
ORDER BY subject, predicate, qualifier, value
