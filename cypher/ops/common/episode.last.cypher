MATCH (e:Episodic)
WHERE e.group_id = $group_id
RETURN e.uuid AS uuid, e.seq AS seq
ORDER BY e.seq DESC
LIMIT 1
