// The group's write stamp (tkg/group_cache.py): a new random value with every anchoring transaction.
MATCH (m:TkgMeta {key: 'group:' + $group_id})
RETURN m.value AS stamp
