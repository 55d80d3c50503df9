"""Kuzu adapter: the embedded default, one database directory, no server.

Kuzu allows one read-write process per database and one write transaction at a time, so the
adapter keeps a connection per thread and serialises writes behind a lock. Kuzu's driver raises
bare ``RuntimeError``; `kuzu_values.translate` turns them into the TkgError hierarchy.

The vector index is made on demand (groups scored in memory never read it; each row written under
it costs an HNSW insert): by a statement calling ``QUERY_VECTOR_INDEX``, or `build_vector_index`
after an ingest leaves a group too large for memory. It then stays (Kuzu 0.11.3 cannot drop it).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import kuzu

from ..cypher import load_query, load_schema
from ..errors import SchemaError, StoreError, StoreUnavailable
from ..group_cache import new_stamp
from .base import SCHEMA_VERSION, NamedMixin, Params, Row, Transaction, rows_iter
from .kuzu_schema import INDEX_CALL, TABLE, VECTOR_QUERY, Index, schema_indexes
from .kuzu_values import param, signature, translate
from .read_guard import check_read_only

# write-ahead log a bulk load may gather before Kuzu checkpoints (see KuzuStore.bulk_load)
BULK_CHECKPOINT_BYTES = 1 << 30
_RETRY = "opening the store again retries it"

class _Tx(Transaction):
    dialect = "kuzu"
    _store: KuzuStore
    _handle: kuzu.Connection

    def run(self, query: str, params: Params = None) -> list[Row]:
        return self._store._execute(self._handle, query, params)

    def _split_foreach(self) -> bool:
        return self._store._split_foreach()


class KuzuStore(NamedMixin):
    """An embedded Kuzu database at a directory path (opened by `open_store`, as in tkg/stores/base.py)."""

    dialect = "kuzu"
    # Whole episodes per write transaction, as on Neo4j. Edge reads must filter after a WITH
    # (cypher/ops/README.md): Kuzu 0.11.3's pushed-down edge filter reads wrong slot versions inside
    # a transaction that created and superseded many edges after a checkpoint;
    # tests/test_bulk_load.py::test_a_checkpoint_does_not_change_what_ingest_writes guards it.
    episodes_per_transaction = 32
    shared = False  # one process's embedded database: what a run writes goes when its directory goes
    server_uri: str | None = None  # no server another client (graphiti-core) could read it through
    # facts are searched through Chunk rows of kind 'fact' that shadow each RELATES_TO edge
    fact_shadows = True

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = str(Path(path).expanduser().resolve())
        self.url = f"kuzu://{self.path}"
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = kuzu.Database(self.path, read_only=read_only)
        except RuntimeError as exc:
            raise translate(exc, self.path) from exc
        self._local = threading.local()
        self._conns: list[kuzu.Connection] = []
        self._write_lock = threading.RLock()
        self._prepared: dict[int, dict[tuple[str, str], kuzu.PreparedStatement]] = {}
        self._closed = False
        self._in_bulk = False  # inside bulk_load (held by the thread holding the write lock)
        self._unindexed = False  # ...and its tables have none of the schema's indexes
        self._vectors_ready: bool | None = None  # the vector index exists (None: not looked yet)
        self._vectors_wanted = False  # build_vector_index was called inside bulk_load: build at its end

    # -- connections ------------------------------------------------------------------------
    def _conn(self) -> kuzu.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise StoreUnavailable(f"the store {self.url} is closed")
            conn = kuzu.Connection(self._db)
            with self._write_lock:
                for ext in ("fts", "vector"):
                    try:
                        conn.execute(f"LOAD EXTENSION {ext}")
                    except RuntimeError:
                        pass  # built in on 0.11; loading twice is harmless
            self._local.conn = conn
            self._conns.append(conn)
        return conn

    def _execute(self, conn: kuzu.Connection, query: str, params: Params) -> list[Row]:
        try:
            if params:
                # preparing costs about as much as running a small statement, so prepared statements
                # are kept per connection; Kuzu binds parameter types when preparing, hence the key
                values = {k: param(v) for k, v in params.items()}
                key = (query, signature(values))
                cache = self._prepared.setdefault(id(conn), {})
                prepared = cache.get(key)
                if prepared is None:
                    # execute(str) prepares internally through _prepare; the public prepare() only adds
                    # a DeprecationWarning (kuzu is pinned at 0.11.3, its last release)
                    prepared = conn._prepare(query, values)
                    if not prepared.is_success():  # a failed preparation must not be cached
                        raise RuntimeError(prepared.get_error_message())
                    cache[key] = prepared
                result = conn.execute(prepared, values)
            else:
                result = conn.execute(query)
        except RuntimeError as exc:
            raise translate(exc, self.path) from exc
        if isinstance(result, list):  # several statements: keep the last result
            result = result[-1]
        columns = result.get_column_names()

        def records() -> Iterator[list[Any]]:
            while result.has_next():
                yield list(result.get_next())

        rows = rows_iter(columns, records())
        result.close()
        return rows

    # -- GraphStore -------------------------------------------------------------------------
    def run(self, query: str, params: Params = None) -> list[Row]:
        # One statement at a time per database: Kuzu 0.11.3 aborts the whole process when reads
        # run on other connections while a write transaction updates the full-text and vector
        # indexes (seen in tests/test_concurrency.py), so the adapter serialises every statement.
        with self._write_lock:
            conn = self._conn()
            self._ready_for(conn, query)
            return self._execute(conn, query, params)

    def read(self, query: str, params: Params = None) -> list[Row]:
        """One allowed read (tkg/stores/read_guard.py) in a read-only transaction."""
        check_read_only(query)
        with self._write_lock:
            conn = self._conn()
            self._ready_for(conn, query)
            self._execute(conn, "BEGIN TRANSACTION READ ONLY", None)
            try:
                rows = self._execute(conn, query, params)
            except BaseException:
                self._rollback(conn)
                raise
            self._execute(conn, "ROLLBACK", None)
            return rows

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        conn = self._conn()
        with self._write_lock:
            self._execute(conn, "BEGIN TRANSACTION", None)
            try:
                yield _Tx(self, conn)
            except BaseException:
                self._rollback(conn)
                raise
            self._execute(conn, "COMMIT", None)

    def _rollback(self, conn: kuzu.Connection) -> None:
        """Roll back after a failure (Kuzu may have ended the transaction itself: not an error)."""
        try:
            self._execute(conn, "ROLLBACK", None)
        except StoreError:
            pass

    def ensure_schema(self, dim: int) -> None:
        with self._write_lock:
            conn = self._conn()
            recorded = self._meta(conn, "embedding_dim")
            version = self._meta(conn, "schema_version")
            if recorded is not None and recorded != str(dim):
                raise SchemaError(
                    f"the Kuzu database at {self.path} was built for {recorded}-dim embeddings, "
                    f"not {dim}; use the same embedder or a new database"
                )
            schema = load_schema("kuzu", dim)
            # An empty table lacking one of its indexes is what a crash inside bulk_load leaves, maybe
            # with the vector index half dropped (see _reset_empty): such a table is made anew (an
            # empty Chunk table always, as its vector index waits to be needed: cheap while empty).
            existing = self._index_keys(conn)
            lacking = {ix.table for ix in schema_indexes(schema) if ix.key not in existing}
            self._reset_empty(conn, schema, lacking)
            existing = self._index_keys(conn)
            deferred = {ix.create for ix in schema_indexes(schema) if ix.deferred}
            for stmt in schema:
                found = INDEX_CALL.search(stmt)
                if stmt in deferred or found and (found.group(2), found.group(3)) in existing:
                    continue  # missing ones are made here, also those a crash inside bulk_load left out
                try:
                    self._execute(conn, stmt, None)
                except StoreError as exc:
                    raise SchemaError(f"applying the Kuzu schema failed at {stmt[:60]!r}: {exc}") from exc
            self.named("group.adopt", {"stamp": new_stamp()})  # nodes left without an anchor
            if version is not None and version != SCHEMA_VERSION:  # written by another tkg: link its facts
                self.named("store.link_fact_rows")
            for key, value in (("schema_version", SCHEMA_VERSION), ("embedding_dim", str(dim))):
                self._execute(conn, load_query("store.meta_set", self.dialect), {"key": key, "value": value})
            self._vectors_ready = None  # looked up again when asked

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Write without the full-text index (and the vector index, built on demand), build it at the end.

        Kuzu updates its indexes row by row as it inserts, several times dearer than inserting
        without them and building once afterwards (tools/kuzu_insert_cost.py). Kuzu 0.11.3 cannot
        drop a vector index from a table that keeps its rows, so an empty table is made anew without
        indexes, and one that holds rows loses its full-text index for the block only while it has
        no vector index (with one, the block changes nothing but the locking).
        The write lock is held throughout, so statements on other threads wait rather than search
        without indexes; a crash inside leaves the full-text index missing until the next
        ``ensure_schema`` (every ``Memory.open``) builds it. Kuzu checkpoints whenever its write-ahead log
        passes 16 MiB, and a checkpoint costs more the larger the store, so a long load's commits would
        slow as it grew. Inside the block the threshold is ``BULK_CHECKPOINT_BYTES``, so the load
        checkpoints about once (when the indexes are built) and its log may grow to that size.
        """
        with self._write_lock:
            if self._in_bulk:
                yield
                return
            conn = self._conn()
            schema = self._schema(conn)
            indexed = {ix.table for ix in schema_indexes(schema)}
            reset = self._reset_empty(conn, schema, indexed)
            bare = reset | self._drop_text_indexes(conn, schema, indexed - reset)
            self._in_bulk, self._unindexed = True, bool(bare) and bare == indexed
            threshold = self._execute(conn, load_query("store.checkpoint_threshold", self.dialect), None)
            self._set_checkpoint_threshold(conn, BULK_CHECKPOINT_BYTES)
            try:
                yield
            finally:
                self._in_bulk = self._unindexed = False
                self._prepared.clear()  # plans made without the indexes would not update them
                self._set_checkpoint_threshold(conn, int(threshold[0]["checkpoint_threshold"]))
                wanted, self._vectors_wanted = self._vectors_wanted, False
                self._build(conn, [ix for ix in schema_indexes(schema)
                                   if (wanted if ix.deferred else ix.table in bare)], "after a bulk load")

    def _schema(self, conn: kuzu.Connection) -> list[str]:
        """The schema's statements for the recorded embedding width (none before any schema)."""
        dim = self._meta(conn, "embedding_dim")
        return load_schema("kuzu", int(dim)) if dim else []

    def _drop_text_indexes(self, conn: kuzu.Connection, schema: list[str], tables: set[str]) -> set[str]:
        """Drop the full-text indexes of those of ``tables`` that have no vector index (rebuilt at the
        end of the bulk load, old rows with the new); returns the tables left with no index."""
        existing = self._index_keys(conn)
        mine = schema_indexes(schema)
        vectors = {ix.table for ix in mine if ix.deferred and ix.key in existing}
        bare = tables - vectors
        dropped = [ix for ix in mine if ix.table in bare and not ix.deferred and ix.key in existing]
        for ix in dropped:
            self._execute(conn, ix.drop, None)
        if dropped:  # Kuzu 0.11.3 cannot open a log holding the drop then rows (a crash inside)
            self._execute(conn, "CHECKPOINT", None)
            self._prepared.clear()  # plans made with the indexes would update them
        return bare

    def _build(self, conn: kuzu.Connection, indexes: list[Index], when: str, retry: str = _RETRY) -> None:
        """Create those of ``indexes`` that do not exist."""
        existing = self._index_keys(conn)
        for ix in indexes:
            if ix.key in existing:
                self._vectors_ready = self._vectors_ready or ix.deferred
                continue
            try:
                self._execute(conn, ix.create, None)
            except StoreError as exc:
                raise SchemaError(f"building the index {ix.table}.{ix.name} {when} failed ({exc}); {retry}") \
                    from exc
            if ix.deferred:
                self._vectors_ready = True

    # -- the vector index, built on demand (see the module docstring) -------------------------------
    def _ready_for(self, conn: kuzu.Connection, query: str) -> None:
        """Build the vector index before the first statement that searches it."""
        if not self._vectors_ready and VECTOR_QUERY.search(query):
            self._build(conn, self._deferred(conn), "for a vector search",
                        "it is made when a search first needs it, on a store opened writable")

    def vector_index_ready(self) -> bool:
        """Whether the vector index exists now."""
        with self._write_lock:
            if self._vectors_ready is None:
                conn = self._conn()
                keys = self._index_keys(conn)
                self._vectors_ready = any(ix.key in keys for ix in self._deferred(conn))
            return self._vectors_ready

    def _deferred(self, conn: kuzu.Connection) -> list[Index]:
        return [ix for ix in schema_indexes(self._schema(conn)) if ix.deferred]

    def build_vector_index(self) -> None:
        """Build the vector index if it is not there (inside a bulk load: when the block ends)."""
        with self._write_lock:
            if self._in_bulk:
                self._vectors_wanted = True
                return
            conn = self._conn()
            self._build(conn, self._deferred(conn), "for a large group")

    def deferred_indexes(self) -> list[str]:
        """The index names built on demand rather than with the schema (`tkg doctor` does not miss them)."""
        return [ix.name for ix in schema_indexes(load_schema(self.dialect, 1)) if ix.deferred]

    def _set_checkpoint_threshold(self, conn: kuzu.Connection, size: int) -> None:
        """Kuzu takes a setting's value as a literal only (a parameter is refused), hence an int here."""
        self._execute(conn, f"CALL checkpoint_threshold={int(size)}", None)

    def _split_foreach(self) -> bool:
        return not self._unindexed  # no full-text index to mis-index a multi-row create

    def _reset_empty(self, conn: kuzu.Connection, schema: list[str], tables: set[str]) -> set[str]:
        """Drop and recreate, without indexes, those of ``tables`` that exist and hold no rows.

        An index goes with its table (and the rel tables that point at the table, empty with it):
        Kuzu 0.11.3 refuses to drop a table an index refers to, and after DROP_VECTOR_INDEX the
        table takes no insert and no new index until it is dropped. Returns the tables made anew.
        """
        present = {r["name"] for r in self._execute(conn, load_query("store.tables", self.dialect), None)}
        # table names are \w+ words from tkg's own schema file, never input
        empty = {
            t
            for t in tables & present
            if not self._execute(conn, f"MATCH (n:{t}) RETURN 1 AS x LIMIT 1", None)
        }
        if not empty:
            return empty
        existing = self._index_keys(conn)
        for ix in schema_indexes(schema):
            if ix.table in empty and ix.key in existing:
                self._execute(conn, ix.drop, None)
        self._vectors_ready = None  # the tables made anew have no index
        found = [TABLE.search(stmt) for stmt in schema]
        tables_stmts = [(m, stmt) for m, stmt in zip(found, schema, strict=True) if m]
        for m, _ in tables_stmts:
            if m.group(3) and {m.group(3), m.group(4)} & empty and m.group(2) in present:
                self._execute(conn, f"DROP TABLE {m.group(2)}", None)
        for t in empty:
            self._execute(conn, f"DROP TABLE {t}", None)
        for _, stmt in tables_stmts:
            self._execute(conn, stmt, None)  # IF NOT EXISTS: only the dropped ones are made
        self._prepared.clear()  # plans name the tables of the time
        return empty

    def _index_keys(self, conn: kuzu.Connection) -> set[tuple[str, str]]:
        return {(r["table"], r["name"]) for r in self._indexes(conn)}

    def _indexes(self, conn: kuzu.Connection) -> list[Row]:
        rows = self._execute(conn, load_query("store.indexes", self.dialect), None)
        return [{"table": r["table_name"], "name": r["index_name"], "type": r["index_type"]} for r in rows]

    def _meta(self, conn: kuzu.Connection, key: str) -> str | None:
        try:
            rows = self._execute(conn, load_query("store.meta_get", self.dialect), {"key": key})
        except StoreError:
            return None  # no schema yet
        return rows[0]["value"] if rows else None

    def schema_meta(self) -> dict[str, str]:
        """What tkg recorded about this database (empty before any schema was applied)."""
        try:
            return {r["key"]: r["value"] for r in self.named("store.meta")}
        except StoreError:
            return {}  # no TkgMeta table yet

    def server_version(self) -> str | None:
        """None: an embedded database has no server (`tkg doctor` lists the kuzu package's version)."""
        return None

    def expected_indexes(self) -> list[str]:
        """The index names the Kuzu schema file creates (so `tkg doctor` follows schema changes)."""
        return [ix.name for ix in schema_indexes(load_schema(self.dialect, 1))]

    def indexes(self) -> list[Row]:
        """Every index with its table, name and type (for `tkg doctor`)."""
        with self._write_lock:
            return self._indexes(self._conn())

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._prepared.clear()
        for conn in self._conns:
            conn.close()
        self._conns.clear()
        self._db.close()

    def __enter__(self) -> KuzuStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
