CALL QUERY_FTS_INDEX('Chunk', 'chunk_text', $text, top := $k_fetch)
WITH node AS c, score
WHERE c.group_id = $group_id AND (($kind = '' AND c.kind <> 'fact') OR c.kind = $kind)
RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.seq AS seq,
       c.speaker AS speaker, c.source_ref AS source_ref, c.valid_at AS valid_at, score
ORDER BY score DESC
LIMIT $k
