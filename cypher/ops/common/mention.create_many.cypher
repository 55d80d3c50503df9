// Links from turns to the entities they mention ($mentions: {episode_uuid, entity_uuid} rows, the
// turns of one write transaction); an entity of another group is not linked.
UNWIND $mentions AS m
MATCH (e:Episodic {uuid: m.episode_uuid}), (n:Entity {uuid: m.entity_uuid})
WHERE e.group_id = $group_id AND n.group_id = $group_id
CREATE (e)-[:MENTIONS {uuid: m.episode_uuid + ':' + m.entity_uuid, group_id: $group_id, created_at: $created_at}]->(n)
RETURN count(n) AS created
