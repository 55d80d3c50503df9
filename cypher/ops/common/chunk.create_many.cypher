// Chunks of the turns of one write transaction, each row naming its turn (`episode_uuid`). Each keeps
// its embedding twice: the float list the vector index reads, and its float32 bytes
// (tkg.models.f32_bytes) that retrieval.group_vectors sends instead.
UNWIND $chunks AS ch
MATCH (e:Episodic {uuid: ch.episode_uuid})
WHERE e.group_id = $group_id
CREATE (c:Chunk {
  uuid: ch.uuid, group_id: $group_id, episode_uuid: ch.episode_uuid, kind: ch.kind, text: ch.text, search_text: ch.search_text,
  seq: ch.seq, speaker: ch.speaker, source_ref: ch.source_ref, valid_at: ch.valid_at,
  time_text: ch.time_text, time_start: ch.time_start, time_end: ch.time_end, embedding: ch.embedding,
  embedding_f32: ch.embedding_f32
})
CREATE (e)-[:HAS_CHUNK {group_id: $group_id}]->(c)
RETURN count(c) AS created
