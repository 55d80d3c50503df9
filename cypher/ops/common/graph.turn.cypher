// One turn by its episode uuid: a key lookup, so it costs the same in a store of any size (an
// `IN $uuids` list scans the whole table in Kuzu). Used for the source turns of facts.
MATCH (e:Episodic {uuid: $episode_uuid})
WHERE e.group_id = $group_id
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq
