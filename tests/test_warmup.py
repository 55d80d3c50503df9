"""The warm-up list (tkg/stores/warmup.py) is what questions run, and each entry runs on every store."""

from __future__ import annotations

import pytest

from tkg.stores.base import GraphStore
from tkg.stores.warmup import NOBODY, QUESTION_OPS, warm_up


def test_every_warm_up_query_runs_and_reads_nothing(store: GraphStore) -> None:
    assert warm_up(store) == []
    for name, params in QUESTION_OPS:
        rows = store.named(name, {"group_id": NOBODY, **params})
        assert all(not any(v for v in row.values() if not isinstance(v, int)) for row in rows), name


@pytest.mark.neo4j
def test_opening_a_neo4j_store_compiles_the_question_plans(neo4j_store: GraphStore) -> None:
    assert getattr(neo4j_store, "cold_queries", None) == []  # set by ensure_schema: none failed
