// Two statements, not three: the link to the previous turn is made in the creating statement,
// over a list of zero or one previous uuid (Kuzu has no FOREACH; statements cost ~1 ms each).
CREATE (e:Episodic {
  uuid: $uuid, group_id: $group_id, name: $name, content: $content, source: $source,
  source_description: $source_description, speaker: $speaker, source_ref: $source_ref,
  content_hash: $content_hash, seq: $seq, session: $session, valid_at: $valid_at,
  created_at: $created_at, entity_edges: $entity_edges
})
WITH e
UNWIND CASE WHEN $prev_uuid IS NULL THEN CAST([] AS STRING[]) ELSE [CAST($prev_uuid AS STRING)] END AS p
MATCH (prev:Episodic {uuid: p})
WHERE prev.group_id = $group_id
CREATE (prev)-[:NEXT_EPISODE {group_id: $group_id}]->(e);
MATCH (e:Episodic {uuid: $uuid})
RETURN e.uuid AS uuid
