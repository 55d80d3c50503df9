// The time span of a group's history: first and last turn, and how many turns.
MATCH (e:Episodic)
WHERE e.group_id = $group_id
RETURN min(e.valid_at) AS first, max(e.valid_at) AS last, count(e) AS turns
