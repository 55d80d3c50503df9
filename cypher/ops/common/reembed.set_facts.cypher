// New fact-sentence vectors: on Neo4j the edge carries its vector (fact_embedding index) and its
// compact copy (tkg.models.f32_bytes), replaced together.
UNWIND $rows AS row
MATCH (:Entity)-[r:RELATES_TO {uuid: row.uuid}]->(:Entity)
WHERE r.group_id = $group_id
SET r.fact_embedding = row.embedding, r.fact_embedding_f32 = row.embedding_f32
RETURN count(r) AS updated
