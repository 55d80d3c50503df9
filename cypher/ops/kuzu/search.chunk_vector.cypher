// $k_fetch over-fetches so the group filter still leaves $k rows; score = cosine similarity.
CALL QUERY_VECTOR_INDEX('Chunk', 'chunk_embedding', $vector, $k_fetch)
WITH node AS c, distance
WHERE c.group_id = $group_id AND (($kind = '' AND c.kind <> 'fact') OR c.kind = $kind)
RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.seq AS seq,
       c.speaker AS speaker, c.source_ref AS source_ref, c.valid_at AS valid_at, 1.0 - distance AS score
ORDER BY score DESC
LIMIT $k
