CREATE (n:Entity {
  uuid: $uuid, group_id: $group_id, name: $name, name_key: $name_key, type: $type,
  aliases: $aliases, labels: $labels, summary: $summary, name_embedding: $name_embedding,
  created_at: $created_at, attributes: '{}'
})
RETURN n.uuid AS uuid
