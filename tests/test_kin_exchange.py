"""Relatives named across an exchange and the values said of them, on our own conversation
(tests/data/reader/kin_exchange.json): a wife named in the turn the other speaker answers with "your
wife" (`bridge_replies.named_before`), an aunt named with her title ("Auntie Margit"), an institution
named by a capitalised word before its noun, a role with a modifier that is a role word itself, and a
mother reached over an inverse edge whom her child's turns call "Mom" (`bridge.find_bridge`), and a
brother named in the sentence before a verbless "My brother, …" (`bridge_replies.fragment_named`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from planners.hop_planner import plan_hops
from procedures.bridge import RELATIONAL, value_predicate
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader"


@pytest.mark.parametrize(("text", "kind", "head", "name"), [
    ("I know her from climbing, she is nurse in the Brindle hospital.", "organisation", "hospital",
     "Brindle hospital"),  # the tagger calls "Brindle" a person
    ("My sister teaches at Ridgeway school.", "organisation", "", "Ridgeway school"),
    ("she's just been promoted, she's assistant curator now.", "role", "job", "assistant curator"),
    ("I am a head nurse.", "role", "job", "head nurse"),
])
def test_institutions_and_modified_roles_are_whole_spans(text: str, kind: str, head: str, name: str) -> None:
    found = [sp.text for sent in parse(text).sents for sp in spans_of(sent, kind, head)]
    assert name in found, found


def test_a_city_before_an_institution_noun_is_not_its_name() -> None:
    found = [sp for sent in parse("She works at a Dublin hospital.").sents
             for sp in spans_of(sent, "organisation", "") if sp.sure == 0.8]
    assert found == []  # "a Dublin hospital" says where; the workplace span (less sure) still reads it


@pytest.mark.parametrize("question", ["Where does Ana's aunt live?", "What does Ben's grandma do?",
                                      "Where does Cy's nephew work?"])
def test_more_relatives_make_a_chain(question: str) -> None:
    assert RELATIONAL.search(question) is not None


def test_the_value_asked_of_the_bridge_is_the_plans_last_hop() -> None:
    class Asked:  # the one field value_predicate reads of a parsed question
        plan = plan_hops("Where does Marta's husband work?", ["Marta"])

    assert value_predicate(Asked(), "married_to") == "works_at"  # its cues: "job", not "wedding"
    Asked.plan = None
    assert value_predicate(Asked(), "married_to") == "married_to"


@pytest.fixture(scope="module")
def exchange(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "kin-exchange", DATA / "kin_exchange.json")


@pytest.mark.parametrize(("question", "wanted", "bridge", "bridge_from"), [
    ("Where does Tobias's wife work?", "fernhill clinic", "Ilse", {"answered": "D1:2"}),
    ("Where does Tobias's aunt live?", "salzburg", "Margit", None),  # not "Auntie Margit"
    ("What is Helga's daughter's job?", "assistant curator", "Wilma", None),
    # "my mother, Gertrud" walks ^parent_of; then "Mom moved in … her parrot Kiwi" is Gertrud's
    ("What is the name of Tobias's mom's parrot?", "kiwi", "Gertrud", "walk"),
    # "Ruben has joined a choir! My brother, singing in public, who knew.": the fragment says who Ruben is
    ("Where does Tobias's brother live?", "graz", "Ruben", {"fragment": "D1:14"}),
    # "Petra says hello" → "say hello to your sister": Petra, not Ruben, whose fragment says "brother"
    ("Where does Tobias's sister work?", "holloway foods", "Petra", {"answered": "D1:16"}),
])
def test_a_chain_through_a_relative_named_in_passing(exchange: tuple[Memory, str], question: str, wanted: str,
                                                     bridge: str, bridge_from: object) -> None:
    a = exchange[0].ask(question, group=exchange[1])
    reading = a.trace.get("reading") or {}
    assert wanted in a.answer.lower() and not a.abstained, (a.answer, reading)
    assert reading.get("bridge") == bridge, reading
    if bridge_from is not None:
        assert reading.get("bridge_from") == bridge_from, reading
