"""The one parsed question: the router parses once, against the group's entities, and hands it down."""

from __future__ import annotations

from planners import parse, route
from planners.hop_planner import Hop
from tkg.entities import EntityIndex

ROWS = [
    {"uuid": "u-ines", "name": "Ines Duarte", "type": "person", "aliases": ["Ines"]},
    {"uuid": "u-tomas", "name": "Tomas", "type": "person"},
    {"uuid": "u-porto", "name": "Porto", "type": "place"},
    {"uuid": "u-still", "name": "Still", "type": "thing"},
]


def test_the_router_returns_the_question_parsed_against_the_group() -> None:
    r = route("Where did Ines's manager live in March 2023?", index=EntityIndex("g", ROWS))
    q = r.question
    assert q.text == "Where did Ines's manager live in March 2023?"
    assert r.to_dict()["question"] == q.text
    assert q.mentions == ("Ines Duarte",)  # the alias "Ines" resolved to the entity
    assert q.plan is not None and q.plan.seed == "Ines Duarte"
    assert [h.predicate for h in q.plan.hops] == ["reports_to", "lives_in"]
    assert q.anchor is not None and q.anchor.text == "March 2023"
    assert q.asked.kind == "place"
    assert {"ines", "manager", "live"} <= q.terms and "where" not in q.terms
    assert "ines" in q.query.words and q.named == ("Ines",)
    assert any(g.name == "relation_chain" and g.fired for g in q.gates)


def test_the_slot_comes_from_the_text_and_the_index() -> None:
    q = parse("Is Tomas still in Porto?", index=EntityIndex("g", ROWS))
    assert q.mentions == ("Tomas", "Porto")  # "still" is no entity here, though one is named "Still"
    assert q.slot.subject is not None and q.slot.subject.uuid == "u-tomas"
    assert q.slot.obj is not None and q.slot.obj.uuid == "u-porto"
    assert q.slot.hop() == Hop(q.slot.predicate or "", False, q.slot.qualifier)


def test_without_an_index_only_the_text_is_parsed() -> None:
    q = parse("How many pets does Ana have now?")
    assert q.asked.count and q.asked.recency
    assert q.mentions == () and q.plan is None and q.slot.subject is None
    assert q.tokens[:3] == ("how", "many", "pets")
