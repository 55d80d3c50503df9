"""The warm-up list (tkg/stores/warmup.py) is what questions run, and each entry runs on every store,
for no group and with one group's real keys; Neo4j warms again after a bulk load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reliability.common import ingested

from tkg.memory import Memory
from tkg.stores.base import GraphStore
from tkg.stores.warmup import (
    ENTITY,
    FACT,
    NOBODY,
    QUESTION_OPS,
    runs,
    sample,
    signature,
    size_bucket,
    warm_up,
)


def test_every_warm_up_query_runs_and_reads_nothing(store: GraphStore) -> None:
    assert warm_up(store) == []
    for name, params in runs():
        rows = store.named(name, params)
        assert all(not any(v for v in row.values() if not isinstance(v, int)) for row in rows), name


@pytest.mark.neo4j
def test_opening_a_neo4j_store_compiles_the_question_plans(neo4j_store: GraphStore) -> None:
    assert getattr(neo4j_store, "cold_queries", None) == []  # set by ensure_schema: none failed


WARM_DATA = Path(__file__).parent / "data" / "reader" / "wren_ottilie.json"
QUESTIONS = (
    "Which city does Wren live in now?", "Where was Wren living in March 2021?", "Who is Wren's boss?",
    "Which city did Wren's boss move from?", "What is the name of Wren's cat?",
    "Where does Ottilie's sister Maren live now?", "How many cities has Wren lived in?",
    "When did Wren move to Tallinn?", "Did Wren go to Lisbon?", "What does Wren do for a living?",
)


def test_the_warm_up_covers_what_questions_run(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every statement these questions run is on the warm-up list, with its parameters in the size
    buckets the warm-up sends (else a fresh server plans it during a question); and a warm-up with
    one group's real keys runs clean."""
    group = ingested(mem, "warm", WARM_DATA)
    seen: set[tuple[str, Any]] = set()
    named = mem.ctx.store.named

    def counted(name: str, params: Any = None) -> Any:
        seen.add(signature(name, params or {}))
        return named(name, params)

    monkeypatch.setattr(mem.ctx.store, "named", counted)
    for question in QUESTIONS:
        mem.ask(question, group=group)
    monkeypatch.undo()
    keys = sample(mem.ctx.store, group)
    warmed = {signature(name, params) for name, params in runs(keys, [group])}
    assert seen and seen <= warmed, seen - warmed
    assert {name for name, _ in seen} <= {name for name, _ in QUESTION_OPS}
    assert keys is not None and keys["group_id"] == group
    facts = mem.ctx.store.named("retrieval.fact_sources", {"group_id": group, "uuids": [keys[FACT]]})
    assert [f["subject_uuid"] for f in facts] == [keys[ENTITY]]  # real keys of one of its facts
    assert warm_up(mem.ctx.store, keys, [group]) == []
    assert sample(mem.ctx.store, NOBODY) is None


def test_the_warm_up_plans_for_the_size_buckets_of_the_group_names() -> None:
    """A store's groups decide the lengths of the group ids sent (no groups: a short and a long
    one), and none of them names a group; a list parameter runs in each size it lists."""
    cases: list[tuple[list[str], set[int]]] = [
        ([], {10, 100}), (["conv-26"], {10}), (["conv-26", "priya-marco-2024"], {10, 100})
    ]
    for groups, buckets in cases:
        sent = {params["group_id"] for _, params in runs(groups=groups)}
        assert {size_bucket(len(g)) for g in sent} == buckets
        assert all(g.startswith("\x00") and g not in groups for g in sent)
    sizes = {len(p["uuids"]) for name, p in runs(groups=["g1"]) if name == "retrieval.fact_sources"}
    assert {size_bucket(n) for n in sizes} == {1, 10, 100}


@pytest.mark.neo4j
def test_a_bulk_load_into_neo4j_warms_the_plans_again(neo4j_store: GraphStore) -> None:
    store = neo4j_store
    store.cold_queries = ["stale"]  # type: ignore[attr-defined]
    with store.bulk_load():
        pass
    assert store.cold_queries == []  # type: ignore[attr-defined]
