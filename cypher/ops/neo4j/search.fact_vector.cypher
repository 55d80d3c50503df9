CALL db.index.vector.queryRelationships('fact_embedding', $k_fetch, $vector) YIELD relationship AS r, score
WHERE r.group_id = $group_id
RETURN r.uuid AS uuid, r.fact AS fact, 2.0 * score - 1.0 AS score
ORDER BY score DESC
LIMIT $k
