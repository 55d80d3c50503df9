"""Kuzu's vector index, made on demand (tkg/stores/kuzu_store.py).

A store whose groups are all small enough to be scored in memory (`procedures.group_vectors`)
goes without the index; the ingest that takes a group past ``EXACT_MAX`` vectors builds it, and
that group's questions are then served by it; a search that needs it (a group read through the
index) builds it first. A bulk load into a store that holds chunks but no vector index drops the
full-text index for the block and builds it again over old and new rows, and a crash inside such a
block leaves what the next open re-indexes. Real Kuzu stores; the word-hash embedder of
tests/test_bulk_load.py stands in for MiniLM (the store is under test, not the model).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import test_bulk_load
from test_bulk_load import CHILD_TX, ROOT, WordHashEmbedder, episodes, tag, unsearchable

from planners.payloads import Payload, default_payloads
from procedures import group_vectors as gv
from procedures.fusion import Tuning
from procedures.retrieval import retrieve
from tkg.bench.soak import check_invariants
from tkg.doctor import check_indexes
from tkg.ingest.chunking import chunk_episode
from tkg.ingest.prepare import episode_uuid
from tkg.memory import Memory
from tkg.stores import GraphStore
from tkg.stores.kuzu_store import KuzuStore

TEXT, VECTOR = "chunk_text", "chunk_embedding"
DENSE: Payload = replace(  # turns by their vectors only
    default_payloads().for_mode("single_fact"),
    indexes=("chunk",), weights=(("chunk", 1.0),), fusion="dense", neighbours=0,
)


def open_memory(path: Path) -> Memory:
    return Memory.open(f"kuzu://{path}", embedder=WordHashEmbedder())  # type: ignore[arg-type]


def names(store: GraphStore) -> set[str]:
    return {r["name"] for r in store.indexes()}


def top_ref(mem: Memory, group: str, word: str, tuning: Tuning | None = None) -> tuple[str | None, bool]:
    """The best turn for one tag word by vector search, and whether it was scored in memory."""
    found = retrieve(mem.ctx.asking(), word, group, DENSE, tuning=tuning)
    return (found.hits[0].source_ref if found.hits else None), "exact" in found.trace


def test_small_groups_are_answered_without_a_vector_index(tmp_path: Path) -> None:
    with open_memory(tmp_path / "small.kuzu") as mem:
        store = mem.ctx.store
        assert mem.ingest_episodes(episodes("a", 30), bulk=True).bulk
        mem.ingest_episodes(episodes("b", 6), bulk=False)
        assert names(store) == {TEXT} and not store.vector_index_ready()
        assert top_ref(mem, "a", tag(17, "b")) == ("D1:17", True)
        assert top_ref(mem, "b", tag(4, "a")) == ("D1:4", True)
        doctor = check_indexes(store)
        assert doctor.ok and doctor.data["on_demand"] == [VECTOR] and "not built yet" in doctor.detail
        assert names(store) == {TEXT}  # questions and the doctor built nothing
    with open_memory(tmp_path / "small.kuzu") as mem:  # opening again does not make it either
        assert names(mem.ctx.store) == {TEXT} and mem.counts("a")["episodes"] == 30


@pytest.mark.parametrize("bulk", [True, False])
def test_a_group_past_the_exact_limit_gets_the_index_and_is_served_by_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bulk: bool
) -> None:
    monkeypatch.setattr(gv, "EXACT_MAX", 40)  # vectors: a turn, its two sentences, any fact
    with open_memory(tmp_path / "big.kuzu") as mem:
        store = mem.ctx.store
        first = mem.ingest_episodes(episodes("big", 10), bulk=bulk)
        assert not store.vector_index_ready() and first.chunks + first.facts <= 40
        assert top_ref(mem, "big", tag(3, "a")) == ("D1:3", True)
        more = mem.ingest_episodes(episodes("big", 20), bulk=bulk)  # the group passes 40 vectors here
        assert more.skipped_existing == 10 and store.vector_index_ready() and VECTOR in names(store)
        assert not bulk or more.index_build_s > 0
        for i in (3, 14, 19):  # old rows and new ones, through the index
            assert top_ref(mem, "big", tag(i, "b")) == (f"D1:{i}", False)
        assert unsearchable(store, "big") == []
        mem.ingest_episodes(episodes("small", 4), bulk=False)  # a small group keeps its exact path
        assert top_ref(mem, "small", tag(2, "a")) == ("D1:2", True)


def test_a_search_that_needs_the_index_builds_it_first(tmp_path: Path) -> None:
    with open_memory(tmp_path / "lazy.kuzu") as mem:
        store = mem.ctx.store
        mem.ingest_episodes(episodes("g", 12), bulk=True)
        assert not store.vector_index_ready()
        exact = top_ref(mem, "g", tag(7, "a"))
        index = top_ref(mem, "g", tag(7, "a"), Tuning(exact_vectors=False))  # as a stamp-less group reads
        assert exact == ("D1:7", True) and index == ("D1:7", False)
        assert store.vector_index_ready() and names(store) == {TEXT, VECTOR}
        later = mem.ingest_episodes(episodes("g", 16), bulk=False)  # rows written after it are indexed
        assert later.episodes == 4 and unsearchable(store, "g") == []


def test_a_read_only_store_without_the_index_says_so(tmp_path: Path) -> None:
    with open_memory(tmp_path / "ro.kuzu") as mem:
        mem.ingest_episodes(episodes("g", 4), bulk=False)
        vector = mem.ctx.embedder.embed_one(tag(1, "a"))
    with KuzuStore(tmp_path / "ro.kuzu", read_only=True) as store:
        assert not store.vector_index_ready()
        with pytest.raises(Exception, match="chunk_embedding.*opened writable"):
            store.named("retrieval.vector", {"group_id": "g", "vector": vector, "k_fetch": 5, "efs": 50})


def test_a_resumed_bulk_load_rebuilds_the_full_text_index_over_old_and_new_rows(tmp_path: Path) -> None:
    with open_memory(tmp_path / "resumed.kuzu") as mem, open_memory(tmp_path / "plain.kuzu") as other:
        store = mem.ctx.store
        mem.ingest_episodes(episodes("first", 12), bulk=True)
        # texts of their own: Kuzu's HNSW index, built over rows that hold one vector several times,
        # at times leaves one of them out of every search (BENCHMARKS.md, session 13)
        second = episodes("second", 42)[12:]
        with store.bulk_load():  # rows and no vector index: the full-text index goes for the block
            assert names(store) == set()
            report = mem.ingest_episodes(second, bulk=True)
        assert names(store) == {TEXT} and report.bulk
        plain = other.ingest_episodes(second, bulk=False)
        keys = ("episodes", "chunks", "entities", "facts", "superseded")
        assert {k: getattr(report, k) for k in keys} == {k: getattr(plain, k) for k in keys}
        assert mem.counts("second") == other.counts("second")
        assert unsearchable(store, "first", vectors=False) == []  # old rows are in the rebuilt index
        assert unsearchable(store, "second") == [] and unsearchable(store, "first") == []
        with store.bulk_load():  # a vector index now (the searches made it): both stay
            assert names(store) == {TEXT, VECTOR}


def test_a_crash_inside_a_resumed_bulk_load_is_re_indexed_on_open(tmp_path: Path) -> None:
    """Kuzu 0.11.3 could not open a store whose log held the full-text index's drop and then rows
    ("Cannot find table catalog entry"): the bulk load checkpoints after the drop."""
    path = tmp_path / "crash.kuzu"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    child = subprocess.run(  # tests/test_bulk_load.py's child, after 8 episodes ingested plainly
        [sys.executable, test_bulk_load.__file__, f"kuzu://{path}", "8"], env=env, capture_output=True,
        text=True, timeout=120, cwd=ROOT,
    )
    assert child.returncode == 17, child.stderr[-2000:]
    with KuzuStore(path) as store:  # as the crash left it: committed rows, no full-text index
        assert names(store) == set()
    eps = episodes("crash", 40)
    expected = {episode_uuid(e): {c.uuid for c in chunk_episode(e, episode_uuid(e))} for e in eps}
    with open_memory(path) as mem:
        assert names(mem.ctx.store) == {TEXT}
        assert mem.counts("crash")["episodes"] == 2 * CHILD_TX
        assert check_invariants(mem.ctx.store, "crash", expected_chunks=expected) == []
        assert unsearchable(mem.ctx.store, "before") == [] and unsearchable(mem.ctx.store, "crash") == []
        rest = mem.ingest_episodes(eps, bulk=True)
        assert (rest.episodes, rest.skipped_existing) == (40 - 2 * CHILD_TX, 2 * CHILD_TX)
        assert check_invariants(mem.ctx.store, "crash", expected_chunks=expected) == []
