"""The edges between two entities, kept per group write stamp (`procedures.slots.edges_between`),
never hide a write: an edge ingested after a read is seen at the next question, on both stores."""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_bulk_load import WordHashEmbedder

from procedures.slots import edges_between
from tkg.memory import Memory
from tkg.models import EpisodeInput

T0 = datetime(2024, 3, 2, 18, 0, tzinfo=UTC)


def turn(group: str, i: int, text: str) -> EpisodeInput:
    return EpisodeInput(group=group, speaker="Ines", text=text, timestamp=T0 + timedelta(days=i),
                        source_ref=f"D1:{i}", session="session_1", listeners=("Ines", "Tomas"))


def predicates(mem: Memory, group: str) -> list[str]:
    ctx = mem.ctx.asking()  # one question: the stamp is read afresh
    index = ctx.entities(group)
    ines, porto = index.find("Ines", "person"), index.find("Porto", "place")
    assert ines is not None and porto is not None
    return sorted(r["predicate"] for r in edges_between(ctx, group, ines.uuid, porto.uuid))


def check_a_new_edge_is_seen(mem: Memory, group: str) -> None:
    mem.ingest_episodes([turn(group, 0, "I moved to Porto last spring.")])
    before = predicates(mem, group)
    assert before == ["lives_in"]
    assert predicates(mem, group) == before  # kept: the same rows under the same stamp
    mem.ingest_episodes([turn(group, 1, "I work at Porto now, at the harbour office.")])
    after = predicates(mem, group)
    assert after != before and "lives_in" in after


def test_kuzu_an_edge_written_after_a_read_is_seen(tmp_path: Path) -> None:
    with Memory.open(f"kuzu://{tmp_path}/e.kuzu", embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        check_a_new_edge_is_seen(mem, "edges-kuzu")
        mem.forget("edges-kuzu")  # a forgotten group keeps no edges either
        assert mem.ctx.asking().entities("edges-kuzu").find("Porto", "place") is None


def test_neo4j_an_edge_written_after_a_read_is_seen() -> None:
    uri = os.environ.get("TKG_TEST_NEO4J_URI")
    if not uri:
        pytest.skip("TKG_TEST_NEO4J_URI is not set; export it (bolt://127.0.0.1:7687) to run this")
    with Memory.open(uri, embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        group = f"edges-{uuid.uuid4().hex[:8]}"
        try:
            check_a_new_edge_is_seen(mem, group)
        finally:
            mem.forget(group)
