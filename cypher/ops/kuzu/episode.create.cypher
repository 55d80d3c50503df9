CREATE (e:Episodic {
  uuid: $uuid, group_id: $group_id, name: $name, content: $content, source: $source,
  source_description: $source_description, speaker: $speaker, source_ref: $source_ref,
  content_hash: $content_hash, seq: $seq, session: $session, valid_at: $valid_at,
  created_at: $created_at, entity_edges: $entity_edges
});
MATCH (prev:Episodic {uuid: $prev_uuid}), (e:Episodic {uuid: $uuid})
WHERE prev.group_id = $group_id
CREATE (prev)-[:NEXT_EPISODE {group_id: $group_id}]->(e);
MATCH (e:Episodic {uuid: $uuid})
RETURN e.uuid AS uuid
