// Record the group's embedding model, and drop its write stamp so that no process keeps per-group
// lists (names, vectors) read before a re-embedding (tkg/group_cache.py).
MATCH (s:TkgMeta {key: 'group:' + $group_id})
DELETE s;
MERGE (m:TkgMeta {key: 'embedder:' + $group_id})
SET m.value = $model
RETURN m.value AS model
