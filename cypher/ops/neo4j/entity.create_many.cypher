// New entities of one write transaction, each with its name's embedding (null where a caller has
// none: entity.missing_embedding and entity.set_embeddings fill it). graphiti-core reads
// `attributes` as JSON.
UNWIND $entities AS n
CREATE (x:Entity {
  uuid: n.uuid, group_id: $group_id, name: n.name, name_key: n.name_key, type: n.type,
  aliases: n.aliases, labels: ['Entity'], summary: n.summary, name_embedding: n.name_embedding,
  created_at: $created_at, attributes: '{}'
})
RETURN count(x) AS created
