// Whether a group holds any turn: asked before every question, so it stops at the first episode
// instead of counting the group (`group.counts` scans every table, which grows with the store).
MATCH (e:Episodic)
WHERE e.group_id = $group_id
RETURN e.uuid AS uuid
LIMIT 1
