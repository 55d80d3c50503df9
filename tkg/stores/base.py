"""The one interface every graph store implements.

Like an httpx transport, a store does one thing: run a parameterised Cypher statement and hand
back rows as plain dicts. Adapters own connection, dialect and error translation; domain code
calls :meth:`Runner.named` with a query name from ``cypher/ops`` and never asks which backend
it talks to.

Example::

    >>> from tkg.stores import open_store
    >>> with open_store("kuzu:///tmp/demo.kuzu") as store:  # doctest: +SKIP
    ...     store.named("group.counts", {"group": "demo"})
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Protocol, runtime_checkable

from ..cypher import load_query, split_statements

Row = dict[str, Any]
Params = Mapping[str, Any] | None

# 2: TkgGroup anchors (HAS_EPISODE, HAS_ENTITY), which per-group reads start from.
# 3: on Kuzu, STATES links from a turn to the shadow rows of the facts it stated (store.link_fact_rows).
SCHEMA_VERSION = "3"


@runtime_checkable
class Runner(Protocol):
    """Something that runs Cypher: a store, or an open transaction of one."""

    dialect: str

    def run(self, query: str, params: Params = None) -> list[Row]:
        """Run one parameterised statement and return its rows."""
        ...

    def named(self, name: str, params: Params = None) -> list[Row]:
        """Run the named query from ``cypher/ops`` for this runner's dialect."""
        ...


@runtime_checkable
class GraphStore(Runner, Protocol):
    """A graph database holding tkg's substrate."""

    url: str  # with any password removed; safe to print
    # Whole episodes the ingest may write in one transaction: a commit costs about as much as an
    # episode's statements, so more per transaction is faster, and a failure re-writes one at a time.
    episodes_per_transaction: int
    # A server other processes share (Neo4j): what a run writes outlives it, so a benchmark
    # deletes its own groups; False for an embedded database one process owns (Kuzu).
    shared: bool
    server_uri: str | None  # the driver URI (no credentials) another client may reach it at; None if embedded
    fact_shadows: bool  # facts are searched through Chunk rows of kind 'fact' (one per RELATES_TO edge)

    def read(self, query: str, params: Params = None) -> list[Row]:
        """Run a statement in a read-only transaction; writes raise ReadOnlyViolation."""
        ...

    def transaction(self) -> AbstractContextManager[Runner]:
        """A write transaction: commits when the block ends, rolls back on any exception."""
        ...

    def ensure_schema(self, dim: int) -> None:
        """Apply the schema idempotently and record the embedding dimension."""
        ...

    def indexes(self) -> list[Row]:
        """Every index with its table, name, type (and state where the store reports one)."""
        ...

    def expected_indexes(self) -> list[str]:
        """The index names this store's schema file creates."""
        ...

    def deferred_indexes(self) -> list[str]:
        """Those of ``expected_indexes`` made only when first needed (Kuzu's vector index, which
        groups scored in memory never read); absent until then without anything being wrong."""
        ...

    def vector_index_ready(self) -> bool:
        """Whether the chunk vector index exists now (a search that needs it builds it first)."""
        ...

    def build_vector_index(self) -> None:
        """Make the chunk vector index if it is not there (inside ``bulk_load``: when the block ends)."""
        ...

    def schema_meta(self) -> dict[str, str]:
        """What tkg recorded about the store (``schema_version``, ``embedding_dim``); empty before
        any schema was applied. Writes nothing."""
        ...

    def server_version(self) -> str | None:
        """The server's product and version; None for an embedded store."""
        ...

    def bulk_load(self) -> AbstractContextManager[None]:
        """A block for a large first load: writes may go faster, searches wait until it ends.

        A store whose indexes slow every insert (Kuzu: several times per chunk row) loads an empty
        store without them and builds them on exit, holding its write lock throughout, so other
        threads wait instead of searching a half-indexed store; if the process dies inside the
        block, ``ensure_schema`` builds the missing indexes on the next open. Into a store that
        already holds chunks it drops only what it can rebuild (Kuzu: the full-text index while
        there is no vector index, which cannot be dropped from a table that keeps its rows). A
        store that indexes asynchronously anyway (Neo4j) does nothing. Nested blocks are one block.
        """
        ...

    def close(self) -> None: ...

    def __enter__(self) -> GraphStore: ...

    def __exit__(self, *exc: object) -> None: ...


