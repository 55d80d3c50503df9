// A group's episodes, for the invariant checks (tkg/bench/invariants.py). Params: $group_id.
MATCH (e:Episodic) WHERE e.group_id = $group_id RETURN e.uuid AS uuid, e.seq AS seq, e.content_hash AS content_hash
