// New fact-sentence vectors: on Neo4j the edge carries its vector (fact_embedding index).
UNWIND $rows AS row
MATCH (:Entity)-[r:RELATES_TO {uuid: row.uuid}]->(:Entity)
WHERE r.group_id = $group_id
SET r.fact_embedding = row.embedding
RETURN count(r) AS updated
