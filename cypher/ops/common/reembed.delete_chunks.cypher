// Remove chunks that are then created again with new vectors (chunk.create_many): Kuzu 0.11.3
// cannot SET a property its vector index covers, so both stores replace the rows instead.
UNWIND $uuids AS id
MATCH (c:Chunk {uuid: id})
WHERE c.group_id = $group_id AND c.kind <> 'fact'
DETACH DELETE c
RETURN count(*) AS deleted
