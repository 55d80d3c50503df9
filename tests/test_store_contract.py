"""The store contract: every behaviour domain code relies on, run against each backend.

Each test takes the ``store`` fixture (tests/conftest.py), so it runs on Kuzu and, when
``TKG_TEST_NEO4J_URI`` is set, on Neo4j. Writes go through the named ops in ``cypher/ops``
exactly as ingest will call them (builders in tests/store_builders.py). This module holds the
core contract (values, transactions, schema, write ops, groups, errors); the search and
retrieval ops are in tests/test_store_contract_search.py.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from store_builders import (
    DIM,
    T0,
    add_chunks,
    add_entity,
    add_episode,
    add_episodes,
    add_fact,
    add_mentions,
    add_versions,
    chunk,
    count,
    create_entity,
    episode,
    episode_links,
    episode_row,
    fill_group,
    vec,
)

from tkg.errors import NotFound, ReadOnlyViolation, SchemaError, StoreError, StoreUnavailable
from tkg.group_cache import anchor
from tkg.group_cache import stamp as group_stamp
from tkg.models import Vector, stable_uuid
from tkg.stores import GraphStore
from tkg.stores.base import SCHEMA_VERSION
from tkg.stores.kuzu_store import KuzuStore
from tkg.stores.neo4j_store import Neo4jStore

TRICKY = [
    "it's",
    'she said "hi"',
    "`backticks` and \\backslashes\\",
    "{braces} $group_id {{x}} $1",
    "Ünïcødé 日本語 🐕 – Lisboa",
    "MATCH (n) DETACH DELETE n // RETURN 1",
    "line\nbreak\ttab",
    "",
]


# --- values ------------------------------------------------------------------------------------


def test_strings_are_stored_and_read_back_verbatim(store: GraphStore, group: str) -> None:
    for i, text in enumerate(TRICKY):
        create_entity(
            store,
            group,
            stable_uuid(group, str(i)),
            text,
            str(i),
            type_="thing",
            aliases=[text],
            summary=text,
        )
    rows = store.run(
        "MATCH (n:Entity) WHERE n.group_id = $group_id RETURN n.name AS name, n.aliases AS aliases, "
        "n.summary AS summary ORDER BY n.name_key",
        {"group_id": group},
    )
    assert [r["name"] for r in rows] == TRICKY
    assert [r["summary"] for r in rows] == TRICKY
    assert [r["aliases"] for r in rows] == [[t] for t in TRICKY]
    echoed = store.run("RETURN $a AS a, $b AS b", {"a": TRICKY[3], "b": TRICKY[5]})
    assert echoed == [{"a": TRICKY[3], "b": TRICKY[5]}]


def test_datetimes_round_trip_as_aware_utc(store: GraphStore, group: str) -> None:
    india = timezone(timedelta(hours=5, minutes=30))
    at = datetime(2024, 2, 29, 23, 59, 58, 654321, tzinfo=india)
    add_episode(store, group, 0, at=at)
    (row,) = store.run(
        "MATCH (e:Episodic) WHERE e.group_id = $group_id RETURN e.valid_at AS t", {"group_id": group}
    )
    assert row["t"] == at and row["t"].tzinfo == UTC and row["t"].microsecond == 654321
    # comparisons use the instant, whatever offset the parameter carries
    same = at.astimezone(UTC)
    hits = store.run(
        "MATCH (e:Episodic) WHERE e.group_id = $group_id AND e.valid_at = $t RETURN e.seq AS seq",
        {"group_id": group, "t": same},
    )
    assert hits == [{"seq": 0}]
    # a naive datetime is UTC (models.as_utc): it compares with stored times, never silently to null
    naive = store.run(
        "MATCH (e:Episodic) WHERE e.group_id = $group_id AND e.valid_at <= $t RETURN e.seq AS seq",
        {"group_id": group, "t": same.replace(tzinfo=None)},
    )
    assert naive == [{"seq": 0}]
    (echo,) = store.run("RETURN $t AS t", {"t": at})
    assert echo["t"] == at and echo["t"].tzinfo == UTC


def test_lists_numbers_and_none(store: GraphStore, group: str) -> None:
    uid = add_entity(store, group, "Megan", aliases=["Meg", "Megs"], summary=None)
    empty = add_entity(store, group, "Biscuit")
    rows = store.run(
        "MATCH (n:Entity) WHERE n.group_id = $group_id RETURN n.uuid AS uuid, n.aliases AS aliases, "
        "n.summary AS summary, n.name_embedding AS emb",
        {"group_id": group},
    )
    by = {r["uuid"]: r for r in rows}
    assert by[uid]["aliases"] == ["Meg", "Megs"] and by[empty]["aliases"] == []
    assert by[uid]["summary"] is None
    assert by[uid]["emb"] == pytest.approx(vec(len("Megan")), rel=1e-6)
    assert store.run("RETURN $x AS x, $n AS n, $f AS f", {"x": None, "n": 2**40, "f": 0.25}) == [
        {"x": None, "n": 2**40, "f": 0.25}
    ]


# --- transactions and read-only -----------------------------------------------------------------


def test_transaction_commits(store: GraphStore, group: str) -> None:
    with store.transaction() as tx:
        add_entity(tx, group, "Priya")
        add_entity(tx, group, "Marco")
        assert count(store, "Entity", group) in (0, 2)  # isolation is the backend's; either is fine
    assert count(store, "Entity", group) == 2


def test_transaction_rolls_back_on_exception(store: GraphStore, group: str) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        with store.transaction() as tx:
            add_entity(tx, group, "Priya")
            add_episode(tx, group, 0)
            raise Boom
    assert count(store, "Entity", group) == 0 and count(store, "Episodic", group) == 0


def test_transaction_rolls_back_when_a_statement_fails(store: GraphStore, group: str) -> None:
    with pytest.raises(StoreError):
        with store.transaction() as tx:
            add_entity(tx, group, "Priya")
            tx.run("MATCH (n:Entity RETURN n")
    assert count(store, "Entity", group) == 0
    add_entity(store, group, "Marco")  # the store is still usable afterwards
    assert count(store, "Entity", group) == 1


def test_read_returns_rows(store: GraphStore, group: str) -> None:
    add_entity(store, group, "Dana Okafor")
    rows = store.read(
        "MATCH (n:Entity) WHERE n.group_id = $group_id RETURN n.name AS name", {"group_id": group}
    )
    assert rows == [{"name": "Dana Okafor"}]


@pytest.mark.parametrize(
    "query",
    [
        "CREATE (n:Entity {uuid: $uuid, group_id: $group_id, name: 'x'})",
        "MERGE (n:Entity {uuid: $uuid}) SET n.group_id = $group_id",
        "MATCH (n:Entity) WHERE n.group_id = $group_id SET n.name = 'x' RETURN n",
        "match (n:Entity) where n.group_id = $group_id detach delete n",
    ],
)
def test_read_refuses_writes(store: GraphStore, group: str, query: str) -> None:
    add_entity(store, group, "Priya")
    with pytest.raises(ReadOnlyViolation):
        store.read(query, {"uuid": stable_uuid(group, "x"), "group_id": group})
    rows = store.run(
        "MATCH (n:Entity) WHERE n.group_id = $group_id RETURN n.name AS name", {"group_id": group}
    )
    assert rows == [{"name": "Priya"}]


def test_read_refuses_a_write_the_keyword_check_misses(store: GraphStore, group: str) -> None:
    # "//" inside a string looks like a comment to a keyword scan, hiding the CREATE after it;
    # the engine's read-only transaction must still refuse it.
    query = "UNWIND [1] AS i WITH '//' AS s CREATE (:Entity {uuid: $uuid, group_id: $group_id, name: s})"
    with pytest.raises(ReadOnlyViolation):
        store.read(query, {"uuid": stable_uuid(group, "sneaky"), "group_id": group})
    assert count(store, "Entity", group) == 0


# --- schema ------------------------------------------------------------------------------------


def _index_names(store: GraphStore) -> set[str]:
    return {r["name"] for r in store.indexes()}


def test_ensure_schema_twice_is_a_no_op(store: GraphStore, group: str) -> None:
    add_entity(store, group, "Priya")
    before = _index_names(store)
    # Kuzu keeps one full-text and one vector index (facts ride in Chunk), the vector one made when
    # a search first needs it; Neo4j indexes facts too
    assert {"chunk_text", "chunk_embedding"} - set(store.deferred_indexes()) <= before
    assert store.vector_index_ready() == ("chunk_embedding" in before)
    store.ensure_schema(DIM)
    assert _index_names(store) == before
    assert count(store, "Entity", group) == 1


def test_ensure_schema_with_another_dimension_raises(store: GraphStore) -> None:
    with pytest.raises(SchemaError, match=str(DIM)):
        store.ensure_schema(DIM + 1)


# --- named ops: writes ---------------------------------------------------------------------------


def test_episode_create_many_links_turns_in_order_and_reports_the_links(
    store: GraphStore, group: str
) -> None:
    assert add_episode(store, group, 0) == [{"linked": 0}]
    rows = [episode_row(group, 1, episode(group, 0)), episode_row(group, 2, episode(group, 1), session=None)]
    assert add_episodes(store, group, rows) == [{"linked": 2}]
    assert episode_links(store, group) == [
        {"prev": 0, "seq": 1, "session": "session_1"}, {"prev": 1, "seq": 2, "session": None}
    ]


def test_episode_create_links_next_episode_within_the_group(
    store: GraphStore, new_group: Callable[[], str]
) -> None:
    a, b = new_group(), new_group()
    add_episode(store, a, 0)
    add_episode(store, a, 1, prev=episode(a, 0))
    add_episode(store, a, 2, prev=episode(a, 1))
    add_episode(store, b, 0, prev=episode(a, 2))  # another group's episode is never linked
    links = store.run("MATCH (p:Episodic)-[n:NEXT_EPISODE]->(e:Episodic) WHERE e.group_id IN $groups "
                      "RETURN p.seq AS prev, e.seq AS seq, e.group_id AS g, n.group_id AS ng ORDER BY prev",
                      {"groups": [a, b]})
    assert links == [{"prev": 0, "seq": 1, "g": a, "ng": a}, {"prev": 1, "seq": 2, "g": a, "ng": a}]
    assert store.named("episode.last", {"group_id": a}) == [{"uuid": episode(a, 2), "seq": 2}]
    asked = [episode(a, 1), episode(a, 9), episode(a, 2)]
    assert sorted(
        r["uuid"] for r in store.named("episode.existing", {"group_id": a, "uuids": asked})
    ) == sorted(asked[::2])
    assert store.named("episode.existing", {"group_id": b, "uuids": asked}) == []


def test_chunk_create_many_accepts_null_optional_times(store: GraphStore, group: str) -> None:
    add_episode(store, group, 0)
    ep = episode(group, 0)
    assert add_chunks(store, group, [chunk(group, ep, 0, "whole turn", 1, kind="turn"),
                                         chunk(group, ep, 1, "a sentence", 2)]) == [{"created": 2}]
    later: dict[str, Any] = {"time_text": "last week", "time_start": T0 - timedelta(days=7), "time_end": T0}
    assert add_chunks(
        store, group, [chunk(group, ep, 2, "timed", 3, **later), chunk(group, ep, 3, "untimed", 4)]
    ) == [{"created": 2}]
    rows = store.run(
        "MATCH (e:Episodic)-[h:HAS_CHUNK]->(c:Chunk) WHERE e.group_id = $group_id RETURN c.seq AS seq, "
        "c.kind AS kind, "
        "c.time_text AS tt, c.time_start AS ts, c.time_end AS te, c.valid_at AS at, c.episode_uuid AS ep, "
        "h.group_id AS hg, size(c.embedding) AS dim ORDER BY seq",
        {"group_id": group},
    )
    assert [r["seq"] for r in rows] == [0, 1, 2, 3] and rows[0]["kind"] == "turn"
    assert all(r["at"] == T0 and r["ep"] == ep and r["hg"] == group and r["dim"] == DIM for r in rows)
    assert [(r["tt"], r["ts"], r["te"]) for r in rows] == [(None, None, None)] * 2 + [
        ("last week", T0 - timedelta(days=7), T0), (None, None, None)]


def test_entity_create_and_list(store: GraphStore, new_group: Callable[[], str]) -> None:
    a, b = new_group(), new_group()
    meg = add_entity(store, a, "Megan", aliases=["Meg"])
    add_entity(store, a, "Biscuit")
    add_entity(store, b, "Zed")
    assert store.named("entity.list", {"group_id": a}) == [
        {
            "uuid": stable_uuid("entity", a, "Biscuit"),
            "name": "Biscuit",
            "name_key": "biscuit",
            "type": "person",
            "aliases": [],
        },
        {"uuid": meg, "name": "Megan", "name_key": "megan", "type": "person", "aliases": ["Meg"]},
    ]


def test_create_many_rows_may_differ_in_which_fields_are_empty(store: GraphStore, group: str) -> None:
    # Kuzu binds parameter types when it prepares a statement; rows whose first one has an empty
    # or null field must not reuse a plan made for rows where that field was always empty
    def row(name: str, aliases: list[str]) -> dict[str, Any]:
        return {"uuid": stable_uuid(group, name), "name": name, "name_key": name.lower(), "type": "person",
                "aliases": aliases, "summary": None, "name_embedding": None}

    for rows in (
        [row("Ann", []), row("Bo", [])],
        [row("Cy", []), row("Di", ["Dee"])],
        [row("Ed", ["Eddie"]), row("Fay", [])],
    ):
        assert store.named("entity.create_many", {"group_id": group, "created_at": T0, "entities": rows}) == [
            {"created": 2}
        ]
    rows = store.run(
        "MATCH (n:Entity) WHERE n.group_id = $group_id RETURN n.name AS name, n.aliases AS aliases "
        "ORDER BY name",
        {"group_id": group},
    )
    assert [(r["name"], r["aliases"]) for r in rows] == [
        ("Ann", []), ("Bo", []), ("Cy", []), ("Di", ["Dee"]), ("Ed", ["Eddie"]), ("Fay", [])]
    first = [episode_row(group, 1, None, session=None), episode_row(group, 2, episode(group, 1))]
    then = [
        episode_row(group, 3, episode(group, 2), session=None),
        episode_row(group, 4, episode(group, 3), session=None),
    ]
    for rows in (first, then):
        add_episodes(store, group, rows)
    assert episode_links(store, group) == [
        {"prev": 1, "seq": 2, "session": "session_1"}, {"prev": 2, "seq": 3, "session": None},
        {"prev": 3, "seq": 4, "session": None},
    ]


def test_entity_update_and_embeddings(store: GraphStore, new_group: Callable[[], str]) -> None:
    a, b = new_group(), new_group()
    meg = add_entity(store, a, "Meg")
    create_entity(store, a, stable_uuid(a, "bare"), "Leeds", "leeds", type_="place")
    create_entity(
        store, a, stable_uuid(a, "made"), "York", "york", type_="place", name_embedding=Vector(vec(3))
    )
    anchor(store, a, [stable_uuid(a, "bare"), stable_uuid(a, "made")])
    update = {"uuid": meg, "name": "Megan", "name_key": "megan", "aliases": ["Meg"], "type": "person"}
    assert store.named("entity.update", {**update, "group_id": b}) == []
    assert store.named("entity.update", {**update, "group_id": a}) == [{"uuid": meg}]
    assert store.named("entity.missing_embedding", {"group_id": a}) == [
        {"uuid": stable_uuid(a, "bare"), "name": "Leeds"}
    ]
    rows = [{"uuid": stable_uuid(a, "bare"), "embedding": vec(7)}]
    assert store.named("entity.set_embeddings", {"group_id": b, "rows": rows}) == [{"updated": 0}]
    assert store.named("entity.set_embeddings", {"group_id": a, "rows": rows}) == [{"updated": 1}]
    assert store.named("entity.missing_embedding", {"group_id": a}) == []
    listed = {
        r["name"]: (r["name_key"], r["aliases"], r["type"])
        for r in store.named("entity.list", {"group_id": a})
    }
    assert listed == {
        "Megan": ("megan", ["Meg"], "person"),
        "Leeds": ("leeds", [], "place"),
        "York": ("york", [], "place"),
    }
    stored = store.run("MATCH (n:Entity) WHERE n.group_id = $group_id AND n.name IN ['Leeds', 'York'] "
                       "RETURN n.name AS name, n.name_embedding AS v ORDER BY name", {"group_id": a})
    assert [r["name"] for r in stored] == ["Leeds", "York"]
    assert [
        np.allclose(r["v"], want, atol=1e-6) for r, want in zip(stored, (vec(7), vec(3)), strict=True)
    ] == [True, True]


def test_mention_create_many_links_only_the_groups_entities(
    store: GraphStore, new_group: Callable[[], str]
) -> None:
    a, b = new_group(), new_group()
    add_episode(store, a, 0)
    mine = [add_entity(store, a, "Priya"), add_entity(store, a, "Leeds")]
    theirs = add_entity(store, b, "Priya")
    rows = add_mentions(store, a, episode(a, 0), [*mine, theirs])
    assert rows == [{"created": 2}]
    linked = store.run("MATCH (e:Episodic)-[m:MENTIONS]->(n:Entity) WHERE e.group_id = $group_id "
                       "RETURN n.uuid AS uuid, m.uuid AS muid, m.group_id AS g", {"group_id": a})
    assert sorted(r["uuid"] for r in linked) == sorted(mine)
    assert {r["muid"] for r in linked} == {f"{episode(a, 0)}:{u}" for u in mine} and {
        r["g"] for r in linked
    } == {a}


def test_fact_create_and_add_provenance(store: GraphStore, group: str) -> None:
    priya, leeds = add_entity(store, group, "Priya"), add_entity(store, group, "Leeds")
    uid = add_fact(store, group, priya, "lives_in", leeds, "Priya lives in Leeds", T0, episodes=["ep-1"])
    assert store.named(
        "fact.add_provenance", {"group_id": group, "uuid": uid, "subject_uuid": priya, "episode_uuid": "ep-2"}
    ) == [{"uuid": uid}]
    assert (
        store.named(
            "fact.add_provenance",
            {"group_id": group, "uuid": uid, "subject_uuid": priya, "episode_uuid": "ep-2"},
        )
        == []
    )
    assert (
        store.named(
            "fact.add_provenance",
            {"group_id": "elsewhere", "uuid": uid, "subject_uuid": priya, "episode_uuid": "ep-3"},
        )
        == []
    )
    (row,) = store.named("fact.history", {"group_id": group, "subject_uuids": [priya], "predicate": ""})
    assert row["episodes"] == ["ep-1", "ep-2"] and row["confidence"] == pytest.approx(0.9)
    assert row["source_chunk"] is None and row["supersedes"] is None and row["valid_at"] == T0


def test_fact_slot_history_and_states(store: GraphStore, group: str) -> None:
    priya, v1, v2, leeds = add_versions(store, group)
    slot = store.named(
        "fact.slot", {"group_id": group, "subject_uuid": priya, "predicate": "lives_in", "qualifier": ""}
    )
    assert [r["uuid"] for r in slot] == [v2, v1] and slot[0]["supersedes"] == v1
    assert slot[1]["invalid_at"] == datetime(2023, 5, 1, tzinfo=UTC)
    history = store.named("fact.history", {"group_id": group, "subject_uuids": [priya], "predicate": ""})
    assert [(r["predicate"], r["object"]) for r in history] == [
        ("lives_in", "Bristol"),
        ("lives_in", "Leeds"),
        ("works_at", "Northwind"),
    ]
    args = {"group_id": group, "subject_uuids": [priya], "predicate": "lives_in"}
    current = store.named("fact.state_current", args)
    assert [(r["object"], r["object_uuid"], r["version"]) for r in current] == [("Leeds", leeds, 2)]
    assert len(store.named("fact.state_current", {**args, "predicate": ""})) == 2

    def as_of(when: datetime) -> list[str]:
        return [r["object"] for r in store.named("fact.state_as_of", {**args, "as_of": when})]

    assert as_of(datetime(2023, 4, 1, tzinfo=UTC)) == ["Bristol"]
    assert as_of(datetime(2023, 5, 1, tzinfo=UTC)) == ["Leeds"]  # invalid_at is exclusive, valid_at inclusive
    assert as_of(T0 - timedelta(microseconds=1)) == []
    assert store.named("fact.state_current", {**args, "group_id": "elsewhere"}) == []


# --- groups --------------------------------------------------------------------------------------


def test_group_counts_and_list(store: GraphStore, new_group: Callable[[], str]) -> None:
    a, b = new_group(), new_group()
    fill_group(store, a)
    add_episode(store, b, 0)
    assert store.named("group.counts", {"group_id": a}) == [
        {"episodes": 2, "chunks": 1, "entities": 4, "facts": 3, "current_facts": 2}]
    assert store.named("group.counts", {"group_id": "no-such-group-" + a}) == [
        {"episodes": 0, "chunks": 0, "entities": 0, "facts": 0, "current_facts": 0}]
    listed = {r["group_id"]: r for r in store.named("group.list")}
    assert listed[a] == {"group_id": a, "episodes": 2, "first": T0, "last": T0 + timedelta(days=1)}
    assert listed[b]["episodes"] == 1
    assert {a, b} <= {r["group_id"] for r in store.named("store.group_names")}  # from their anchors


def test_group_delete_leaves_other_groups_intact_and_nothing_orphaned(
    store: GraphStore, new_group: Callable[[], str]
) -> None:
    a, b = new_group(), new_group()
    fill_group(store, a)
    fill_group(store, b)
    before = store.named("group.counts", {"group_id": b})
    store.named("group.delete", {"group_id": a})
    assert store.named("group.counts", {"group_id": a})[0]["episodes"] == 0
    assert store.named("group.counts", {"group_id": b}) == before
    nodes = store.run("MATCH (n) WHERE n.group_id = $group_id RETURN count(n) AS n", {"group_id": a})
    edges = store.run("MATCH ()-[r]->() WHERE r.group_id = $group_id RETURN count(r) AS n", {"group_id": a})
    assert nodes == [{"n": 0}] and edges == [{"n": 0}]
    assert a not in {r["group_id"] for r in store.named("group.list")}
    assert a not in {r["group_id"] for r in store.named("store.group_names")}


def test_group_stamp_changes_with_every_anchoring_and_goes_with_the_group(
    store: GraphStore, new_group: Callable[[], str]
) -> None:
    """group.anchor gives the group a new stamp, group.adopt another one, group.delete takes it away,
    so a cached list (tkg/group_cache.py) is never reused past a write of any process."""
    a, b = new_group(), new_group()
    assert store.named("group.stamp", {"group_id": a}) == [] and group_stamp(store, a) is None
    fill_group(store, a)
    fill_group(store, b)
    first = group_stamp(store, a)
    assert first is not None and group_stamp(store, b) not in (None, first)
    anchor(store, a, [episode(a, 0)])  # already anchored: the stamp still changes
    assert group_stamp(store, a) not in (None, first)
    store.named("group.anchor", {"group_id": a, "uuids": [], "stamp": "s-1"})
    assert store.named("group.stamp", {"group_id": a}) == [{"stamp": "s-1"}]
    other = group_stamp(store, b)
    store.named("group.delete", {"group_id": a})
    assert group_stamp(store, a) is None and group_stamp(store, b) == other
    store.run("MATCH (g:TkgGroup {group_id: $group_id}) DETACH DELETE g", {"group_id": b})
    store.named("group.adopt", {"stamp": "s-2"})  # b's nodes are adopted again: a new stamp for b
    assert group_stamp(store, b) == "s-2" and _anchored(store, b) == (1, 2, 4)


def test_adoption_by_another_open_leaves_an_ingest_in_flight_its_stamp(
    store: GraphStore, new_group: Callable[[], str]
) -> None:
    """Another process opening the store (ensure_schema, group.adopt) between an ingest's episode
    transaction and its anchoring must not leave the group without a stamp: found by two test
    workers sharing one Neo4j, where a group's exact vectors were then never read."""
    a = new_group()
    fill_group(store, a)
    before = group_stamp(store, a)
    store.run("MATCH (g:TkgGroup {group_id: $group_id})-[r:HAS_EPISODE]->() DELETE r", {"group_id": a})
    store.ensure_schema(DIM)  # the other process's open adopts the turns not yet anchored
    adopted = group_stamp(store, a)
    assert adopted not in (None, before) and _anchored(store, a) == (1, 2, 4)
    anchor(store, a, [episode(a, 0), episode(a, 1)])  # the ingest's own anchoring comes after
    assert group_stamp(store, a) not in (None, before, adopted) and _anchored(store, a) == (1, 2, 4)


