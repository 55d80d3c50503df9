// Vector search over one group's facts (Chunk shadow rows of kind 'fact'); score = cosine similarity.
CALL QUERY_VECTOR_INDEX('Chunk', 'chunk_embedding', $vector, $k_fetch, efs := $efs)
WITH node AS f, distance
WITH count(*) AS raw,
     collect(CASE WHEN f.group_id = $group_id AND f.kind = 'fact' THEN {uuid: f.uuid, fact: f.text, score: 1.0 - distance} ELSE NULL END) AS hits
RETURN raw, hits
