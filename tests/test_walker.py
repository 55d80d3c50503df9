"""The grounded walker over a real graph on each store.

`tests/data/procedures/noor_felix.jsonl` (our own conversation) is ingested once per backend:
Noor moves Cardiff → Glasgow → Dublin, reports to Ines Duarte (from Porto) then Omar Haddad,
has a sister Lena in Oslo, and pets Pepper (lost), Mochi and Juniper.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners import Hop, HopPlan, plan_hops
from planners.mentions import mentioned_entities, planning_names
from procedures.walker import edge_order, qualifier_filter, walk
from tkg.entities import EntityIndex
from tkg.memory import Memory
from tkg.models import EpisodeInput, Fact

DATA = Path(__file__).parent / "data" / "procedures" / "noor_felix.jsonl"
JULY_2023 = datetime(2023, 7, 15, tzinfo=UTC)


@pytest.fixture(scope="module")
def graph(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "walk", DATA)


def _plan(mem: Memory, group: str, question: str) -> HopPlan:
    names, aliases = planning_names(question, mem.ctx.entities(group))
    plan = plan_hops(question, names, aliases=aliases)
    assert plan is not None, question
    return plan


def test_two_hops_over_current_edges_stop_where_the_graph_ends(graph: tuple[Memory, str]) -> None:
    mem, group = graph
    result = walk(mem.ctx, group, _plan(mem, group, "Where is Noor's manager from?"))
    # the current manager is Omar Haddad, and no edge says where he is from
    assert not result.complete and result.stopped_at == 1
    assert [b.name for b in result.bridge] == ["Omar Haddad"]
    assert result.steps[0]["kept"] == ["Omar Haddad"] and result.steps[1]["edges"] == 0
    assert "hop 2" in result.reason


def test_as_of_walks_the_edges_valid_then_and_keeps_provenance(graph: tuple[Memory, str]) -> None:
    mem, group = graph
    result = walk(mem.ctx, group, _plan(mem, group, "Where is Noor's manager from?"), as_of=JULY_2023)
    assert result.complete and result.values == ["Porto"]
    path = result.paths[0]
    assert [(f.subject, f.predicate, f.object) for f in path] == [
        ("Noor", "reports_to", "Ines Duarte"),
        ("Ines Duarte", "from_place", "Porto"),
    ]
    assert all(f.source_ref == "n4" and f.episodes for f in path)
    assert path[0].invalid_at is not None  # a closed version, valid in July 2023


def test_symmetric_predicates_match_both_directions(graph: tuple[Memory, str]) -> None:
    mem, group = graph
    # stored as sibling_of(Noor, Lena): walking from Lena must follow it backwards
    result = walk(mem.ctx, group, _plan(mem, group, "Where does Lena's sister live?"))
    assert result.complete and result.values == ["Dublin"]
    assert [f.predicate for f in result.paths[0]] == ["sibling_of", "lives_in"]


def test_inverse_hops_walk_object_to_subject(graph: tuple[Memory, str]) -> None:
    mem, group = graph
    plan = _plan(mem, group, "Who reports to Omar Haddad?")
    assert plan.hops[0].inverse
    assert walk(mem.ctx, group, plan).values == ["Noor"]


def test_fanout_keeps_the_newest_edges_and_is_deterministic(graph: tuple[Memory, str]) -> None:
    mem, group = graph
    plan = HopPlan("Noor", "Noor", (Hop("has_pet"),), "entity")
    everything = walk(mem.ctx, group, plan, fanout=10)
    current = {"Mochi", "Juniper"}
    assert current <= set(everything.values) and "Pepper" not in everything.values  # Pepper's edge is closed
    newest = [f for f in everything.facts if f.object in everything.values]
    expected_first = sorted(newest, key=edge_order)[0].object
    one = walk(mem.ctx, group, plan, fanout=1)
    assert one.values == [expected_first] == walk(mem.ctx, group, plan, fanout=1).values


def test_a_directed_chain_may_come_back_to_its_seed_by_another_edge(graph: tuple[Memory, str]) -> None:
    """Two re-organisations half told: Ada reports to Bruno, and Bruno now to Ada."""
    mem, _ = graph
    group = f"walk-cycle-{uuid.uuid4().hex[:10]}"
    said = [("Ada", "Bruno", "I live in Porto these days."), ("Ada", "Bruno", "My manager is Bruno."),
            ("Bruno", "Ada", "I moved to Lyon."), ("Bruno", "Ada", "Since the shake-up I report to Ada.")]
    mem.ingest_episodes(
        [
            EpisodeInput(group, who, text, datetime(2024, 3, 1, 9, i, tzinfo=UTC), f"c{i}", listeners=(to,))
            for i, (who, to, text) in enumerate(said)
        ]
    )
    try:
        boss2 = walk(mem.ctx, group, _plan(mem, group, "Where does Ada's manager's manager live?"))
        assert boss2.complete and boss2.values == ["Porto"]
        assert [f.object for f in boss2.paths[0]] == ["Bruno", "Ada", "Porto"]
        again = walk(
            mem.ctx,
            group,
            HopPlan("Ada", "Ada", (Hop("reports_to"), Hop("reports_to", inverse=True)), "entity"),
        )
        assert not again.complete  # the same edge is never walked back
    finally:
        mem.forget(group)


def test_a_symmetric_hop_does_not_return_to_the_path(graph: tuple[Memory, str]) -> None:
    mem, group = graph
    result = walk(mem.ctx, group, _plan(mem, group, "Who is Lena's sister's sister?"))
    assert "Lena" not in result.values and not result.complete


def test_limits_and_unknown_seeds_stop_cleanly(graph: tuple[Memory, str]) -> None:
    mem, group = graph
    plan = _plan(mem, group, "Where is Noor's manager from?")
    limited = walk(mem.ctx, group, plan, max_hops=1)
    assert not limited.complete and "hop limit" in limited.reason
    ghost = walk(mem.ctx, group, HopPlan("Zara", "Zara", (Hop("lives_in"),), "entity"))
    assert ghost.seed is None and ghost.stopped_at == 0 and not ghost.values


def test_strict_qualifiers_filter_and_loose_ones_only_hint() -> None:
    def fact(predicate: str, obj: str, qualifier: str) -> Fact:
        return Fact(
            obj, "g", "Noor", predicate, obj, "", datetime(2023, 1, 1, tzinfo=UTC), qualifier=qualifier
        )

    favourites = [fact("favorite", "Radiohead", "band now"), fact("favorite", "Pho", "food")]
    assert [f.object for f in qualifier_filter(Hop("favorite", qualifier="band"), favourites)] == [
        "Radiohead"
    ]
    assert qualifier_filter(Hop("favorite", qualifier="movie"), favourites) == []
    pets = [fact("has_pet", "Mochi", ""), fact("has_pet", "Juniper", "")]
    assert qualifier_filter(Hop("has_pet", qualifier="dog"), pets) == pets


def test_common_words_do_not_become_names() -> None:
    index = EntityIndex(
        "g", [{"uuid": "1", "name": "Still"}, {"uuid": "2", "name": "Noor"}, {"uuid": "3", "name": "Tell"}]
    )
    names, _ = planning_names("Is Noor still in Glasgow?", index)
    assert "Still" not in names and "Noor" in names
    assert mentioned_entities("Tell me where Noor lives", index) == ["Noor"]
    assert "Still" in planning_names("Where does Still live?", index)[0]  # written as a name, it is one


def test_step_ops_by_name(graph: tuple[Memory, str]) -> None:
    """The walker's named steps: direction, current vs as-of edges, and the group filter."""
    mem, group = graph
    store, ents = (
        mem.ctx.store,
        {r["name"]: r["uuid"] for r in mem.ctx.store.named("entity.list", {"group_id": group})},
    )
    base = {"group_id": group, "predicate": "reports_to"}
    out = store.named("walk.step_out", {**base, "from_uuids": [ents["Noor"]]})
    assert [(r["from_uuid"], r["to_name"], r["invalid_at"]) for r in out] == [
        (ents["Noor"], "Omar Haddad", None)
    ]
    back = store.named("walk.step_in", {**base, "from_uuids": [ents["Ines Duarte"]]})
    assert back == []  # Ines's edge is closed: not current
    then = store.named(
        "walk.step_in_as_of", {**base, "from_uuids": [ents["Ines Duarte"]], "as_of": JULY_2023}
    )
    assert [(r["to_name"], r["subject"], r["object"]) for r in then] == [("Noor", "Noor", "Ines Duarte")]
    assert [
        r["to_name"]
        for r in store.named(
            "walk.step_out_as_of", {**base, "from_uuids": [ents["Noor"]], "as_of": JULY_2023}
        )
    ] == ["Ines Duarte"]
    assert (
        store.named("walk.step_out", {**base, "group_id": "another-group", "from_uuids": [ents["Noor"]]})
        == []
    )
