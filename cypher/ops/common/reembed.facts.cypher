// Every fact edge of a group with its sentence, for re-embedding (tkg reembed).
MATCH (:Entity)-[r:RELATES_TO]->(:Entity)
WITH r
WHERE r.group_id = $group_id
RETURN r.uuid AS uuid, r.fact AS fact
ORDER BY uuid
