// Record the group's embedding model, and give the group a new write stamp so that no process keeps
// per-group lists (names, vectors) read before a re-embedding (tkg/group_cache.py).
MERGE (s:TkgMeta {key: 'group:' + $group_id})
SET s.value = $stamp;
MERGE (m:TkgMeta {key: 'embedder:' + $group_id})
SET m.value = $model
RETURN m.value AS model
