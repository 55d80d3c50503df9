// $text must already be escaped for Lucene (the retrieval procedure does it).
CALL db.index.fulltext.queryRelationships('fact_text', $text, {limit: $k_fetch}) YIELD relationship AS r, score
WHERE r.group_id = $group_id
RETURN r.uuid AS uuid, r.fact AS fact, score
ORDER BY score DESC
LIMIT $k
