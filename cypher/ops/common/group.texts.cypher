// Every text a group's ingest embedded (its turns and sentences as indexed, its fact sentences and
// entity names): `forget` drops them from the embedding cache, which must not remember them.
MATCH (c:Chunk) WHERE c.group_id = $group_id
RETURN c.search_text AS text
UNION ALL
MATCH (n:Entity) WHERE n.group_id = $group_id
RETURN n.name AS text
UNION ALL
MATCH (:Entity)-[r:RELATES_TO]->(:Entity) WHERE r.group_id = $group_id
RETURN r.fact AS text
