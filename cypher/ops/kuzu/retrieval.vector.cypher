// Vector search over one group's turns, sentences and facts (one Chunk index in Kuzu); score =
// cosine similarity. Same one-row shape as retrieval.text. efs follows $k_fetch so a deep
// over-fetch is still a real nearest-neighbour list.
CALL QUERY_VECTOR_INDEX('Chunk', 'chunk_embedding', $vector, $k_fetch, efs := $efs)
WITH node AS c, distance
WITH count(*) AS raw,
     collect(CASE WHEN c.group_id = $group_id THEN {
       uuid: c.uuid, episode_uuid: c.episode_uuid, kind: c.kind, text: c.text, speaker: c.speaker,
       source_ref: c.source_ref, valid_at: c.valid_at, time_start: c.time_start, time_end: c.time_end,
       score: 1.0 - distance} ELSE NULL END) AS hits
RETURN raw, hits