def test_a_node_of_no_group_does_not_stop_an_open(store: GraphStore, new_group: Callable[[], str]) -> None:
    """A node with no group_id is no tkg node (another application's, sharing the database): opening
    the store leaves it unanchored instead of failing on a group of null (a CI run's open met one)."""
    uid = stable_uuid("no-group", new_group())
    store.run("CREATE (:Entity {uuid: $uuid, name: 'stray'})", {"uuid": uid})
    try:
        store.ensure_schema(DIM)
        rows = store.run("MATCH (n:Entity {uuid: $uuid}) OPTIONAL MATCH (n)<-[r:HAS_ENTITY]-() "
                         "RETURN count(r) AS r", {"uuid": uid})
        assert rows == [{"r": 0}]
    finally:
        store.run("MATCH (n:Entity {uuid: $uuid}) DETACH DELETE n", {"uuid": uid})


def _anchored(store: GraphStore, group: str) -> tuple[int, int, int]:
    """TkgGroup nodes, HAS_EPISODE and HAS_ENTITY edges of one group."""
    q = ("MATCH (g:TkgGroup {group_id: $group_id}) OPTIONAL MATCH (g)-[r:%s]->() RETURN count(DISTINCT g) AS "
         "g, count(r) AS r")
    eps = store.run(q % "HAS_EPISODE", {"group_id": group})[0]
    ents = store.run(q % "HAS_ENTITY", {"group_id": group})[0]
    return int(eps["g"]), int(eps["r"]), int(ents["r"])


