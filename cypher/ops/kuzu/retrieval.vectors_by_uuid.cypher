// @each uuids AS uuid
// Some vector rows of one group by uuid, as retrieval.group_vectors returns them (a key lookup each).
MATCH (c:Chunk {uuid: $uuid}) WHERE c.group_id = $group_id AND c.embedding IS NOT NULL
RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.speaker AS speaker,
       c.source_ref AS source_ref, c.valid_at AS valid_at, c.time_start AS time_start, c.time_end AS time_end,
       c.embedding AS embedding
