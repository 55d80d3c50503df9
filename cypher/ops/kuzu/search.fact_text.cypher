// Facts are searched through their Chunk shadow rows (kind 'fact'); see the Kuzu schema.
CALL QUERY_FTS_INDEX('Chunk', 'chunk_text', $text, top := $k_fetch)
WITH node AS f, score
WHERE f.group_id = $group_id AND f.kind = 'fact'
RETURN f.uuid AS uuid, f.text AS fact, score
ORDER BY score DESC
LIMIT $k
