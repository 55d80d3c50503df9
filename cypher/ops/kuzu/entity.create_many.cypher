// New entities of one write transaction, each with its name's embedding (ingest embeds every name
// it creates; null only where a caller has none, then entity.missing_embedding and
// entity.set_embeddings fill it). The embedding comes as text when ingest sends it
// (tkg.models.Vector) or as a list, and Kuzu types a struct field that is null in every row as
// STRING: the CAST takes all three. Casting rows where some lists are null and some are not fails
// in Kuzu 0.11.3 (the null becomes an empty list), so give every row a vector or none.
UNWIND $entities AS n
CREATE (x:Entity {
  uuid: n.uuid, group_id: $group_id, name: n.name, name_key: n.name_key, type: n.type,
  aliases: n.aliases, labels: ['Entity'], summary: n.summary, name_embedding: CAST(n.name_embedding AS FLOAT[]),
  created_at: $created_at
})
RETURN count(x) AS created
