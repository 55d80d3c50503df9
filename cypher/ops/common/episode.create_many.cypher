// The turns of one write transaction, in order: one statement creates them all and one links each
// to the turn before it (`prev_uuid`, null for a group's first turn), which may be in the same list.
// Statements cost about 1 ms each on Kuzu, so ingest writes per transaction, not per turn.
// `extract_context`: what the turn hands on to the extractor for later turns (tkg/extract/history.py);
// `parse`: the turn's parse, made at ingest for the reader (tkg/stored_parse.py), null without one.
UNWIND $episodes AS ep
CREATE (e:Episodic {
  uuid: ep.uuid, group_id: $group_id, name: ep.name, content: ep.content, source: ep.source,
  source_description: ep.source_description, speaker: ep.speaker, source_ref: ep.source_ref,
  content_hash: ep.content_hash, seq: ep.seq, session: ep.session, valid_at: ep.valid_at,
  created_at: $created_at, entity_edges: ep.entity_edges, extract_context: ep.extract_context,
  parse: ep.parse
});
UNWIND $episodes AS ep
MATCH (p:Episodic {uuid: ep.prev_uuid}), (e:Episodic {uuid: ep.uuid})
WHERE p.group_id = $group_id AND e.group_id = $group_id
CREATE (p)-[:NEXT_EPISODE {group_id: $group_id}]->(e)
RETURN count(e) AS linked
