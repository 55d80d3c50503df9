"""On Kuzu a group's vector rows are walked from its anchor, fact shadow rows included.

Kuzu keeps each fact's searchable copy as a Chunk row of kind 'fact'; ingest links it from the turn
that stated it (STATES), so `retrieval.group_vectors` and `retrieval.group_vector_ids` reach every
vector row of a group from the group's anchor instead of scanning the whole Chunk table. These
tests check, on a real Kuzu database, that the walk finds exactly the rows a scan of the table
finds, that a store written before the link (schema version 2) gains it when opened
(`store.link_fact_rows`), and that `tkg reembed` keeps it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_bulk_load import WordHashEmbedder
from test_group_cache import turn

from procedures.group_vectors import group_vectors
from tkg.memory import Memory
from tkg.stores import GraphStore

LINES = """Ines: I moved to Porto last spring, the flat is tiny.
Tomas: Porto suits you! My sister lives in Valencia now.
Ines: Valencia? I thought she was in Lyon.
Tomas: She left Lyon in May. Her new job is at a bakery.
Ines: I work at Northwind Labs these days, and my dog Biscuit loves the beach."""
TURNS = [(who, text) for who, text in (line.split(": ", 1) for line in LINES.splitlines())]

# what the reads did before the link: every vector row of the group, by a scan of the whole table
SCAN = "MATCH (c:Chunk) WHERE c.group_id = $g AND c.embedding IS NOT NULL RETURN c.uuid AS uuid ORDER BY uuid"
FACT_ROWS = "MATCH (c:Chunk) WHERE c.group_id = $g AND c.kind = 'fact' RETURN c.uuid AS uuid ORDER BY uuid"
LINKED = (
    "MATCH (e:Episodic)-[s:STATES]->(c:Chunk) WHERE c.group_id = $g "
    "RETURN c.uuid AS uuid, e.uuid AS episode, c.episode_uuid AS said_in, s.group_id AS link_group "
    "ORDER BY uuid"
)


def _ingest(mem: Memory, group: str) -> None:
    mem.ingest_episodes([turn(group, i, who, text) for i, (who, text) in enumerate(TURNS[:3])])
    mem.ingest_episodes([turn(group, i, who, text) for i, (who, text) in enumerate(TURNS) if i >= 3])


def _store(mem: Memory) -> GraphStore:
    return mem.ctx.store


def _uuids(store: GraphStore, query: str, group: str) -> list[str]:
    return [str(r["uuid"]) for r in store.run(query, {"g": group})]


def test_every_fact_row_is_linked_from_its_turn_and_the_walk_reads_what_a_scan_reads(tmp_path: Path) -> None:
    with Memory.open(f"kuzu://{tmp_path}/l.kuzu", embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        _ingest(mem, "a")
        _ingest(mem, "b")  # the same turns in another group: only the walk's start keeps them apart
        store = _store(mem)
        facts = _uuids(store, FACT_ROWS, "a")
        assert facts, "the turns state facts"
        links = store.run(LINKED, {"g": "a"})
        assert [r["uuid"] for r in links] == facts
        assert all(r["episode"] == r["said_in"] and r["link_group"] == "a" for r in links)
        rows = store.named("retrieval.group_vectors", {"group_id": "a"})
        assert [r["uuid"] for r in rows] == _uuids(store, SCAN, "a")
        assert {r["kind"] for r in rows} == {"turn", "sentence", "fact"}
        ids = store.named("retrieval.group_vector_ids", {"group_id": "a"})
        assert [r["uuid"] for r in ids] == [r["uuid"] for r in rows]
        assert not set(ids_of(store, "b")) & {r["uuid"] for r in rows}


def ids_of(store: GraphStore, group: str) -> list[str]:
    return [str(r["uuid"]) for r in store.named("retrieval.group_vector_ids", {"group_id": group})]


def test_a_store_written_before_the_link_gains_it_when_opened(tmp_path: Path) -> None:
    url = f"kuzu://{tmp_path}/old.kuzu"
    with Memory.open(url, embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        _ingest(mem, "a")
        store = _store(mem)
        before = group_vectors(mem.ctx.asking(), "a")
        facts = _uuids(store, FACT_ROWS, "a")
        # what a version-2 store holds: fact rows without links, and its version recorded
        store.run("MATCH (:Episodic)-[s:STATES]->(:Chunk) DELETE s")
        store.named("store.meta_set", {"key": "schema_version", "value": "2"})
        assert len(ids_of(store, "a")) == len(_uuids(store, SCAN, "a")) - len(facts)  # the walk misses them
    with Memory.open(url, embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        store = _store(mem)
        assert [r["uuid"] for r in store.run(LINKED, {"g": "a"})] == facts
        assert store.schema_meta()["schema_version"] != "2"
        assert store.named("store.link_fact_rows") == [{"linked": len(facts)}]  # again: made anew
        assert [r["uuid"] for r in store.run(LINKED, {"g": "a"})] == facts  # once each
        after = group_vectors(mem.ctx.asking(), "a")
        assert before is not None and after is not None
        assert after.rows == before.rows and np.array_equal(after.matrix, before.matrix)


def test_reembedding_keeps_the_fact_rows_linked(tmp_path: Path) -> None:
    with Memory.open(f"kuzu://{tmp_path}/r.kuzu", embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        _ingest(mem, "a")
        store = _store(mem)
        facts = _uuids(store, FACT_ROWS, "a")
        store.named("reembed.set_facts", {"group_id": "a", "rows": [
            {"uuid": u, "embedding": [0.5] * WordHashEmbedder.dim} for u in facts]})
        assert [r["uuid"] for r in store.run(LINKED, {"g": "a"})] == facts
        rows = store.named("retrieval.group_vectors", {"group_id": "a"})
        assert [r["uuid"] for r in rows] == _uuids(store, SCAN, "a")
        assert all(r["embedding"][0] == 0.5 for r in rows if r["kind"] == "fact")
