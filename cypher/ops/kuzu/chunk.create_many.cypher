// @foreach chunks
// Kuzu 0.11 indexes every row of a multi-row CREATE with the first row's text (and may crash on
// delete afterwards), so the adapter runs this once per chunk inside the write transaction;
// inside a bulk load (no index present, built afterwards) it runs once for the whole list.
// Kuzu matches {uuid: ch.episode_uuid} after the UNWIND by a scan of Episodic, which is small
// beside the index updates of a chunk row outside a bulk load.
// Kuzu types a struct field that is null in every row as STRING: cast the optional times. The
// embedding comes as text when ingest sends it (tkg.models.Vector), or as a list: cast either.
UNWIND $chunks AS ch
MATCH (e:Episodic {uuid: ch.episode_uuid})
WHERE e.group_id = $group_id
CREATE (c:Chunk {
  uuid: ch.uuid, group_id: $group_id, episode_uuid: ch.episode_uuid, kind: ch.kind, text: ch.text, search_text: ch.search_text,
  seq: ch.seq, speaker: ch.speaker, source_ref: ch.source_ref, valid_at: CAST(ch.valid_at AS TIMESTAMP),
  time_text: CAST(ch.time_text AS STRING), time_start: CAST(ch.time_start AS TIMESTAMP),
  time_end: CAST(ch.time_end AS TIMESTAMP), embedding: CAST(ch.embedding AS FLOAT[])
})
CREATE (e)-[:HAS_CHUNK {group_id: $group_id}]->(c)
RETURN count(c) AS created