def test_group_anchor_and_adopt(store: GraphStore, new_group: Callable[[], str]) -> None:
    """Per-group reads start from the group's TkgGroup node. Ingest links what it wrote
    (group.anchor); ensure_schema links whatever still lacks a link (group.adopt): nodes of an
    older schema, or of an ingest that died in between. Both leave linked nodes alone."""
    a = new_group()
    fill_group(store, a)  # the builders write as ingest does: anchors included
    assert _anchored(store, a) == (1, 2, 4)
    names = [r["name"] for r in store.named("entity.list", {"group_id": a})]
    store.run("MATCH (g:TkgGroup {group_id: $group_id}) DETACH DELETE g", {"group_id": a})
    assert (
        store.named("entity.list", {"group_id": a}) == []
        and store.named("graph.speakers", {"group_id": a}) == []
    )
    anchor(store, a, [episode(a, 0), episode(a, 0)])
    assert _anchored(store, a) == (1, 1, 0) and store.named("graph.speakers", {"group_id": a})
    store.ensure_schema(DIM)
    assert _anchored(store, a) == (1, 2, 4)
    assert (
        [r["name"] for r in store.named("entity.list", {"group_id": a})]
        == names
        == ["Bristol", "Leeds", "Northwind", "Priya"]
    )
    assert store.named("graph.speakers", {"group_id": a})[0]["turns"] == 2
    store.named("group.adopt", {"stamp": "s-3"})
    anchor(store, a, [episode(a, 1)])
    assert _anchored(store, a) == (1, 2, 4)


