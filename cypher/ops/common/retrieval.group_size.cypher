// How many turn, sentence and fact vectors one group holds: the exact per-group vector search
// (procedures/group_vectors.py) reads a group's vectors only when there are few enough.
MATCH (c:Chunk) WHERE c.group_id = $group_id
RETURN count(c) AS n
