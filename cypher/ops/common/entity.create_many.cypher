// New entities of one write transaction; names get their embeddings after the ingest
// (entity.missing_embedding, entity.set_embeddings).
UNWIND $entities AS n
CREATE (x:Entity {
  uuid: n.uuid, group_id: $group_id, name: n.name, name_key: n.name_key, type: n.type,
  aliases: n.aliases, labels: ['Entity'], summary: n.summary, created_at: $created_at
})
RETURN count(x) AS created
