"""Neo4j adapter: the production store, over Bolt (a single server, a cluster or Aura).

Reads run in READ access mode so the server itself refuses writes; connection loss is retried a
bounded number of times with backoff, then reported as StoreUnavailable naming the address
(never the password).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

import neo4j
from neo4j import exceptions as nx

from ..cypher import load_schema
from ..errors import ReadOnlyViolation, SchemaError, StoreError, StoreUnavailable
from ..group_cache import new_stamp
from .base import SCHEMA_VERSION, NamedMixin, Params, Row, Transaction, normalise_out, to_utc
from .read_guard import check_read_only
from .warmup import sample, warm_up

T = TypeVar("T")

_RETRYABLE = (nx.ServiceUnavailable, nx.SessionExpired, nx.TransientError, OSError)


class _Vanished(StoreError):
    """A node the query reached was deleted by another transaction meanwhile ("Unable to load NODE"):
    a group deleted while a store opens and adopts loose nodes. A query run alone is run again."""


# the name of a schema statement that creates an index (names are \w+ only)
_SCHEMA_INDEX = re.compile(r"CREATE\s+(?:FULLTEXT\s+|VECTOR\s+|RANGE\s+|TEXT\s+)?INDEX\s+(\w+)", re.I)


def _param(value: Any) -> Any:
    if isinstance(value, datetime):  # always aware UTC: naive would become LocalDateTime
        return to_utc(value)
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return value.tolist()
    if isinstance(value, list):
        return [_param(v) for v in value]
    if isinstance(value, dict):
        return {k: _param(v) for k, v in value.items()}
    return value


def _params(params: Params) -> dict[str, Any]:
    return {k: _param(v) for k, v in (params or {}).items()}


class _Tx(Transaction):
    dialect = "neo4j"
    _store: Neo4jStore
    _handle: neo4j.Transaction

    def run(self, query: str, params: Params = None) -> list[Row]:
        with self._store._errors():
            result = self._handle.run(query, _params(params))
            return [{k: normalise_out(v) for k, v in rec.items()} for rec in result]


class Neo4jStore(NamedMixin):
    """A Neo4j database reached over Bolt (opened by `open_store`, as in tkg/stores/base.py)."""

    dialect = "neo4j"
    episodes_per_transaction = 32  # a commit is a network round trip and a log flush
    shared = True  # a server: other processes read and write it, and what a run writes outlives it
    fact_shadows = False  # facts are searched through the RELATES_TO edges' own indexes

    def __init__(
        self,
        uri: str,
        *,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        retries: int = 2,
        backoff: float = 0.25,
        connect_timeout: float = 2.0,
    ) -> None:
        self.uri = uri
        self.server_uri: str | None = uri
        self.url = uri + (f"?database={database}" if database else "")
        self.database = database
        self.retries = retries
        self.backoff = backoff
        auth = (user or "neo4j", password) if password else None
        try:
            self._driver = neo4j.GraphDatabase.driver(
                uri,
                auth=auth,
                connection_timeout=connect_timeout,
                connection_acquisition_timeout=connect_timeout * 2,
                max_transaction_retry_time=0,  # retries are the adapter's: bounded, with backoff
                warn_notification_severity=neo4j.NotificationMinimumSeverity.OFF,
                notifications_min_severity=neo4j.NotificationMinimumSeverity.OFF,
            )
        except (nx.ConfigurationError, ValueError) as exc:
            raise StoreUnavailable(f"bad Neo4j address {uri}: {exc}") from exc

    # -- errors and retries -----------------------------------------------------------------
    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except nx.AuthError as exc:
            raise StoreUnavailable(
                f"Neo4j at {self.uri} refused the credentials (check TKG_NEO4J_USER/TKG_NEO4J_PASSWORD)"
            ) from exc
        except _RETRYABLE as exc:
            raise StoreUnavailable(f"cannot reach Neo4j at {self.uri}: {_reason(exc)}") from exc
        except nx.ClientError as exc:
            code = exc.code or ""
            if "EntityNotFound" in code:  # a node another transaction deleted while this one read it
                raise _Vanished(f"Neo4j: {exc.message or exc}") from exc
            if "AccessMode" in code or "ForbiddenOnReadOnly" in code:
                raise ReadOnlyViolation(
                    "this query writes; run it with --write (or write=True) if you mean to change the graph"
                ) from exc
            raise StoreError(f"Neo4j: {exc.message or exc}") from exc
        except nx.Neo4jError as exc:
            raise StoreError(f"Neo4j: {exc.message or exc}") from exc
        except nx.DriverError as exc:
            raise StoreError(f"Neo4j driver: {exc}") from exc

    def _with_retry(self, fn: Callable[[], T]) -> T:
        delay = self.backoff
        for attempt in range(self.retries + 1):
            try:
                with self._errors():
                    return fn()
            except (StoreUnavailable, _Vanished):  # a query alone is run again; the deletion has settled
                if attempt == self.retries:
                    raise
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    def _session(self, mode: str) -> neo4j.Session:
        return self._driver.session(database=self.database, default_access_mode=mode)

    # -- GraphStore -------------------------------------------------------------------------
    def run(self, query: str, params: Params = None) -> list[Row]:
        def work() -> list[Row]:
            with self._session(neo4j.WRITE_ACCESS) as session:
                result = session.run(query, _params(params))
                return [{k: normalise_out(v) for k, v in rec.items()} for rec in result]

        return self._with_retry(work)

    def read(self, query: str, params: Params = None) -> list[Row]:
        check_read_only(query)

        def work() -> list[Row]:
            # an explicit READ transaction: the server refuses writes, and the driver adds no
            # retries of its own on top of the adapter's bounded ones
            with self._session(neo4j.READ_ACCESS) as session, session.begin_transaction() as tx:
                return [
                    {k: normalise_out(v) for k, v in rec.items()} for rec in tx.run(query, _params(params))
                ]

        return self._with_retry(work)

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        with self._errors():
            session = self._session(neo4j.WRITE_ACCESS)
        try:
            with self._errors():
                tx = session.begin_transaction()
            try:
                yield _Tx(self, tx)
            except BaseException:
                if not tx.closed():
                    try:
                        tx.rollback()
                    except (nx.Neo4jError, nx.DriverError, OSError):
                        pass  # the server rolls back an abandoned transaction itself
                raise
            with self._errors():
                tx.commit()
        finally:
            session.close()

    def ensure_schema(self, dim: int) -> None:
        recorded = self._meta("embedding_dim")
        if recorded is not None and recorded != str(dim):
            raise SchemaError(
                f"the Neo4j database at {self.uri} was built for {recorded}-dim embeddings, not {dim}; "
                "use the same embedder or another database"
            )
        for stmt in load_schema("neo4j", dim):
            try:
                self.run(stmt)
            except StoreError as exc:
                if "equivalent" in str(exc).lower() or "already exists" in str(exc).lower():
                    continue  # an index graphiti-core (or an older tkg) made under another name
                raise SchemaError(f"applying the Neo4j schema failed at {stmt[:60]!r}: {exc}") from exc
        self.named("group.adopt", {"stamp": new_stamp()})  # nodes left without an anchor
        for key, value in (("schema_version", SCHEMA_VERSION), ("embedding_dim", str(dim))):
            self.named("store.meta_set", {"key": key, "value": value})
        groups = [str(r["group_id"]) for r in self.named("store.group_names")]
        self.cold_queries = warm_up(self, groups=groups)  # every question's plans, compiled now (warmup.py)

    def _meta(self, key: str) -> str | None:
        rows = self.named("store.meta_get", {"key": key})
        return rows[0]["value"] if rows else None

    def schema_meta(self) -> dict[str, str]:
        """What tkg recorded about this database (empty before any schema was applied)."""
        return {r["key"]: r["value"] for r in self.named("store.meta")}

    def server_version(self) -> str | None:
        """The server's product, versions and edition, e.g. ``Neo4j Kernel 5.26.0 community``."""
        rows = self.named("store.components")
        return f"{rows[0]['name']} {', '.join(rows[0]['versions'])} {rows[0]['edition']}" if rows else None

    def expected_indexes(self) -> list[str]:
        """The index names the Neo4j schema file creates (so `tkg doctor` follows schema changes)."""
        return [m.group(1) for stmt in load_schema("neo4j", 1) if (m := _SCHEMA_INDEX.search(stmt))]

    def deferred_indexes(self) -> list[str]:
        """None: every index is made with the schema (graphiti-core's search reads the vector index too)."""
        return []

    def vector_index_ready(self) -> bool:
        """True: made with the schema."""
        return True

    def build_vector_index(self) -> None:
        """Nothing to build: made with the schema."""

    def indexes(self) -> list[Row]:
        """Every index with its name, type and state (for `tkg doctor`)."""
        rows = self.named("store.indexes")
        return [
            {
                "table": ",".join(r["labelsOrTypes"] or []),
                "name": r["name"],
                "type": r["type"],
                "state": r["state"],
            }
            for r in rows
        ]

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Neo4j populates its indexes in the background and inserts stay cheap; afterwards the
        store's sizes have changed so much that the server plans each statement again on its next
        run, so the question plans are compiled again here (tkg/stores/warmup.py) rather than by
        the first questions, the key lookups over one loaded group's rows."""
        yield
        loaded = self.named("group.list")  # a bulk load starts from an empty store: these are its groups
        keys = sample(self, loaded[0]["group_id"]) if loaded else None
        self.cold_queries = warm_up(self, keys, groups=[str(r["group_id"]) for r in loaded])

    def close(self) -> None:
        self._driver.close()

    def __enter__(self) -> Neo4jStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _reason(exc: BaseException) -> str:
    text = str(exc)
    if "refused" in text.lower():
        return "connection refused"
    return text.splitlines()[0] if text else type(exc).__name__