# --- coverage ------------------------------------------------------------------------------------


def test_recent_context_reads_what_the_last_turns_handed_on(store: GraphStore, group: str) -> None:
    """episode.recent_context: newest first, turns that handed on nothing left out, at most $limit."""
    rows = [
        episode_row(
            group,
            seq,
            extract_context=f'[["Priya","lives_in","City{seq}","","assert",0.9]]' if seq % 2 else "",
        )
        for seq in range(1, 8)
    ]
    add_episodes(store, group, rows)
    anchor(store, group, [r["uuid"] for r in rows])
    got = store.named("episode.recent_context", {"group_id": group, "limit": 3})
    assert [r["seq"] for r in got] == [7, 5, 3] and "City7" in got[0]["context"]
    assert store.named("episode.recent_context", {"group_id": group + "-other", "limit": 3}) == []


def test_group_texts_lists_what_the_group_embedded(store: GraphStore, group: str) -> None:
    fill_group(store, group)
    texts = {r["text"] for r in store.named("group.texts", {"group_id": group})}
    names = {r["name"] for r in store.named("entity.list", {"group_id": group})}
    facts = {
        r["fact"]
        for r in store.read(
            "MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g RETURN r.fact AS fact", {"g": group}
        )
    }
    assert (
        names <= texts and facts <= texts and len(texts) > len(names | facts)
    )  # and the chunks' search texts
    assert store.named("group.texts", {"group_id": group + "-other"}) == []


