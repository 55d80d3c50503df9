// Kuzu indexes only node tables: a Chunk row of kind 'fact' (same uuid as the edge) carries the
// fact sentence and embedding for search, linked (STATES) from the episode that said it, so a
// group's reads reach it from the group's anchor. The embedding comes as text when ingest sends it
// (tkg.models.Vector), or as a list: cast either (not null: Kuzu 0.11.3 cannot bind a null
// parameter cast to a list of unknown length). A fact whose episode is not in the group is still
// written, unlinked; only then no row comes back.
MATCH (s:Entity {uuid: $subject_uuid}), (o:Entity {uuid: $object_uuid})
WHERE s.group_id = $group_id AND o.group_id = $group_id
OPTIONAL MATCH (e:Episodic {uuid: $source_episode})
WHERE e.group_id = $group_id
CREATE (s)-[r:RELATES_TO {
  uuid: $uuid, group_id: $group_id, name: $predicate, fact: $fact,
  qualifier: $qualifier, episodes: $episodes, source_chunk: $source_chunk, source_ref: $source_ref,
  version: $version, confidence: $confidence, supersedes: $supersedes, time_text: $time_text, extractor: $extractor,
  valid_at: $valid_at, invalid_at: $invalid_at, created_at: $created_at, expired_at: $expired_at
}]->(o)
CREATE (f:Chunk {uuid: $uuid, group_id: $group_id, episode_uuid: $source_episode, kind: 'fact', text: $fact,
                 search_text: $fact, seq: -1, speaker: '', source_ref: $source_ref, valid_at: $valid_at,
                 embedding: CAST($fact_embedding AS FLOAT[])})
WITH r, f, e
WHERE e IS NOT NULL
CREATE (e)-[:STATES {group_id: $group_id}]->(f)
RETURN r.uuid AS uuid
