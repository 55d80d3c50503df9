// Who speaks in a group, most turns first.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
RETURN e.speaker AS speaker, count(e) AS turns
ORDER BY turns DESC, speaker
