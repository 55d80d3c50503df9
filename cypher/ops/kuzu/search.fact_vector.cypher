CALL QUERY_VECTOR_INDEX('FactIndex', 'fact_embedding', $vector, $k_fetch)
WITH node AS f, distance
WHERE f.group_id = $group_id
RETURN f.uuid AS uuid, f.fact AS fact, 1.0 - distance AS score
ORDER BY score DESC
LIMIT $k
