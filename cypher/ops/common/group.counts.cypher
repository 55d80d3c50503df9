OPTIONAL MATCH (e:Episodic) WHERE e.group_id = $group_id
WITH count(e) AS episodes
OPTIONAL MATCH (c:Chunk) WHERE c.group_id = $group_id AND c.kind <> 'fact'
WITH episodes, count(c) AS chunks
OPTIONAL MATCH (n:Entity) WHERE n.group_id = $group_id
WITH episodes, chunks, count(n) AS entities
OPTIONAL MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id
RETURN episodes, chunks, entities, count(r) AS facts,
       sum(CASE WHEN r IS NOT NULL AND r.invalid_at IS NULL AND r.expired_at IS NULL THEN 1 ELSE 0 END) AS current_facts
