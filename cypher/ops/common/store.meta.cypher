// Every key and value tkg records about the store itself (schema_version, embedding_dim).
// On a shared server another session may delete a group's record while this reads; Neo4j then
// reads that record's key as null. Each property is read once, and a record without a key is none.
MATCH (m:TkgMeta)
WITH m.key AS key, m.value AS value
WHERE key IS NOT NULL
RETURN key, value
