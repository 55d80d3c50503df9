// $k_fetch over-fetches so the group filter still leaves $k rows; score = cosine similarity.
CALL db.index.vector.queryNodes('chunk_embedding', $k_fetch, $vector) YIELD node AS c, score
WHERE c.group_id = $group_id AND ($kind = '' OR c.kind = $kind)
RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.seq AS seq,
       c.speaker AS speaker, c.source_ref AS source_ref, c.valid_at AS valid_at, 2.0 * score - 1.0 AS score
ORDER BY score DESC
LIMIT $k
