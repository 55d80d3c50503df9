"""Chain questions through a bridge person (procedures/bridge.py) on our own conversation,
tests/data/reader/jules_bex.json: a supervisor named in apposition who later moves office, a
fiancé named next to "engaged", a relative of the other speaker, no brother at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.about import Subject, about
from procedures.bridge import _near_relation, says_relation
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, Evidence
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "jules_bex.json"


def test_the_relation_must_be_said_next_to_the_bridge_person_and_be_the_subjects() -> None:
    mira = Subject("Mira", frozenset({"mira"}), speaker=True)
    turn = Evidence("D1:1", "t", "We finally got married in May. Tobiah cried all through it. "
                    "My boss Wanda sent flowers in June.", None, 1.0, "g", speaker="Mira")
    cues = {"marri", "husband", "wife", "boss"}
    assert _near_relation(turn, "Tobiah", cues, mira)  # the sentence after the wedding names him
    assert not _near_relation(turn, "Wanda", {"marri", "husband"}, mira)  # two sentences off
    theirs = Evidence("D1:2", "u", "My boss Wanda sent flowers.", None, 1.0, "g", speaker="Kit")
    assert _near_relation(turn, "Wanda", cues, mira) and not _near_relation(theirs, "Wanda", cues, mira)


def test_a_tagged_person_stays_a_person_unless_a_preposition_makes_it_a_place() -> None:
    sent = next(parse("honestly my brother farah is the worst cook").sents)  # "farah" is a town too
    assert "farah" in [s.text for s in spans_of(sent, "person", "brother")]
    sent = next(parse("we drove to farah and back in one day").sents)
    assert "farah" not in [s.text for s in spans_of(sent, "person", "")]


@pytest.fixture(scope="module")
def mg(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "jules-bex", DATA)


@pytest.mark.parametrize(("question", "wanted", "bridge"), [
    ("Which office did the person who supervised Jules in 2022 move to?", "ghent", "annelies"),
    ("Where did Jules's first supervisor move to?", "ghent", "annelies"),
    ("What is the job of the man Jules is engaged to?", "veterinary nurse", "sander"),
    ("Where did Jules's fiancé grow up?", "mechelen", "sander"),
    ("Which city did the singer of Jules's choir move to?", "lille", "hannah"),
])
def test_a_chain_reads_the_value_of_the_bridge_person(mg: tuple[Memory, str], question: str, wanted: str,
                                                      bridge: str) -> None:
    m, group = mg
    a = m.ask(question, group=group)
    reading = a.trace.get("reading") or {}
    assert wanted in a.answer.lower() and not a.abstained, (a.answer, reading)
    walked = [n.lower() for st in (a.trace["steps"].get("walk") or {}).get("steps", []) for n in st["kept"]]
    if a.trace["steps"].get("from_graph"):  # the edges reached the person and their value: no bridge needed
        assert bridge in walked, a.trace["steps"]
    else:
        assert (reading.get("bridge") or "").lower() == bridge, reading


def test_no_bridge_person_is_no_information_not_the_subjects_own_value(mg: tuple[Memory, str]) -> None:
    m, group = mg
    a = m.ask("Which city does Jules's brother live in?", group=group)  # Jules lives in Leuven; no brother
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))
    assert "bridge" not in a.trace["reading"]  # the other speaker's sister is nobody's brother here


def test_a_name_that_only_addresses_someone_does_not_make_the_turn_about_them() -> None:
    theo = Subject("Theo", frozenset({"theo"}), speaker=True)
    said = "Theo! Another night of inventory at Brambles."
    assert theo.only_addressed(said) and theo.only_addressed("Thanks, Theo.")
    assert not theo.only_addressed("Theo got the flat in Porto!")
    assert about(theo, speaker="Ines", sentence="Another night of inventory at Brambles.",
                 turn=said, others=("Ines", "Theo")) == 0.0


def test_the_relations_own_verb_is_not_the_event_the_bridges_turn_must_say() -> None:
    cues = {"engag", "fianc", "propos"}
    assert says_relation("engage", cues) and says_relation("propose", cues)  # "the man she is engaged to"
    assert not says_relation("move", cues)  # "where did her fiancé move": a turn must say the move
