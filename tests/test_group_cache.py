"""Entity lists and speakers kept across questions (tkg/group_cache.py) never hide a write.

Each writer gives the group a new stamp when it anchors its turns, so a reader that cached the
group sees new entities at its next question: in the same Memory, in another Memory on the same
Neo4j (as another process would be), after a raw Cypher write and after `forget`.
"""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from test_bulk_load import WordHashEmbedder

from tkg.entities import read_entities
from tkg.group_cache import GroupCache, read_speakers
from tkg.memory import Memory
from tkg.models import EpisodeInput

T0 = datetime(2024, 1, 5, 9, 0, tzinfo=UTC)


def turn(group: str, i: int, speaker: str, text: str) -> EpisodeInput:
    return EpisodeInput(group=group, speaker=speaker, text=text, timestamp=T0 + timedelta(hours=i),
                        source_ref=f"D1:{i}", session="session_1", listeners=("Ines", "Tomas"))


def names(mem: Memory, group: str) -> set[str]:
    return set(mem.ctx.asking().entities(group).names())


def test_a_write_in_the_same_memory_is_seen_at_the_next_question(tmp_path: Path) -> None:
    g = "cache-kuzu"
    with Memory.open(f"kuzu://{tmp_path}/c.kuzu", embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        mem.ingest_episodes([turn(g, 0, "Ines", "I moved to Porto last spring.")])
        assert "Porto" in names(mem, g) and "Valencia" not in names(mem, g)
        assert mem.ctx.asking().speakers(g) == {"Ines": 1}
        mem.ingest_episodes([turn(g, 1, "Tomas", "My sister moved to Valencia.")])
        assert {"Porto", "Valencia"} <= names(mem, g)
        assert mem.ctx.asking().speakers(g) == {"Ines": 1, "Tomas": 1}
        assert mem.ask("Where does Ines live?", group=g).answer == "Porto"
        mem.cypher(
            "MATCH (n:Entity) WHERE n.group_id = $g AND n.name = 'Porto' SET n.name = 'Oporto'",
            {"g": g},
            write=True,
        )
        assert "Oporto" in names(mem, g) and "Porto" not in names(mem, g)
        mem.forget(g)
        assert names(mem, g) == set() and mem.ctx.asking().speakers(g) == {}


def test_an_ingest_leaves_both_lists_cached_for_the_first_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The anchoring transaction reads the lists it stamps, so asking right after an ingest reads neither."""
    g = "cache-through"
    with Memory.open(f"kuzu://{tmp_path}/w.kuzu", embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        mem.ingest_episodes([turn(g, 0, "Ines", "I moved to Porto last spring."),
                             turn(g, 1, "Tomas", "My sister adopted a dog named Biscuit.")])
        store = mem.ctx.store
        fresh = (read_entities(store, g), read_speakers(store, g))
        ran: list[str] = []
        named = store.named

        def counting(name: str, params: Any = None) -> Any:
            ran.append(name)
            return named(name, params)

        monkeypatch.setattr(store, "named", counting)
        asked = mem.ctx.asking()
        assert sorted(asked.entities(g).names()) == sorted(fresh[0].names()) and {"Porto", "Biscuit"} <= set(
            fresh[0].names()
        )
        assert asked.speakers(g) == fresh[1] == {"Ines": 1, "Tomas": 1}
        assert mem.ask("Where does Ines live?", group=g).answer == "Porto"
        assert ran and "entity.list" not in ran and "graph.speakers" not in ran


def test_the_cache_is_bounded_by_entries_and_by_what_they_hold() -> None:
    cache = GroupCache(size=3, weight=10)
    for i in range(4):
        cache.put(f"g{i}", "speakers", "s", {"a": 1})  # weight 2 each
    assert cache.get("g0", "speakers", "s", lambda: {"fresh": 1}) == {"fresh": 1}  # the oldest went first
    assert cache.get("g3", "speakers", "s", lambda: {"fresh": 1}) == {"a": 1}
    cache.put("big", "speakers", "s", {str(i): i for i in range(8)})  # weight 9: the others go
    assert cache.get("big", "speakers", "s", lambda: {}) == {str(i): i for i in range(8)}
    cache.put("big", "speakers", "s2", {"b": 1})  # replacing an entry frees what it held
    for group in ("g2", "g3"):  # gone with the big one; now they fit beside it
        assert cache.get(group, "speakers", "s", lambda: {"fresh": 1}) == {"fresh": 1}
    assert cache.get("big", "speakers", "s2", lambda: {}) == {"b": 1}


@pytest.mark.neo4j
def test_another_writer_on_the_same_neo4j_is_seen_at_the_next_question() -> None:
    uri = os.environ.get("TKG_TEST_NEO4J_URI")
    if not uri:
        pytest.skip("TKG_TEST_NEO4J_URI is not set")
    g = f"test-cache-{uuid.uuid4().hex[:8]}"
    reader = Memory.open(uri, embedder=WordHashEmbedder())  # type: ignore[arg-type]
    writer = Memory.open(uri, embedder=WordHashEmbedder())  # type: ignore[arg-type]
    try:
        writer.ingest_episodes([turn(g, 0, "Ines", "I moved to Porto last spring.")])
        assert "Porto" in names(reader, g)
        assert names(writer, g) == names(reader, g)  # the writer's own, kept by its ingest
        writer.ingest_episodes([turn(g, 1, "Tomas", "My sister moved to Valencia.")])
        assert "Valencia" in names(reader, g)
        assert reader.ctx.asking().speakers(g) == {"Ines": 1, "Tomas": 1}
        writer.forget(g)
        assert names(reader, g) == set()
        writer.ingest_episodes([turn(g, 0, "Tomas", "I adopted a cat named Miso.")])  # the group again, anew
        assert "Porto" not in names(reader, g) and "Miso" in names(reader, g)
    finally:
        if writer.counts(g).get("episodes"):
            writer.forget(g)
        reader.close()
        writer.close()
