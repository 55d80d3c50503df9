MATCH (e:Episodic)
RETURN e.group_id AS group_id, count(e) AS episodes, min(e.valid_at) AS first, max(e.valid_at) AS last
ORDER BY group_id
