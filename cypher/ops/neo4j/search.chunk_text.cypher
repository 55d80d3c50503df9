// $text must already be escaped for Lucene (the retrieval procedure does it).
CALL db.index.fulltext.queryNodes('chunk_text', $text, {limit: $k_fetch}) YIELD node AS c, score
WHERE c.group_id = $group_id AND ($kind = '' OR c.kind = $kind)
RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.seq AS seq,
       c.speaker AS speaker, c.source_ref AS source_ref, c.valid_at AS valid_at, score
ORDER BY score DESC
LIMIT $k
