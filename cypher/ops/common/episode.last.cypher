// The group's last turn, which the next one ingested follows (NEXT_EPISODE).
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
RETURN e.uuid AS uuid, e.seq AS seq
ORDER BY e.seq DESC
LIMIT 1