def test_every_named_op_has_a_contract_test() -> None:
    root = Path(__file__).resolve().parent.parent / "cypher" / "ops"
    ops = {p.stem for p in root.glob("*/*.cypher")}
    # an op counts as tested when some test module runs it by name (store ops here, through the
    # builders they share, or in test_store_contract_search.py; domain ops in the tests of the
    # procedure that owns them)
    here = Path(__file__).parent
    source = "\n".join(
        p.read_text(encoding="utf-8") for p in [*here.glob("test_*.py"), here / "store_builders.py"]
    )
    untested = sorted(op for op in ops if f'"{op}"' not in source)
    assert not untested, f"named ops no test runs by name: {untested}"


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query", ["MATCH (n RETURN n", "RETURN no_such_function(1)", "MATCH (n:NoSuchLabel123) RETURN n.x"]
)
def test_bad_queries_raise_store_error(store: GraphStore, query: str) -> None:
    try:
        store.run(query)
    except StoreError as exc:
        assert type(exc).__module__ == "tkg.errors" and str(exc)
    else:
        assert query.startswith("MATCH (n:NoSuchLabel")  # Neo4j answers an unknown label with no rows


def test_unknown_op_name_raises_not_found(store: GraphStore) -> None:
    with pytest.raises(NotFound):
        store.named("no.such_op")


