// Turns of one group by position (seq): the neighbours of retrieved turns. By seq from the group's
// anchor rather than by walking NEXT_EPISODE because Kuzu's variable-length walks cost ~100x more here.
MATCH (:TkgGroup {group_id: $group_id})-[:HAS_EPISODE]->(e:Episodic)
WHERE e.seq IN $seqs
RETURN e.uuid AS uuid, e.content AS text, e.speaker AS speaker, e.source_ref AS source_ref,
       e.valid_at AS valid_at, e.seq AS seq, e.session AS session
