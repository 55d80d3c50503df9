// The provenance of a subject's facts: each version of a slot with the turns (Episodic) that said it, in order. Params: $group_id, $subject, $predicate.
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id AND s.group_id = $group_id AND lower(s.name) = lower($subject) AND r.name = $predicate
UNWIND r.episodes AS episode_uuid
MATCH (e:Episodic)
WHERE e.group_id = $group_id AND e.uuid = episode_uuid
RETURN r.qualifier AS qualifier, r.version AS version, o.name AS value, r.fact AS fact, e.source_ref AS source_ref,
       e.valid_at AS said_at, e.speaker AS speaker, e.content AS text
ORDER BY qualifier, version, said_at
