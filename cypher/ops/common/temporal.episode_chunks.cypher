// Every chunk of the given episodes, with the times resolved at ingest, in reading order.
MATCH (c:Chunk)
WHERE c.group_id = $group_id AND c.episode_uuid IN $episode_uuids
RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.seq AS seq,
       c.speaker AS speaker, c.source_ref AS source_ref, c.valid_at AS valid_at,
       c.time_text AS time_text, c.time_start AS time_start, c.time_end AS time_end
ORDER BY c.valid_at, c.seq
