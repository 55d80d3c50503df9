// Facts are searched through their Chunk shadow rows (kind 'fact'); see the Kuzu schema.
CALL QUERY_VECTOR_INDEX('Chunk', 'chunk_embedding', $vector, $k_fetch)
WITH node AS f, distance
WHERE f.group_id = $group_id AND f.kind = 'fact'
RETURN f.uuid AS uuid, f.text AS fact, 1.0 - distance AS score
ORDER BY score DESC
LIMIT $k
