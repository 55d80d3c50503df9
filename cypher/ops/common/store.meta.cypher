// Every key and value tkg records about the store itself (schema_version, embedding_dim).
MATCH (m:TkgMeta)
RETURN m.key AS key, m.value AS value