def test_unreachable_neo4j_raises_store_unavailable_quickly() -> None:
    started = time.monotonic()
    store = Neo4jStore("bolt://127.0.0.1:1", user="neo4j", password="hunter2")
    try:
        with pytest.raises(StoreUnavailable, match="cannot reach Neo4j at bolt://127.0.0.1:1") as info:
            store.run("RETURN 1")
    finally:
        store.close()
    assert "hunter2" not in str(info.value)
    assert time.monotonic() - started < 10


@pytest.mark.slow
def test_kuzu_database_held_by_another_process_is_reported_locked(tmp_path: Path) -> None:
    path = tmp_path / "held.kuzu"
    KuzuStore(path).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, kuzu; db = kuzu.Database(sys.argv[1]); print('ready', flush=True); sys.stdin.read()",
            str(path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        with pytest.raises(StoreUnavailable, match="locked"):
            KuzuStore(path)
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
        assert holder.stdout is not None
        holder.stdout.close()


# --- what a store says about itself (tkg doctor and the benchmarks ask these, never the dialect) ----


def test_a_store_reports_its_schema_indexes_and_server(store: GraphStore) -> None:
    assert store.named("store.ping") == [{"ok": 1}]
    meta = store.schema_meta()
    assert meta["schema_version"] == SCHEMA_VERSION and meta["embedding_dim"] == str(DIM)
    # a shared server's per-group keys change while other tests (or workers) write their groups
    schema = {k: v for k, v in meta.items() if not k.startswith("group:")}
    rows = store.named("store.meta")
    assert {r["key"]: r["value"] for r in rows if not r["key"].startswith("group:")} == schema
    assert store.named("store.meta_get", {"key": "embedding_dim"}) == [{"value": str(DIM)}]
    assert store.named("store.meta_get", {"key": "no-such-key"}) == []
    expected = store.expected_indexes()
    assert {"chunk_text", "chunk_embedding"} <= set(expected)
    assert set(expected) - set(store.deferred_indexes()) <= {r["name"] for r in store.indexes()}
    assert set(store.deferred_indexes()) <= set(expected)
    assert {r["name"] for r in store.indexes()} == {
        r.get("name", r.get("index_name")) for r in store.named("store.indexes")
    }
    # a server is shared and names its version; an embedded store is neither
    assert store.shared == (store.server_uri is not None) == (store.server_version() is not None)
    if store.server_uri is not None:
        version = store.server_version()
        assert version is not None and any(ch.isdigit() for ch in version)
        assert store.server_uri in store.url and "@" not in store.server_uri
        assert store.named("store.components")[0]["name"] in version
    else:
        tables = {r["name"] for r in store.named("store.tables")}
        assert {"Episodic", "Chunk", "Entity", "TkgMeta"} <= tables
        assert int(store.named("store.checkpoint_threshold")[0]["checkpoint_threshold"]) > 0


def test_the_stores_records_read_while_groups_come_and_go_all_have_keys(
    store: GraphStore, new_group: Callable[[], str]
) -> None:
    """Another session deleting a group's record while the store's records are read: Neo4j had read
    such a record's key as null (a CI run's schema check failed on it), now it is left out."""
    keys = {"keys": [f"group:{new_group()}" for _ in range(50)]}
    done = threading.Event()

    def churn() -> None:
        while not done.is_set():
            store.run("UNWIND $keys AS k MERGE (m:TkgMeta {key: k}) SET m.value = 's'", keys)
            store.run("MATCH (m:TkgMeta) WHERE m.key IN $keys DELETE m", keys)

    worker = threading.Thread(target=churn)
    worker.start()
    try:
        reads = [store.schema_meta() for _ in range(200)]
    finally:
        done.set()
        worker.join(timeout=60)
    assert all(None not in meta and meta["schema_version"] == SCHEMA_VERSION for meta in reads)


def test_meta_set_is_idempotent(store: GraphStore) -> None:
    store.named("store.meta_set", {"key": "embedding_dim", "value": str(DIM)})
    store.named("store.meta_set", {"key": "embedding_dim", "value": str(DIM)})
    assert store.named("store.meta_get", {"key": "embedding_dim"}) == [{"value": str(DIM)}]


def test_an_unapplied_kuzu_store_has_no_meta(tmp_path: Path) -> None:
    with KuzuStore(tmp_path / "bare.kuzu") as bare:
        assert bare.schema_meta() == {}
        assert bare.indexes() == []
        assert "chunk_text" in bare.expected_indexes()


def test_store_sizes_and_the_benchmarks_reads(store: GraphStore, group: str) -> None:
    fill_group(store, group)  # the counts are store-wide, and other workers share the store: at least ours
    g = {"g": group}
    own = store.run("MATCH (n) WHERE n.group_id = $g RETURN count(n) AS n", g)[0]["n"]
    own_edges = store.run("MATCH (a)-[r]->() WHERE a.group_id = $g RETURN count(r) AS n", g)[0]["n"]
    assert own > 0 and own_edges > 0
    assert store.named("store.node_count")[0]["n"] >= own
    assert store.named("store.edge_count")[0]["n"] >= own_edges
    turns = [episode(group, 0), episode(group, 1)]
    refs = store.named("episode.source_refs", {"group_id": group, "uuids": [*turns, "no-such-uuid"]})
    assert sorted((r["uuid"], r["source_ref"]) for r in refs) == sorted(
        [(turns[0], "D1:0"), (turns[1], "D1:1")]
    )
    assert store.named("episode.source_refs", {"group_id": group + "-other", "uuids": turns}) == []
    vectors = store.named("chunk.vectors", {"group_id": group})
    assert [r["source_ref"] for r in vectors] == ["D1:0"] and np.allclose(
        vectors[0]["embedding"], vec(1), atol=1e-6
    )
