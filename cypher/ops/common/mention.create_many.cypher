MATCH (e:Episodic {uuid: $episode_uuid})
UNWIND $entity_uuids AS eid
MATCH (n:Entity {uuid: eid})
WHERE n.group_id = $group_id
CREATE (e)-[:MENTIONS {uuid: $episode_uuid + ':' + eid, group_id: $group_id, created_at: $created_at}]->(n)
RETURN count(n) AS created
