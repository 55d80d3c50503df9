"""A group records its embedding model; another model is refused until `tkg reembed` re-embeds it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from store_builders import fill_group, retrieved, vec
from test_bulk_load import WordHashEmbedder, episodes, unsearchable, url_for

from procedures.group_vectors import group_vectors
from tkg.errors import EmbeddingError
from tkg.ingest.reembed import turn_means
from tkg.memory import Memory
from tkg.stores import GraphStore


class OtherModel(WordHashEmbedder):
    """Another deterministic model: the word-hash vectors, sign-flipped in every other dimension."""

    name = "test-other-model"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = super().embed(texts)
        rows[:, 1::2] *= -1
        return rows


@pytest.fixture(params=["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield url_for(str(request.param), tmp_path)


def _vectors(mem: Memory, group: str) -> dict[str, list[float]]:
    rows = mem.ctx.store.read(
        "MATCH (c:Chunk) WHERE c.group_id = $g RETURN c.uuid AS uuid, c.embedding AS e", {"g": group}
    )
    return {r["uuid"]: r["e"] for r in rows}


def test_a_group_of_another_model_is_refused_until_reembedded(url: str) -> None:
    group = f"reembed-{os.urandom(4).hex()}"
    first = Memory.open(url, embedder=WordHashEmbedder())  # type: ignore[arg-type]
    try:
        first.ingest_episodes(episodes(group, 12), bulk=False)
        assert first.embedding_model(group) == "test-word-hash"
        before = _vectors(first, group)
        counts = first.counts(group)
    finally:
        first.close()
    other = Memory.open(url, embedder=OtherModel())  # type: ignore[arg-type]
    try:
        for attempt in (lambda: other.ask("Where does Priya live?", group=group),
                        lambda: other.ingest_episodes(episodes(group, 14), bulk=False)):
            with pytest.raises(EmbeddingError) as err:
                attempt()
            assert "test-word-hash" in str(err.value) and "test-other-model" in str(err.value)
            assert f"tkg reembed --group {group}" in str(err.value)
        assert other.counts(group) == counts  # the refused ingest wrote nothing

        done = other.reembed(group)
        assert other.embedding_model(group) == "test-other-model"
        assert other.counts(group) == counts  # same rows, new vectors
        after = _vectors(other, group)
        assert after.keys() == before.keys()
        changed = [u for u in after if not np.allclose(after[u], before[u], atol=1e-5)]
        assert len(changed) == len(after)
        # every chunk is found by its words, and by its new vector where questions look for it (a
        # group this small is scored exactly: the shared index is approximate after a rewrite)
        assert unsearchable(other.ctx.store, group, vectors=False) == []
        exact = group_vectors(other.ctx, group)
        assert exact is not None and len(exact) >= len(after)  # Neo4j adds the fact edges' vectors
        for row, vector in zip(exact.rows, exact.matrix, strict=True):
            best = next(exact.ranked(exact.scores(vector.tolist()), {row["kind"]}))
            assert best["uuid"] == row["uuid"] or best["score"] == pytest.approx(1.0, abs=1e-5)
        facts = other.ctx.store.read(
            "MATCH (:Entity)-[r:RELATES_TO]->(:Entity) WHERE r.group_id = $g RETURN r.fact AS fact, r.uuid "
            "AS uuid",
            {"g": group})  # fmt: skip
        assert facts, "the test turns state facts"
        for fact in facts:  # found first by the new model's vector of its sentence, on either store's layout
            vector = OtherModel().embed_one(fact["fact"])
            hits = retrieved(other.ctx.store, group, vector=vector, kinds={"fact"}, k=1)
            assert hits[0]["uuid"] == fact["uuid"] and hits[0]["score"] > 0.999
        names = other.ctx.store.read(
            "MATCH (n:Entity) WHERE n.group_id = $g RETURN n.name AS name, n.name_embedding AS e",
            {"g": group},
        )
        turn_chunks = other.ctx.store.read(
            "MATCH (c:Chunk) WHERE c.group_id = $g AND c.kind <> 'fact' RETURN count(c) AS n", {"g": group})
        assert (done[0]["chunks"], done[0]["facts"], done[0]["entities"]) == (
            turn_chunks[0]["n"], len(facts), len(names))
        for row in names:
            np.testing.assert_allclose(row["e"], OtherModel().embed([row["name"]])[0], atol=1e-5)
        other.ask("Where does Priya live?", group=group)  # no longer refused
        other.ingest_episodes(episodes(group, 14), bulk=False)
        assert other.counts(group)["episodes"] == 14
    finally:
        other.forget(group)
        other.close()


def test_turn_means_follow_the_ingest_rule() -> None:
    chunks = [
        {"uuid": "t1", "episode_uuid": "e1", "kind": "turn"},
        {"uuid": "s1", "episode_uuid": "e1", "kind": "sentence"},
        {"uuid": "s2", "episode_uuid": "e1", "kind": "sentence"},
        {"uuid": "t2", "episode_uuid": "e2", "kind": "turn"},  # one sentence: embedded whole
        {"uuid": "w1", "episode_uuid": "e3", "kind": "window"},
        {"uuid": "w2", "episode_uuid": "e3", "kind": "window"},
    ]
    assert turn_means(chunks) == {"t1": ["s1", "s2"]}


def test_the_record_and_reembed_ops_on_each_store(store: GraphStore, new_group: Callable[[], str]) -> None:
    group = new_group()
    assert store.named("group.embedder", {"group_id": group}) == []
    store.named("group.set_embedder", {"group_id": group, "model": "model-a", "stamp": "s1"})
    store.named("group.set_embedder", {"group_id": group, "model": "model-b", "stamp": "s2"})
    assert [r["model"] for r in store.named("group.embedder", {"group_id": group})] == ["model-b"]
    fill_group(store, group)
    chunks = store.named("reembed.chunks", {"group_id": group})
    assert [(c["kind"], c["text"]) for c in chunks] == [("turn", "Priya lives in Leeds")]
    facts = store.named("reembed.facts", {"group_id": group})
    assert sorted(f["fact"] for f in facts) == [
        "Priya lives in Bristol",
        "Priya lives in Leeds",
        "Priya works at Northwind",
    ]
    target = next(f for f in facts if f["fact"] == "Priya works at Northwind")
    with store.transaction() as tx:
        tx.named(
            "reembed.set_facts", {"group_id": group, "rows": [{"uuid": target["uuid"], "embedding": vec(7)}]}
        )
    hits = retrieved(store, group, vector=vec(7), kinds={"fact"}, k=1)
    assert hits[0]["uuid"] == target["uuid"] and hits[0]["score"] > 0.999
    with store.transaction() as tx:
        tx.named("reembed.delete_chunks", {"group_id": group, "uuids": [chunks[0]["uuid"]]})
        tx.named("chunk.create_many", {"group_id": group, "chunks": [{**chunks[0], "embedding": vec(9)}]})
    hits = retrieved(store, group, vector=vec(9), kinds={"turn", "sentence", "window"}, k=1)
    assert hits[0]["uuid"] == chunks[0]["uuid"] and hits[0]["text"] == "Priya lives in Leeds"
    store.named("group.delete", {"group_id": group})
    assert store.named("group.embedder", {"group_id": group}) == []
