// The name of every group, from its anchor: without reading its turns (the Neo4j warm-up plans for
// the lengths of these names, tkg/stores/warmup.py).
MATCH (g:TkgGroup)
RETURN g.group_id AS group_id