class NamedMixin:
    """Gives any object with ``dialect`` and ``run`` the ``named`` method."""

    dialect: str

    def run(self, query: str, params: Params = None) -> list[Row]:  # pragma: no cover - abstract
        raise NotImplementedError

    def named(self, name: str, params: Params = None) -> list[Row]:
        """Run a named query; a file of several statements runs them in order, returning the last rows.

        A file may start with ``// @each LIST AS ITEM``: it then runs once per distinct item of the
        list parameter LIST, bound as the scalar ITEM (LIST stays bound too), and the rows are
        concatenated (in item order; an ORDER BY orders each item's rows). Lookups by a key
        written ``{uuid: $ITEM}`` are index lookups on both stores, where Kuzu scans the whole
        table for ``uuid IN $LIST``.

        A dialect file may start with ``// @foreach PARAM``: the adapter then runs it once per item
        of the list parameter PARAM (bound as a one-item list). Kuzu 0.11 needs this where one
        statement creates several full-text-indexed rows (it indexes them all with the first row's
        text); inside a bulk load, with no index to get wrong, ``_split_foreach`` lets it run whole.
        """
        text = load_query(name, self.dialect)
        per = _EACH.search(text)
        if per and params is not None and per.group(1) in params:
            items = list(dict.fromkeys(params[per.group(1)] or []))
            return [
                row for item in items for row in self._run_statements(text, {**params, per.group(2): item})
            ]
        each = _FOREACH.search(text)
        if each and params and isinstance(params.get(each.group(1)), list) and self._split_foreach():
            runs = [
                self._run_statements(text, {**params, each.group(1): [item]})
                for item in params[each.group(1)]
            ]
            return _combine(runs)
        return self._run_statements(text, params)

    def _split_foreach(self) -> bool:
        """Whether ``// @foreach`` queries run once per item now (adapters may say no)."""
        return True

    def _run_statements(self, text: str, params: Params) -> list[Row]:
        rows: list[Row] = []
        for statement in split_statements(text):
            used = {k: v for k, v in (params or {}).items() if re.search(rf"\${k}\b", statement)}
            rows = self.run(statement, used)
        return rows


class Transaction(NamedMixin):
    """An open write transaction of an adapter: the store and the driver's handle for it (a Kuzu
    connection, a Neo4j transaction). Each adapter's subclass says how a statement runs in it."""

    def __init__(self, store: Any, handle: Any) -> None:
        self._store = store
        self._handle = handle


_FOREACH = re.compile(r"^//\s*@foreach\s+(\w+)", re.M)
_EACH = re.compile(r"^//\s*@each\s+(\w+)\s+AS\s+(\w+)", re.M)


def _combine(runs: list[list[Row]]) -> list[Row]:
    """Per-item results of a @foreach query: counts (one all-integer row each) add up, rows concatenate."""
    if runs and all(len(r) == 1 and all(isinstance(v, int) for v in r[0].values()) for r in runs):
        keys = runs[0][0].keys()
        if all(r[0].keys() == keys for r in runs):
            return [{k: sum(r[0][k] for r in runs) for k in keys}]
    return [row for run in runs for row in run]


# --- values ------------------------------------------------------------------------------------


def to_utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


_PLAIN = frozenset({str, int, float, bool, type(None)})


def normalise_out(value: Any) -> Any:
    """Driver values → plain Python: aware UTC datetimes, lists, dicts."""
    if type(value) in _PLAIN:  # most values: nothing to do (and this runs per value of every row)
        return value
    if isinstance(value, datetime):
        return to_utc(value)
    to_native = getattr(value, "to_native", None)
    if to_native is not None:  # neo4j.time.DateTime / Date
        native = to_native()
        return to_utc(native) if isinstance(native, datetime) else native
    if isinstance(value, list):
        if _PLAIN.issuperset(map(type, value)):  # an embedding: hundreds of floats, checked in one pass
            return value
        return [normalise_out(v) for v in value]
    if isinstance(value, dict):
        return {k: normalise_out(v) for k, v in value.items() if not str(k).startswith("_")}
    if isinstance(value, Decimal):  # Kuzu's sum() over INT64 is INT128
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def rows_iter(columns: list[str], values: Iterator[list[Any]]) -> list[Row]:
    return [{c: normalise_out(v) for c, v in zip(columns, vals, strict=True)} for vals in values]
