"""A group's first vector read sends each vector as float32 bytes where the store keeps that copy.

Ingest writes every turn, sentence and fact vector twice on Neo4j: the float list (its vector index
and graphiti-core read it) and its float32 bytes (`tkg.models.f32_bytes`), which
`retrieval.group_vectors` sends instead of the list. The group's matrix must come out exactly as it
does from the float lists, for rows written with the copy and for rows without one (an older
store, another client), and `tkg reembed` must replace both. Real Neo4j (the shared dev server)
and real Kuzu, whose reads send the list.
"""

# ruff: noqa: F811 - the tests take the `mem` fixture imported from test_question_caches

from __future__ import annotations

import uuid

import numpy as np
import pytest
from test_bulk_load import WordHashEmbedder
from test_fact_row_links import TURNS
from test_group_cache import turn
from test_question_caches import mem  # noqa: F401 - the fixture: a Memory of its own per backend

from procedures.group_vectors import GroupVectors, group_vectors
from tkg.embed_base import normalise_rows
from tkg.ingest.reembed import reembed_group
from tkg.memory import Memory


def _group(mem: Memory) -> str:
    g = f"test-cv-{uuid.uuid4().hex[:10]}"
    mem.made.append(g)  # type: ignore[attr-defined]
    mem.ingest_episodes([turn(g, i, who, text) for i, (who, text) in enumerate(TURNS)])
    return g


def _from_lists(mem: Memory, group: str, rows: list[dict[str, object]]) -> np.ndarray:
    """The unit matrix of ``rows`` built from each row's float list as the store holds it."""
    store = mem.ctx.store
    chunks = store.run(  # on Kuzu, facts' shadow rows too
        "MATCH (c:Chunk) WHERE c.group_id = $g RETURN c.uuid AS uuid, c.embedding AS embedding", {"g": group}
    )
    lists = {str(r["uuid"]): r["embedding"] for r in chunks}
    if not store.fact_shadows:
        facts = store.run("MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g "
                          "RETURN r.uuid AS uuid, r.fact_embedding AS embedding", {"g": group})
        lists.update({str(r["uuid"]): r["embedding"] for r in facts})
    return normalise_rows(np.asarray([lists[str(r["uuid"])] for r in rows], dtype=np.float32))


def _read(mem: Memory, group: str) -> GroupVectors:
    mem.ctx.cache.forget(group)
    found = group_vectors(mem.ctx.asking(), group)
    assert found is not None
    return found


def test_the_group_read_sends_the_copy_and_gives_the_matrix_of_the_float_lists(mem: Memory) -> None:
    g = _group(mem)
    raw = mem.ctx.store.named("retrieval.group_vectors", {"group_id": g})
    kinds = {r["kind"] for r in raw}
    assert kinds == {"turn", "sentence", "fact"}
    sent = {type(r["embedding"]) for r in raw}
    assert sent == ({list} if mem.ctx.store.fact_shadows else {bytes})  # Kuzu sends its FLOAT column
    held = _read(mem, g)
    assert np.array_equal(held.matrix, _from_lists(mem, g, held.rows))


@pytest.mark.parametrize("mem", [pytest.param("neo4j", marks=pytest.mark.neo4j)], indirect=True)
def test_rows_without_the_copy_read_the_same(mem: Memory) -> None:
    """An older store's rows (or another client's) have no copy: the float list comes instead."""
    g = _group(mem)
    before = _read(mem, g)
    mem.ctx.store.run("MATCH (c:Chunk) WHERE c.group_id = $g AND c.kind = 'sentence' REMOVE c.embedding_f32",
                      {"g": g})
    mem.ctx.store.run("MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g REMOVE r.fact_embedding_f32",
                      {"g": g})
    sent = {r["kind"]: type(r["embedding"])
            for r in mem.ctx.store.named("retrieval.group_vectors", {"group_id": g})}
    assert sent == {"turn": bytes, "sentence": list, "fact": list}  # some rows with, some without
    after = _read(mem, g)
    assert after.rows == before.rows and np.array_equal(after.matrix, before.matrix)


def test_reembedding_replaces_the_copy_with_the_list(mem: Memory) -> None:
    g = _group(mem)

    class Other(WordHashEmbedder):
        name = "test-word-hash-2"

        def embed(self, texts: list[str]) -> np.ndarray:  # type: ignore[override]
            return normalise_rows(super().embed([t[::-1] for t in texts]))

    old = _read(mem, g)
    reembed_group(mem.ctx.store, Other(), g)  # type: ignore[arg-type]
    new = _read(mem, g)
    assert new.rows == old.rows and not np.array_equal(new.matrix, old.matrix)
    assert np.array_equal(new.matrix, _from_lists(mem, g, new.rows))
