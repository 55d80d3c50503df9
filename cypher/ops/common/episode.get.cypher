MATCH (e:Episodic {uuid: $uuid})
WHERE e.group_id = $group_id
RETURN e.uuid AS uuid, e.seq AS seq
