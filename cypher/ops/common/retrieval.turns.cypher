// Turns (episodes) of one group by uuid: what a Hit shows, plus seq/session for neighbours.
// Read from the group's anchor, so the cost follows the group's size: after an UNWIND, Kuzu
// matches {uuid: u} by scanning the whole Episodic table.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
WHERE e.uuid IN $uuids AND e.group_id = $group_id
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq, e.session AS session
