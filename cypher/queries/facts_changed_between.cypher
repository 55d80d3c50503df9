// Facts that changed in a valid-time range: versions that began or ended in [$since, $until). Params: $group_id, $since, $until (datetimes).
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id
  AND ((r.valid_at >= $since AND r.valid_at < $until) OR (r.invalid_at >= $since AND r.invalid_at < $until))
WITH s, r, o,
     r.valid_at >= $since AND r.valid_at < $until AS began,
     r.invalid_at IS NOT NULL AND r.invalid_at >= $since AND r.invalid_at < $until AS ended
RETURN CASE WHEN began AND ended THEN 'began and ended' WHEN began THEN 'began' ELSE 'ended' END AS change,
       CASE WHEN began THEN r.valid_at ELSE r.invalid_at END AS at,
       s.name AS subject, r.name AS predicate, r.qualifier AS qualifier, o.name AS value, r.version AS version,
       r.valid_at AS valid_at, r.invalid_at AS invalid_at, r.source_ref AS source_ref
ORDER BY at, subject, predicate, qualifier, change DESC, version
