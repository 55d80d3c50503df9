// A group's chunks (turns, sentences, fact shadows). Params: $group_id.
MATCH (c:Chunk) WHERE c.group_id = $group_id RETURN c.uuid AS uuid, c.episode_uuid AS episode, c.kind AS kind
