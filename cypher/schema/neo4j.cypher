// tkg schema for Neo4j 5.26. Every statement is idempotent (IF NOT EXISTS; the adapter also
// ignores "an equivalent index already exists", e.g. when graphiti-core built its own first).
// {dim} is the embedding dimension, an integer validated by the adapter (DDL takes no parameters).
//
// Labels, relationship types and property names follow graphiti-core (Episodic, Entity,
// RELATES_TO, MENTIONS; uuid, group_id, name, fact, fact_embedding, name_embedding, episodes,
// valid_at, invalid_at, expired_at, created_at) so graphiti-core's search reads a tkg graph.
// tkg adds Chunk nodes, versioning properties on RELATES_TO, the TkgMeta node and one TkgGroup
// node per group, linked to its turns (HAS_EPISODE) and entities (HAS_ENTITY), from which the
// per-group reads in cypher/ops start (Kuzu has no other index to start them from).

CREATE CONSTRAINT tkg_meta_key IF NOT EXISTS FOR (m:TkgMeta) REQUIRE m.key IS UNIQUE;
CREATE CONSTRAINT tkg_episodic_uuid IF NOT EXISTS FOR (n:Episodic) REQUIRE n.uuid IS UNIQUE;
CREATE CONSTRAINT tkg_entity_uuid IF NOT EXISTS FOR (n:Entity) REQUIRE n.uuid IS UNIQUE;
CREATE CONSTRAINT tkg_chunk_uuid IF NOT EXISTS FOR (n:Chunk) REQUIRE n.uuid IS UNIQUE;
CREATE CONSTRAINT tkg_group_id IF NOT EXISTS FOR (g:TkgGroup) REQUIRE g.group_id IS UNIQUE;
CREATE CONSTRAINT tkg_usage_uuid IF NOT EXISTS FOR (u:TkgUsage) REQUIRE u.uuid IS UNIQUE;
CREATE INDEX tkg_usage_group IF NOT EXISTS FOR (u:TkgUsage) ON (u.group_id);

CREATE INDEX tkg_episodic_group IF NOT EXISTS FOR (n:Episodic) ON (n.group_id, n.seq);
CREATE INDEX tkg_episodic_hash IF NOT EXISTS FOR (n:Episodic) ON (n.group_id, n.content_hash);
CREATE INDEX tkg_entity_group_key IF NOT EXISTS FOR (n:Entity) ON (n.group_id, n.name_key);
CREATE INDEX tkg_chunk_group IF NOT EXISTS FOR (n:Chunk) ON (n.group_id, n.episode_uuid);
CREATE INDEX tkg_fact_uuid IF NOT EXISTS FOR ()-[e:RELATES_TO]-() ON (e.uuid);
CREATE INDEX tkg_fact_group_name IF NOT EXISTS FOR ()-[e:RELATES_TO]-() ON (e.group_id, e.name);
CREATE INDEX tkg_mentions_uuid IF NOT EXISTS FOR ()-[e:MENTIONS]-() ON (e.uuid);

// search_text = "speaker: text", so a question naming the speaker matches their turns.
// The english analyzer stems ("painted" finds "paint"), as the Kuzu index does: on LoCoMo dev the
// standard analyzer left Neo4j's BM25 behind Kuzu's. An index created before keeps its analyzer
// (IF NOT EXISTS); drop chunk_text and fact_text and reopen the store to rebuild them.
CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (n:Chunk) ON EACH [n.search_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR ()-[e:RELATES_TO]-() ON EACH [e.fact]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};

CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (n:Chunk) ON (n.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: {dim}, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR ()-[e:RELATES_TO]-() ON (e.fact_embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: {dim}, `vector.similarity_function`: 'cosine'}};

// graphiti-core's own full-text indexes, by its names, so its search_() works on a tkg graph.
CREATE FULLTEXT INDEX episode_content IF NOT EXISTS FOR (e:Episodic) ON EACH [e.content, e.source, e.source_description, e.group_id];
CREATE FULLTEXT INDEX node_name_and_summary IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.summary, n.group_id];
CREATE FULLTEXT INDEX community_name IF NOT EXISTS FOR (n:Community) ON EACH [n.name, n.group_id];
CREATE FULLTEXT INDEX edge_name_and_fact IF NOT EXISTS FOR ()-[e:RELATES_TO]-() ON EACH [e.name, e.fact, e.group_id];
