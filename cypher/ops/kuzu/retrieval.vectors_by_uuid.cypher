// @each uuids AS uuid
// Some vector rows of one group by uuid, as retrieval.group_vectors returns them (a key lookup each).
// Times come as ISO text (UTC), as the Neo4j version sends them (procedures/group_vectors.py turns
// them back into datetimes).
MATCH (c:Chunk {uuid: $uuid}) WHERE c.group_id = $group_id AND c.embedding IS NOT NULL
RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.speaker AS speaker,
       c.source_ref AS source_ref,
       CAST(c.valid_at AS STRING) AS valid_at,
       CAST(c.time_start AS STRING) AS time_start,
       CAST(c.time_end AS STRING) AS time_end,
       c.embedding AS embedding
