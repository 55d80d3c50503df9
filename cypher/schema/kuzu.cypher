// tkg schema for Kuzu 0.11 (embedded). Applied statement by statement; every statement is
// idempotent (IF NOT EXISTS, or an index the adapter skips when SHOW_INDEXES already lists it).
// {dim} is the embedding dimension, an integer validated by the adapter (DDL takes no parameters).
//
// Why the layout differs from Neo4j's:
// * Kuzu needs typed tables, so every property is declared here; names match graphiti-core's
//   (Episodic, Entity, RELATES_TO, uuid, group_id, name, fact, episodes, valid_at, invalid_at,
//   expired_at, created_at) so the same Cypher reads both stores.
// * Kuzu's full-text and vector indexes only cover node tables, so each fact edge has a shadow
//   row in Chunk (kind = 'fact', same uuid as the edge) carrying the fact sentence and its
//   embedding for search; the RELATES_TO edge stays the source of truth that hop walks and
//   histories read. One table rather than a FactIndex table of its own: Kuzu 0.11.3 loses other
//   rows of a transaction that writes to two full-text indexes (reproduced here; Kuzu is no
//   longer maintained), so the whole schema has exactly one FTS index.

CREATE NODE TABLE IF NOT EXISTS TkgMeta(key STRING PRIMARY KEY, value STRING);

CREATE NODE TABLE IF NOT EXISTS Episodic(
  uuid STRING PRIMARY KEY, group_id STRING, name STRING, content STRING, source STRING,
  source_description STRING, speaker STRING, source_ref STRING, content_hash STRING, seq INT64,
  session STRING, valid_at TIMESTAMP, created_at TIMESTAMP, entity_edges STRING[], extract_context STRING,
  parse STRING);

// stores made before the column (tkg/extract/history.py)
ALTER TABLE Episodic ADD IF NOT EXISTS extract_context STRING DEFAULT '';
// stores made before turns kept their parse (tkg/stored_parse.py): their turns are parsed when read
ALTER TABLE Episodic ADD IF NOT EXISTS parse STRING DEFAULT '';

CREATE NODE TABLE IF NOT EXISTS Chunk(
  uuid STRING PRIMARY KEY, group_id STRING, episode_uuid STRING, kind STRING, text STRING, search_text STRING, seq INT64,
  speaker STRING, source_ref STRING, valid_at TIMESTAMP, time_text STRING, time_start TIMESTAMP,
  time_end TIMESTAMP, embedding FLOAT[{dim}]);

CREATE NODE TABLE IF NOT EXISTS Entity(
  uuid STRING PRIMARY KEY, group_id STRING, name STRING, name_key STRING, type STRING,
  aliases STRING[], labels STRING[], summary STRING, name_embedding FLOAT[{dim}], created_at TIMESTAMP);

CREATE REL TABLE IF NOT EXISTS RELATES_TO(
  FROM Entity TO Entity, uuid STRING, group_id STRING, name STRING, fact STRING, qualifier STRING,
  episodes STRING[], source_chunk STRING, source_ref STRING, version INT64, confidence DOUBLE,
  supersedes STRING, time_text STRING, valid_at TIMESTAMP, invalid_at TIMESTAMP,
  created_at TIMESTAMP, expired_at TIMESTAMP, extractor STRING);

// A store made before facts named their extractor gains the column (its facts are the rules').
ALTER TABLE RELATES_TO ADD IF NOT EXISTS extractor STRING DEFAULT 'rules';

// A model's tokens per ingested turn, stage and model (tkg/llm/usage.py; `tkg usage`).
CREATE NODE TABLE IF NOT EXISTS TkgUsage(
  uuid STRING PRIMARY KEY, group_id STRING, episode_uuid STRING, stage STRING, model STRING,
  calls INT64, cached INT64, fallbacks INT64, tokens_in INT64, tokens_out INT64, created_at TIMESTAMP);

CREATE REL TABLE IF NOT EXISTS MENTIONS(FROM Episodic TO Entity, uuid STRING, group_id STRING, created_at TIMESTAMP);

CREATE REL TABLE IF NOT EXISTS HAS_CHUNK(FROM Episodic TO Chunk, group_id STRING);

// The turn that stated a fact, to the fact's shadow Chunk row (written with the fact): a group's
// vector rows are then all reached from its anchor (HAS_EPISODE, then HAS_CHUNK or STATES), not by a
// scan of the whole Chunk table. Stores made before it gain the links once (store.link_fact_rows).
CREATE REL TABLE IF NOT EXISTS STATES(FROM Episodic TO Chunk, group_id STRING);

CREATE REL TABLE IF NOT EXISTS NEXT_EPISODE(FROM Episodic TO Episodic, group_id STRING);

// One anchor node per group, linked to its turns and entities: Kuzu has no index but the primary
// key, so `WHERE e.group_id = $g` reads the whole table, while a walk from the group's key reads
// only the group's own rows (their cost stays flat as other groups fill the store).
CREATE NODE TABLE IF NOT EXISTS TkgGroup(group_id STRING PRIMARY KEY);

CREATE REL TABLE IF NOT EXISTS HAS_EPISODE(FROM TkgGroup TO Episodic);

CREATE REL TABLE IF NOT EXISTS HAS_ENTITY(FROM TkgGroup TO Entity);

CALL CREATE_FTS_INDEX('Chunk', 'chunk_text', ['search_text'], stemmer := 'english');

// HNSW with a smaller graph degree and construction beam than Kuzu's defaults (mu 30, ml 60,
// efc 200): inserting a vector at commit was the largest cost of ingest, and at tkg's scale
// (10^3–10^5 chunks per store) recall of the top 50 stays high; queries widen `efs` as needed.
CALL CREATE_VECTOR_INDEX('Chunk', 'chunk_embedding', 'embedding', metric := 'cosine', mu := 16, ml := 32, efc := 64);
