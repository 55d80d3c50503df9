// Every vector of one group with the row retrieval.vector returns for it, for exact search in
// memory (procedures/group_vectors.py). Kuzu keeps fact sentences as Chunk rows of kind 'fact',
// so one table holds them all. Walked from the group's anchor: its turns (HAS_EPISODE), their turn
// and sentence chunks (HAS_CHUNK) and the shadow rows of the facts they stated (STATES); Kuzu has no
// index on group_id, so a filter on it alone scans every group's rows (and their vectors). The
// filter comes after a WITH of the values: Kuzu 0.11.3 plans a WHERE on `c` straight after the
// MATCH as a join with a scan of the whole Chunk table, which costs about as much as the scan.
// Ordered by uuid, so the matrix is the same on every read.
// Times come as ISO text (UTC), as the Neo4j version sends them (procedures/group_vectors.py turns
// them back into datetimes).
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(:Episodic)-[:HAS_CHUNK|STATES]->(c:Chunk)
WITH c.uuid AS uuid, c.episode_uuid AS episode_uuid, c.kind AS kind, c.text AS text, c.speaker AS speaker,
     c.source_ref AS source_ref,
     CAST(c.valid_at AS STRING) AS valid_at,
     CAST(c.time_start AS STRING) AS time_start,
     CAST(c.time_end AS STRING) AS time_end,
     c.embedding AS embedding, c.group_id AS gid
WHERE gid = $group_id AND embedding IS NOT NULL
RETURN uuid, episode_uuid, kind, text, speaker, source_ref, valid_at, time_start, time_end, embedding
ORDER BY uuid
