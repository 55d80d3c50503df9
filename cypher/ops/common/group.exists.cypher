// Whether a group holds any turn: asked before every question, so it starts from the group's
// anchor and stops at its first turn (`group.counts` reads every table, which grows with the store).
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
RETURN e.uuid AS uuid
LIMIT 1
