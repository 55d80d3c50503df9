// Link every fact shadow row from the episode that said it: what a store written before the link
// (schema version 2) lacks. Run by KuzuStore.ensure_schema when the store's recorded schema version
// is not the code's; the links are dropped and made again whole, so running it again (or over a
// store an older tkg wrote some unlinked rows into) leaves one link a row. Not `NOT EXISTS`: Kuzu
// 0.11.3 runs that subquery with the CREATE so slowly that a 100,000-turn store took minutes.
// Every group, like the other store.* ops: a one-time migration of the store itself.
MATCH (:Episodic)-[s:STATES]->(:Chunk)
DELETE s;
MATCH (c:Chunk)
WHERE c.kind = 'fact'
MATCH (e:Episodic {uuid: c.episode_uuid})
WHERE e.group_id = c.group_id
CREATE (e)-[:STATES {group_id: c.group_id}]->(c)
RETURN count(*) AS linked
