// Close a version: valid time ends at $invalid_at; record time ends at $expired_at.
MATCH ()-[r:RELATES_TO {uuid: $uuid}]->()
WHERE r.group_id = $group_id
SET r.invalid_at = $invalid_at, r.expired_at = $expired_at
RETURN r.uuid AS uuid
