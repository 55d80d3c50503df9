// The time span of a group's history: first and last turn, and how many turns (from its anchor).
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
RETURN min(e.valid_at) AS first, max(e.valid_at) AS last, count(e) AS turns
