"""Shared fixtures: a `store` and a `mem` (Memory) on every backend, and fresh tenant ids that are cleaned up.

Any test that takes ``store`` or ``mem`` runs once per backend, with ids ``[kuzu]`` and ``[neo4j]``:

* ``kuzu``: a new embedded database in ``tmp_path`` with the schema applied (dim ``DIM``);
* ``neo4j``: the server named by ``TKG_TEST_NEO4J_URI`` (credentials in the URL or in
  ``TKG_NEO4J_USER``/``TKG_NEO4J_PASSWORD``), skipped when the variable is unset. The schema is
  applied once per session; tests share the database, so each one writes only under group ids
  from the ``group``/``new_group`` fixtures, and those groups are deleted afterwards.

``mem`` is one `Memory` per test module and backend (the production embedder, loaded once per
session): a module's fixtures ingest their groups into it under unique names and ``track`` them
(tests/reliability/common.py); every tracked group is deleted when the module ends.

Run only the embedded half with ``-m "not neo4j"``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator

import pytest
from reliability.common import forget_tracked, memory

from tkg.memory import Memory
from tkg.stores import GraphStore, open_store
from tkg.stores.kuzu_store import KuzuStore

DIM = 384
NEO4J_ENV = "TKG_TEST_NEO4J_URI"


def pytest_configure(config: pytest.Config) -> None:
    """pytest-xdist's workers start with COLUMNS=80 and LINES=24, which rich's consoles (tkg.cli.render)
    would fix as their size when imported; the CLI tests set the width they read each run."""
    if hasattr(config, "workerinput"):
        os.environ.pop("COLUMNS", None)
        os.environ.pop("LINES", None)


@pytest.fixture(scope="session")
def neo4j_store() -> Iterator[GraphStore]:
    """One Neo4j connection for the whole session, schema applied and indexes online."""
    uri = os.environ.get(NEO4J_ENV)
    if not uri:
        pytest.skip(f"{NEO4J_ENV} is not set; export {NEO4J_ENV}=bolt://127.0.0.1:7687 to run the Neo4j half")
    store = open_store(uri)
    try:
        store.ensure_schema(DIM)
        # New indexes populate in the background; searches in the first test must see them online.
        store.run("CALL db.awaitIndexes(120)")
        yield store
    finally:
        store.close()


@pytest.fixture(scope="module", params=["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def mem(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """One Memory per test module and backend (see module docstring); tracked groups are deleted after."""
    with memory(str(request.param), tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])) as m:
        try:
            yield m
        finally:
            forget_tracked(m)


@pytest.fixture(params=["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def backend(request: pytest.FixtureRequest) -> str:
    """The backend name; parametrises every test that (indirectly) uses it."""
    return str(request.param)


@pytest.fixture
def store(
    backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GraphStore]:
    """A ready store on the current backend (see module docstring)."""
    if backend == "neo4j":
        yield request.getfixturevalue("neo4j_store")
        return
    kuzu = KuzuStore(tmp_path_factory.mktemp("kuzu") / "db.kuzu")
    try:
        kuzu.ensure_schema(DIM)
        yield kuzu
    finally:
        kuzu.close()


@pytest.fixture
def new_group(store: GraphStore, backend: str) -> Iterator[Callable[[], str]]:
    """Make unique group ids; on a shared server every one of them is deleted after the test."""
    made: list[str] = []

    def make() -> str:
        made.append(f"test-{uuid.uuid4().hex[:12]}")
        return made[-1]

    yield make
    if backend == "neo4j":
        for group in made:
            store.named("group.delete", {"group_id": group})


@pytest.fixture
def group(new_group: Callable[[], str]) -> str:
    """A unique group id for this test."""
    return new_group()
