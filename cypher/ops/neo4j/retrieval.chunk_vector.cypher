// Vector search over one group's chunks. Neo4j reports (1 + cos) / 2; the score here is cos,
// like Kuzu's. $efs is unused (Neo4j sizes its candidate list from $k_fetch).
CALL db.index.vector.queryNodes('chunk_embedding', $k_fetch, $vector) YIELD node AS c, score
WITH count(*) AS raw,
     collect(CASE WHEN c.group_id = $group_id THEN {
       uuid: c.uuid, episode_uuid: c.episode_uuid, kind: c.kind, text: c.text, speaker: c.speaker,
       source_ref: c.source_ref, valid_at: c.valid_at, time_start: c.time_start, time_end: c.time_end,
       score: 2.0 * score - 1.0} END) AS hits
RETURN raw, hits
