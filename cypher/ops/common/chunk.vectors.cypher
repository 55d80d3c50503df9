// Every searchable turn and sentence chunk of one group with its vector (the numpy baseline).
MATCH (c:Chunk)
WHERE c.group_id = $group_id AND c.kind <> 'fact'
RETURN c.source_ref AS source_ref, c.embedding AS embedding
