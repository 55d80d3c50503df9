// Turn chunks whose lower-cased text contains any of $needles (already lower-case): the
// grounding check for names and attribute words. Word boundaries are checked by the caller.
UNWIND $needles AS needle
MATCH (c:Chunk)
WHERE c.group_id = $group_id AND c.kind = 'turn' AND lower(c.text) CONTAINS needle
RETURN needle, c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.text AS text, c.speaker AS speaker,
       c.source_ref AS source_ref, c.valid_at AS valid_at
