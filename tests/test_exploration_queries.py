"""The analysts' queries in ``cypher/queries``: each runs read-only on both stores and its rows make sense.

The graph is written through the real write path (``episode.create_many``, ``entity.create_many`` and
``apply_fact`` for supersession) with record times we choose, so valid-time and record-time
answers can be checked exactly. A second group holding the same names checks tenant isolation.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from store_builders import vec

from tkg.cli.common import query_params
from tkg.cypher import exploration_query_path, list_exploration_queries, split_statements
from tkg.ingest.supersede import FactWrite, apply_fact
from tkg.models import stable_uuid
from tkg.stores import GraphStore

SHIPPED = {
    "fact_history", "supersession_chain", "graph_as_of", "known_at", "fact_provenance",
    "entity_neighbourhood",
    "facts_changed_between",
}
SINGLE = {"lives_in", "works_at"}
R1, R2, R3 = (datetime(2025, 1, d, tzinfo=UTC) for d in (1, 2, 3))  # record times of the three ingests

# (source_ref, said at, record time, speaker, text, [(subject, predicate, object, valid from)])
TURNS: list[tuple[str, datetime, datetime, str, str, list[tuple[str, str, str, datetime]]]] = [
    (
        "D1:2",
        datetime(2023, 3, 12, 19, 15, tzinfo=UTC),
        R1,
        "Priya",
        "I live in Bristol and work at Northwind.",
        [
            ("Priya", "lives_in", "Bristol", datetime(2023, 3, 12, tzinfo=UTC)),
            ("Priya", "works_at", "Northwind", datetime(2023, 3, 12, tzinfo=UTC)),
        ],
    ),
    (
        "D1:10",
        datetime(2023, 3, 12, 19, 25, tzinfo=UTC),
        R1,
        "Priya",
        "My sister Megan lives in Manchester.",
        [
            ("Priya", "sibling_of", "Megan", datetime(2023, 3, 12, tzinfo=UTC)),
            ("Megan", "lives_in", "Manchester", datetime(2023, 3, 12, tzinfo=UTC)),
        ],
    ),
    (
        "D2:3",
        datetime(2023, 6, 4, 10, 2, tzinfo=UTC),
        R2,
        "Priya",
        "Actually it was Leeds: I moved at the start of May.",
        [("Priya", "lives_in", "Leeds", datetime(2023, 5, 1, tzinfo=UTC))],
    ),
    (
        "D6:2",
        datetime(2024, 5, 19, 9, 0, tzinfo=UTC),
        R3,
        "Priya",
        "I live in Lisbon now.",
        [("Priya", "lives_in", "Lisbon", datetime(2024, 5, 1, tzinfo=UTC))],
    ),
    (
        "D6:6",
        datetime(2024, 5, 19, 9, 5, tzinfo=UTC),
        R3,
        "Priya",
        "Still at Northwind, on sabbatical.",
        [("Priya", "works_at", "Northwind", datetime(2024, 5, 19, tzinfo=UTC))],
    ),
]


def write_graph(store: GraphStore, group: str, turns: list[Any] = TURNS) -> None:
    """Write the turns as episodes, entities and versioned facts, one transaction per turn."""
    entities: set[str] = set()
    prev: str | None = None
    for seq, (ref, said, recorded, speaker, text, facts) in enumerate(turns, start=1):
        ep = stable_uuid("episode", group, ref)
        with store.transaction() as tx:
            tx.named("episode.create_many", {"group_id": group, "created_at": recorded, "episodes": [{
                "uuid": ep, "name": ref, "content": text, "source": "message", "source_description": "test",
                "speaker": speaker, "source_ref": ref, "content_hash": ref, "seq": seq, "session": "s",
                "valid_at": said, "entity_edges": [], "extract_context": "", "parse": None, "prev_uuid": prev,
            }]})
            for subject, predicate, obj, valid in facts:
                for name in (subject, obj):
                    if name not in entities:
                        entities.add(name)
                        tx.named(
                            "entity.create_many",
                            {
                                "group_id": group,
                                "created_at": recorded,
                                "entities": [
                                    {
                                        "uuid": stable_uuid("entity", group, name),
                                        "name": name,
                                        "name_key": name.lower(),
                                        "type": "person" if name in ("Priya", "Megan") else "place",
                                        "aliases": [],
                                        "summary": "",
                                        "name_embedding": None,
                                    }
                                ],
                            },
                        )
                fw = FactWrite(
                    group_id=group, subject_uuid=stable_uuid("entity", group, subject),
                    object_uuid=stable_uuid("entity", group, obj), predicate=predicate, qualifier="",
                    fact=f"{subject} {predicate} {obj}", valid_at=valid, episode_uuid=ep, source_ref=ref,
                    source_chunk=None, confidence=0.9, fact_embedding=vec(len(predicate)),
                )
                apply_fact(tx, fw, single_valued=predicate in SINGLE, now=recorded)
        prev = ep


@pytest.fixture
def graph(store: GraphStore, new_group: Callable[[], str]) -> tuple[GraphStore, str]:
    group, other = new_group(), new_group()
    write_graph(store, group)
    # the same names in another tenant must never show up
    write_graph(store, other, [("X:1", datetime(2023, 6, 1, tzinfo=UTC), R2, "Priya", "I live in Paris.",
                                [("Priya", "lives_in", "Paris", datetime(2023, 4, 1, tzinfo=UTC))])])
    return store, group


def run(store: GraphStore, name: str, **params: Any) -> list[dict[str, Any]]:
    statements = split_statements(exploration_query_path(name).read_text(encoding="utf-8"))
    assert len(statements) == 1
    return store.read(statements[0], params)  # read(): the query must pass the read-only guard


def test_every_query_is_shipped_documented_and_parameterised() -> None:
    listed = list_exploration_queries()
    assert SHIPPED <= set(listed)
    for name in listed:
        text = exploration_query_path(name).read_text(encoding="utf-8")
        first = text.splitlines()[0]
        assert first.startswith("// ") and "Params:" in first, name
        used = query_params(text)
        assert "group_id" in used and "group" not in used, name
        for param in used:
            assert f"${param}" in first, f"{name}: ${param} is not named in the first line"


def test_fact_history_is_ordered_and_versioned(graph: tuple[GraphStore, str]) -> None:
    store, group = graph
    rows = run(store, "fact_history", group_id=group, subject="priya")
    lives = [r for r in rows if r["predicate"] == "lives_in"]
    assert [(r["value"], r["version"]) for r in lives] == [("Bristol", 1), ("Leeds", 2), ("Lisbon", 3)]
    assert [r["current"] for r in lives] == [False, False, True]
    assert [r["valid_at"] for r in lives] == sorted(r["valid_at"] for r in lives)
    assert lives[0]["invalid_at"] == lives[1]["valid_at"]  # Bristol ends where Leeds begins
    assert {r["predicate"] for r in rows} == {"lives_in", "works_at", "sibling_of"}
    assert [r["predicate"] for r in rows] == sorted(r["predicate"] for r in rows)
    assert "Paris" not in {r["value"] for r in rows}


def test_supersession_chain_links_each_version_to_the_one_it_replaced(graph: tuple[GraphStore, str]) -> None:
    store, group = graph
    rows = run(store, "supersession_chain", group_id=group, subject="Priya", predicate="lives_in")
    assert [(r["version"], r["value"], r["supersedes_value"]) for r in rows] == [
        (1, "Bristol", None), (2, "Leeds", "Bristol"), (3, "Lisbon", "Leeds")
    ]
    assert [r["supersedes_version"] for r in rows] == [None, 1, 2]
    assert [r["invalid_at"] for r in rows[:-1]] == [
        r["valid_at"] for r in rows[1:]
    ]  # each ends where the next begins


def test_graph_as_of_uses_valid_time(graph: tuple[GraphStore, str]) -> None:
    store, group = graph
    rows = run(store, "graph_as_of", group_id=group, as_of=datetime(2023, 7, 1, tzinfo=UTC))
    facts = {(r["subject"], r["predicate"], r["value"]) for r in rows}
    assert facts == {
        ("Priya", "lives_in", "Leeds"), ("Priya", "works_at", "Northwind"), ("Priya", "sibling_of", "Megan"),
        ("Megan", "lives_in", "Manchester"),
    }
    before = run(store, "graph_as_of", group_id=group, as_of=datetime(2023, 4, 1, tzinfo=UTC))
    assert ("Priya", "lives_in", "Bristol") in {(r["subject"], r["predicate"], r["value"]) for r in before}
    assert run(store, "graph_as_of", group_id=group, as_of=datetime(2020, 1, 1, tzinfo=UTC)) == []


def test_known_at_uses_record_time(graph: tuple[GraphStore, str]) -> None:
    store, group = graph

    def homes(at: datetime) -> set[str]:
        rows = run(store, "known_at", group_id=group, at=at)
        return {r["value"] for r in rows if r["subject"] == "Priya" and r["predicate"] == "lives_in"}

    assert homes(datetime(2024, 12, 31, tzinfo=UTC)) == set()  # nothing recorded yet
    assert homes(R1.replace(hour=12)) == {"Bristol"}
    assert homes(R2.replace(hour=12)) == {"Leeds"}  # Bristol expired when Leeds was recorded
    assert homes(R3.replace(hour=12)) == {"Lisbon"}


def test_fact_provenance_points_at_the_turns(graph: tuple[GraphStore, str]) -> None:
    store, group = graph
    rows = run(store, "fact_provenance", group_id=group, subject="Priya", predicate="works_at")
    assert [(r["version"], r["value"], r["source_ref"]) for r in rows] == [
        (1, "Northwind", "D1:2"),
        (1, "Northwind", "D6:6"),
    ]
    assert rows[0]["text"].startswith("I live in Bristol") and rows[0]["speaker"] == "Priya"
    assert rows[0]["said_at"] < rows[1]["said_at"]
    homes = run(store, "fact_provenance", group_id=group, subject="Priya", predicate="lives_in")
    assert [(r["value"], r["source_ref"]) for r in homes] == [
        ("Bristol", "D1:2"),
        ("Leeds", "D2:3"),
        ("Lisbon", "D6:2"),
    ]


def test_entity_neighbourhood_has_both_directions(graph: tuple[GraphStore, str]) -> None:
    store, group = graph
    rows = run(store, "entity_neighbourhood", group_id=group, entity="Megan")
    assert {(r["direction"], r["subject"], r["predicate"], r["object"]) for r in rows} == {
        ("in", "Priya", "sibling_of", "Megan"), ("out", "Megan", "lives_in", "Manchester")
    }
    priya = run(store, "entity_neighbourhood", group_id=group, entity="Priya")
    assert len(priya) == 5 and all(r["direction"] == "out" for r in priya)
    assert [r["current"] for r in priya] == sorted(
        (r["current"] for r in priya), reverse=True
    )  # current first


def test_facts_changed_between_reports_what_began_and_ended(graph: tuple[GraphStore, str]) -> None:
    store, group = graph
    rows = run(
        store, "facts_changed_between", group_id=group,
        since=datetime(2023, 4, 1, tzinfo=UTC), until=datetime(2023, 6, 30, tzinfo=UTC),
    )
    assert [(r["change"], r["value"]) for r in rows] == [("ended", "Bristol"), ("began", "Leeds")]
    assert all(r["at"] == datetime(2023, 5, 1, tzinfo=UTC) for r in rows)
