// Turns whose lower-cased text contains any of $needles (already lower-case), from the group's
// anchor: the grounding check for names and attribute words. Word boundaries are checked by the
// caller. `uuid` and `episode_uuid` are both the turn's.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
UNWIND $needles AS needle
WITH needle, e
WHERE lower(e.content) CONTAINS needle
RETURN needle, e.uuid AS uuid, e.uuid AS episode_uuid, e.content AS text, e.speaker AS speaker,
       e.source_ref AS source_ref, e.valid_at AS valid_at
