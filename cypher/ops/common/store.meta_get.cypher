// One value tkg recorded about the store (e.g. embedding_dim), or no row.
MATCH (m:TkgMeta {key: $key})
RETURN m.value AS value
