// Which of $uuids are turns of the group already: one statement for a batch, not one per turn.
UNWIND $uuids AS u
MATCH (e:Episodic {uuid: u})
WHERE e.group_id = $group_id
RETURN e.uuid AS uuid
