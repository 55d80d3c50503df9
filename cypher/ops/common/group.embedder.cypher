// The embedding model a group's vectors came from (tkg.memory records it with the group's first write).
MATCH (m:TkgMeta {key: 'embedder:' + $group_id})
RETURN m.value AS model
