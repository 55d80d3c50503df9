// Full-text (Lucene BM25) search over one group's fact edges. Shape as retrieval.chunk_text.
CALL db.index.fulltext.queryRelationships('fact_text', $text, {limit: $k_fetch}) YIELD relationship AS r, score
WITH count(*) AS raw,
     collect(CASE WHEN r.group_id = $group_id THEN {uuid: r.uuid, fact: r.fact, score: score} END) AS hits
RETURN raw, hits
