// The turns (episodes) facts and hits point back to, by uuid.
MATCH (e:Episodic)
WHERE e.group_id = $group_id AND e.uuid IN $uuids
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq
