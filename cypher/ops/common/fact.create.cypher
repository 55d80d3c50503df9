// reference_time: when the turn that states the fact was said; graphiti-core reads it with every edge.
// fact_embedding_f32: the vector's float32 bytes (tkg.models.f32_bytes), what retrieval.group_vectors sends.
MATCH (s:Entity {uuid: $subject_uuid}), (o:Entity {uuid: $object_uuid})
WHERE s.group_id = $group_id AND o.group_id = $group_id
CREATE (s)-[r:RELATES_TO {
  uuid: $uuid, group_id: $group_id, name: $predicate, fact: $fact, fact_embedding: $fact_embedding,
  fact_embedding_f32: $fact_embedding_f32,
  qualifier: $qualifier, episodes: $episodes, source_chunk: $source_chunk, source_ref: $source_ref,
  version: $version, confidence: $confidence, supersedes: $supersedes, time_text: $time_text, extractor: $extractor,
  valid_at: $valid_at, invalid_at: $invalid_at, created_at: $created_at, expired_at: $expired_at,
  reference_time: $reference_time
}]->(o)
RETURN r.uuid AS uuid
