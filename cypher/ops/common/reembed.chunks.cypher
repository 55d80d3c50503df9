// Every turn, sentence and window chunk of a group with what re-creating it takes (tkg reembed);
// fact sentences are re-embedded from their facts (reembed.facts).
MATCH (c:Chunk)
WHERE c.group_id = $group_id AND c.kind <> 'fact'
RETURN c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text,
       c.search_text AS search_text, c.seq AS seq, c.speaker AS speaker, c.source_ref AS source_ref,
       c.valid_at AS valid_at, c.time_text AS time_text, c.time_start AS time_start, c.time_end AS time_end
ORDER BY episode_uuid, seq, uuid
