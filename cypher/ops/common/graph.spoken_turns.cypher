// The newest turns one person said (a speaker's "I ..." turns carry no MENTIONS edge to them): with
// graph.entity_turns, the evidence backfill of answers about that person.
MATCH (e:Episodic)
WHERE e.group_id = $group_id AND e.speaker = $speaker
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq
ORDER BY valid_at DESC
LIMIT $limit
