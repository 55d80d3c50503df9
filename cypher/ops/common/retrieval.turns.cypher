// Turns (episodes) of one group by uuid: what a Hit shows, plus seq/session for neighbours.
UNWIND $uuids AS u
MATCH (e:Episodic {uuid: u})
WHERE e.group_id = $group_id
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq, e.session AS session
