"""The warm-up list (tkg/stores/warmup.py) is what questions run, and each entry runs on every store,
for no group and with one group's real keys; Neo4j warms again after a bulk load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reliability.common import ingested

from tkg.memory import Memory
from tkg.stores.base import GraphStore
from tkg.stores.warmup import ENTITY, FACT, NOBODY, QUESTION_OPS, sample, warm_up


def test_every_warm_up_query_runs_and_reads_nothing(store: GraphStore) -> None:
    assert warm_up(store) == []
    for name, params in QUESTION_OPS:
        rows = store.named(name, {"group_id": NOBODY, **params})
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
    """Every statement these questions run is on the warm-up list (else a fresh server plans it
    during a question); and a warm-up with one group's real keys runs clean."""
    group = ingested(mem, "warm", WARM_DATA)
    seen: set[str] = set()
    named = mem.ctx.store.named

    def counted(name: str, params: Any = None) -> Any:
        seen.add(name)
        return named(name, params)

    monkeypatch.setattr(mem.ctx.store, "named", counted)
    for question in QUESTIONS:
        mem.ask(question, group=group)
    monkeypatch.undo()
    assert seen and seen <= {name for name, _ in QUESTION_OPS}, seen - {name for name, _ in QUESTION_OPS}
    keys = sample(mem.ctx.store, group)
    assert keys is not None and keys["group_id"] == group
    facts = mem.ctx.store.named("retrieval.fact_sources", {"group_id": group, "uuids": [keys[FACT]]})
    assert [f["subject_uuid"] for f in facts] == [keys[ENTITY]]  # real keys of one of its facts
    assert warm_up(mem.ctx.store, keys) == []
    assert sample(mem.ctx.store, NOBODY) is None


@pytest.mark.neo4j
def test_a_bulk_load_into_neo4j_warms_the_plans_again(neo4j_store: GraphStore) -> None:
    store = neo4j_store
    store.cold_queries = ["stale"]  # type: ignore[attr-defined]
    with store.bulk_load():
        pass
    assert store.cold_queries == []  # type: ignore[attr-defined]
