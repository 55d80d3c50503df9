// Every turn of one group, from its anchor, with the columns of retrieval.turns: what
// procedures/group_turns.py keeps per write stamp and answers retrieval.turns,
// retrieval.turns_by_seq, graph.turns_with_terms and temporal.group_span from, and the turns' stored
// parses (tkg/stored_parse.py), which it offers to the reader.
// Times come as ISO text (UTC), as the Neo4j version sends them (procedures/group_turns.py turns them
// back into datetimes).
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
WHERE e.group_id = $group_id
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       CAST(e.valid_at AS STRING) AS valid_at, e.seq AS seq, e.session AS session, e.parse AS parse
ORDER BY e.seq, e.uuid
