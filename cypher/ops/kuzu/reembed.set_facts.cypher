// @foreach rows
// New fact-sentence vectors: on Kuzu they live in the fact's shadow Chunk row (kind 'fact', same
// uuid as the edge), whose indexed vector cannot be SET, so the row is deleted and made again with
// the same values and its STATES link (one row at a time: a multi-row CREATE mis-indexes its full-text).
UNWIND $rows AS row
MATCH (c:Chunk {uuid: row.uuid})
WHERE c.group_id = $group_id AND c.kind = 'fact'
WITH row, c.episode_uuid AS episode_uuid, c.text AS text, c.source_ref AS source_ref, c.valid_at AS valid_at, c
DETACH DELETE c
WITH row, episode_uuid, text, source_ref, valid_at
CREATE (f:Chunk {uuid: row.uuid, group_id: $group_id, episode_uuid: episode_uuid, kind: 'fact', text: text,
                 search_text: text, seq: -1, speaker: '', source_ref: source_ref, valid_at: valid_at,
                 embedding: CAST(row.embedding AS FLOAT[])})
WITH f, episode_uuid
OPTIONAL MATCH (e:Episodic {uuid: episode_uuid})
WHERE e.group_id = $group_id
WITH f, e
WHERE e IS NOT NULL
CREATE (e)-[:STATES {group_id: $group_id}]->(f)
RETURN count(f) AS updated
