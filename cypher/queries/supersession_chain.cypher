// The supersession chain of one slot: each version with the version it superseded (via r.supersedes). Params: $group_id, $subject, $predicate.
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id AND s.group_id = $group_id AND lower(s.name) = lower($subject) AND r.name = $predicate
OPTIONAL MATCH (:Entity)-[p:RELATES_TO]->(po:Entity)
WHERE p.group_id = $group_id AND p.uuid = r.supersedes
RETURN r.qualifier AS qualifier, r.version AS version, o.name AS value, p.version AS supersedes_version,
       po.name AS supersedes_value, r.valid_at AS valid_at, r.invalid_at AS invalid_at,
       r.created_at AS created_at, r.expired_at AS expired_at, r.source_ref AS source_ref
ORDER BY qualifier, version
