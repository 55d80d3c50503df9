CALL QUERY_FTS_INDEX('FactIndex', 'fact_text', $text, top := $k_fetch)
WITH node AS f, score
WHERE f.group_id = $group_id
RETURN f.uuid AS uuid, f.fact AS fact, score
ORDER BY score DESC
LIMIT $k
