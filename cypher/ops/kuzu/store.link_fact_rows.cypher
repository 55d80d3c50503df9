// Link each fact shadow row that has no STATES link yet from the episode that said it: what a store
// written before the link (schema version 2) lacks. Run by KuzuStore.ensure_schema when the store's
// recorded schema version is older than the code's; running it again changes nothing. Every group,
// like the other store.* ops: a one-time migration of the store itself.
MATCH (c:Chunk)
WHERE c.kind = 'fact' AND NOT EXISTS { MATCH (c)<-[:STATES]-(:Episodic) }
MATCH (e:Episodic {uuid: c.episode_uuid})
WHERE e.group_id = c.group_id
CREATE (e)-[:STATES {group_id: c.group_id}]->(c)
RETURN count(*) AS linked
