// Record a value about the store (idempotent).
MERGE (m:TkgMeta {key: $key})
SET m.value = $value
