// Vector search over one group's fact edges; score = cosine. Shape as retrieval.chunk_text.
CALL db.index.vector.queryRelationships('fact_embedding', $k_fetch, $vector) YIELD relationship AS r, score
WITH count(*) AS raw,
     collect(CASE WHEN r.group_id = $group_id THEN {uuid: r.uuid, fact: r.fact, score: 2.0 * score - 1.0} END) AS hits
RETURN raw, hits
