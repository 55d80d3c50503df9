// The turn a chunk belongs to (a fact that names its source chunk but no episode), from the
// chunk's key along HAS_CHUNK.
MATCH (e:Episodic)-[:HAS_CHUNK]->(c:Chunk {uuid: $chunk_uuid})
WHERE e.group_id = $group_id
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq
