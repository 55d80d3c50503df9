"""A group ingested in this process is not read back for its first question's vectors.

The ingest keeps the vector rows it wrote (tkg.group_cache.Written) under the stamp its anchoring
wrote; the first question builds the group's matrix from them (and from the vectors kept under the
stamp before, if any) instead of reading the store. What it builds must be what a read gives, on
real Kuzu and the real Neo4j, and any anchoring by someone else in between must send it to the
store again.
"""

# ruff: noqa: F811 - the tests take the `mem` fixture imported from test_question_caches

from __future__ import annotations

import numpy as np
import pytest
from test_fact_row_links import TURNS
from test_group_cache import turn
from test_question_caches import _reads, mem  # noqa: F401 - mem: a Memory of its own per backend

from procedures.group_vectors import GroupVectors, group_vectors
from tkg.group_cache import ROW_WEIGHT, GroupCache, Written, anchor
from tkg.memory import Memory

READS = {"retrieval.group_vectors", "retrieval.group_vector_ids", "retrieval.vectors_by_uuid"}


def _ingest(mem: Memory, group: str, which: range) -> None:
    mem.ingest_episodes([turn(group, i, *TURNS[i]) for i in which])


def _new(mem: Memory, tag: str, which: range) -> str:
    """A new group of ``which`` turns, ingested through ``mem`` (deleted after the test)."""
    g = f"test-{tag}-{id(mem):x}"
    mem.made.append(g)  # type: ignore[attr-defined]
    _ingest(mem, g, which)
    return g


def _afresh(mem: Memory, group: str) -> GroupVectors:
    """What a process that kept nothing reads."""
    kept = {name: mem.ctx.cache.kept(group, name) for name in ("vectors", "written")}
    mem.ctx.cache.forget(group)
    found = group_vectors(mem.ctx.asking(), group)
    for name, entry in kept.items():
        if entry is not None:
            mem.ctx.cache.put(group, name, *entry)
    assert found is not None
    return found


def _same(a: GroupVectors | None, b: GroupVectors) -> None:
    assert a is not None and [r["uuid"] for r in a.rows] == [r["uuid"] for r in b.rows]
    assert a.rows == b.rows and np.array_equal(a.matrix, b.matrix)


def test_the_first_question_after_an_ingest_reads_no_vectors_and_gets_what_a_read_gives(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _new(mem, "wv", range(3))
    seen = _reads(mem, monkeypatch)
    first = group_vectors(mem.ctx.asking(), g)
    assert not READS & set(seen), seen
    monkeypatch.undo()
    _same(first, _afresh(mem, g))
    assert first is not None and {r["kind"] for r in first.rows} == {"turn", "sentence", "fact"}
    _ingest(mem, g, range(3, len(TURNS)))  # added to what the question kept
    seen = _reads(mem, monkeypatch)
    later = group_vectors(mem.ctx.asking(), g)
    assert not READS & set(seen), seen
    monkeypatch.undo()
    assert later is not None and len(later) > len(first)
    _same(later, _afresh(mem, g))


def test_written_rows_keep_each_vector_as_float32_bytes(mem: Memory) -> None:
    """What an ingest keeps is compact: a vector as its float32 bytes, not a list of boxed floats."""
    g = _new(mem, "wv4", range(2))
    kept = mem.ctx.cache.kept(g, "written")
    assert kept is not None and kept[1].rows
    width = len(mem.ctx.embedder.embed_one("a probe"))
    for row in kept[1].rows:
        assert isinstance(row["embedding"], bytes) and len(row["embedding"]) == 4 * width


def test_two_ingests_without_a_question_between_still_add_up(mem: Memory) -> None:
    g = _new(mem, "wv2", range(2))
    _ingest(mem, g, range(2, len(TURNS)))
    _same(group_vectors(mem.ctx.asking(), g), _afresh(mem, g))


def test_an_anchoring_by_another_writer_sends_the_question_to_the_store(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _new(mem, "wv3", range(3))
    anchor(mem.ctx.store, g, [])  # as another process's ingest does: a new stamp
    seen = _reads(mem, monkeypatch)
    found = group_vectors(mem.ctx.asking(), g)
    assert "retrieval.group_vectors" in seen
    monkeypatch.undo()
    _same(found, _afresh(mem, g))


def test_written_rows_weigh_what_their_vectors_hold() -> None:
    """A process that ingests many groups keeps only as many written rows as the cache's weight allows
    (a row holds a vector: it weighs ``ROW_WEIGHT`` entities), not every row it ever wrote."""
    cache = GroupCache(weight=ROW_WEIGHT * 10)
    cache.put("g", "written", "s1", Written(None, tuple({"uuid": str(i)} for i in range(20))))
    assert cache.kept("g", "written") is None  # 20 rows outweigh the cache: not kept
    cache.put("g", "written", "s2", Written(None, tuple({"uuid": str(i)} for i in range(5))))
    assert cache.kept("g", "written") is not None
