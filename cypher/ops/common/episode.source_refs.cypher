// The source_ref of each of one group's turns among $uuids (a peer's results mapped to turns).
MATCH (e:Episodic)
WHERE e.group_id = $group_id AND e.uuid IN $uuids
RETURN e.uuid AS uuid, e.source_ref AS source_ref
