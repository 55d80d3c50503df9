"""Lists and counts over a subject's history (`procedures.gather` and the reader's list answers),
on sentences and a conversation of our own (tests/data/reader/pim_oskar.json)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from procedures.about import Subject, clause_about
from procedures.gather import count_held, denied, ending, merge_variants, same_value
from procedures.reader import Candidate
from procedures.span_objects import not_a_thing
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "pim_oskar.json"


def _turn(ref: str, day: int, text: str, speaker: str = "Pim") -> Evidence:
    return Evidence(ref, ref, text, datetime(2022, 1, day, tzinfo=UTC), 1.0, "g", speaker=speaker)


def test_spellings_of_one_value_are_one_value() -> None:
    assert same_value("Atleti", "Atlético Madrid") and same_value("West End", "Westend")
    assert same_value("Bergkvist Rail", "bergkvist rail") and same_value("Park", "Oak Park")
    assert not same_value("Paul", "Paula") and not same_value("Porto", "Portugal")
    assert not same_value("Oak", "Oak Park")  # too short to stand for the longer name
    ev = _turn("D1:1", 1, "x")
    groups = {k: [Candidate(k, 1.0, None, ev, "turn")] for k in ("atletico madrid", "atleti", "valencia cf")}
    merge_variants(groups)
    assert sorted(groups) == ["atletico madrid", "valencia cf"] and len(groups["atletico madrid"]) == 2


def test_a_later_turn_that_ends_a_value_takes_it_off_the_current_list() -> None:
    turns = [_turn("D1:1", 1, "We still have Rufus and Tansy."),
             _turn("D2:1", 5, "Rufus died last night, he was very old."),
             _turn("D3:1", 9, "I sold the Skoda to my cousin and kept the van.")]
    assert ending("Rufus", turns, datetime(2022, 1, 2, tzinfo=UTC)).source_ref == "D2:1"  # type: ignore[union-attr]
    assert ending("Tansy", turns, None) is None  # named, never ended
    assert ending("Skoda", turns, None) is not None and ending("van", turns, None) is None
    assert ending("Rufus", turns, datetime(2022, 1, 6, tzinfo=UTC)) is None  # ended before it was said
    lost = [_turn("D4:1", 9, "Sadly we lost our gecko Pesto.")]
    assert ending("Pesto", lost, lost[0].valid_at) is not None  # read from the turn that ends it
    # the parser may hang the name on the verb, not on "our dog": still what the clause ends
    assert ending("Mango", [_turn("D5:1", 9, "Sadly we lost our dog Mango.")], None) is not None


def test_an_application_a_later_turn_denies_never_held() -> None:
    turns = [_turn("D1:1", 1, "I applied for a job at Tessel Labs, fingers crossed."),
             _turn("D2:1", 4, "Update: I didn't get the job at Tessel Labs. Still at Corvo Print.")]
    assert denied("Tessel Labs", turns, datetime(2022, 1, 1, tzinfo=UTC)) is not None
    assert denied("Corvo Print", turns, None) is None


def test_my_colleague_at_a_place_puts_me_there_but_my_sister_does_not() -> None:
    pim = Subject("Pim", frozenset({"pim"}), speaker=True)

    def owner(text: str, word: str) -> float:
        doc = parse(text)
        return clause_about(pim, next(t for t in doc if t.text == word), speaker="Pim",
                            speakers=("Pim", "Oskar"), fallback=0.5)

    assert owner("Noor, my manager at Corvo Print, says hello.", "Corvo") == 0.9
    assert owner("My sister at Tessel Labs says hello.", "Tessel") == 0.0


def test_a_pet_named_beside_an_animal_emoji() -> None:
    sent = next(parse("everyone meet toffee 🐶 he chewed my shoe already").sents)
    assert [s.text for s in spans_of(sent, "pet_name", "pet")] == ["toffee"]


def test_counts_run_totals_additions_and_losses_in_order() -> None:
    def mine(ev: Evidence) -> bool:
        return ev.speaker == "Pim"

    turns = [_turn("D1:1", 1, "I have rabbits now! Two of them, called Bo and Mira."),
             _turn("D1:2", 2, "I have four rabbits, says Oskar.", speaker="Oskar"),  # not the subject's
             _turn("D2:1", 4, "Bo died in the heat wave."),
             _turn("D3:1", 8, "Then I got three more rabbits from a neighbour.")]
    tally = count_held("rabbit", turns, mine)
    assert tally is not None and tally.total == 4, tally  # 2, minus Bo, plus three more
    assert [s["turn"] for s in tally.steps] == ["D1:1", "D2:1", "D3:1"]
    rest = [_turn("D1:1", 1, "We keep five hens."),
            _turn("D2:1", 3, "A hawk took one of the hens. The other four are fine.")]
    assert count_held("hen", rest, mine).total == 4  # type: ignore[union-attr]
    ages = [_turn("D1:1", 1, "My hen Dot is three years old.")]
    assert count_held("hen", ages, mine) is None  # an age counts no hens


def test_a_place_or_a_bare_head_noun_answers_no_thing_question() -> None:
    doc = parse("I bought a lovely old violin from a shop in Graz, a Stentor violin.")
    graz = next(t for t in doc if t.text == "Graz")
    assert not_a_thing(doc[graz.i : graz.i + 1], "violin")
    lovely = next(t for t in doc if t.text == "lovely")
    assert not_a_thing(doc[lovely.i : lovely.i + 3], "violin")  # "lovely old violin" names none
    stentor = next(t for t in doc if t.text == "Stentor")
    assert not not_a_thing(doc[stentor.i : stentor.i + 2], "violin")


def test_a_household_question_asks_for_a_list_of_people() -> None:
    asked = asked_for("Who lives in Oskar's household now?")
    assert (asked.kind, asked.many, asked.recency) == ("person", True, True)


@pytest.fixture(scope="module")
def po(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "pim-oskar", DATA)


def test_how_many_counts_the_stated_changes(po: tuple[Memory, str]) -> None:
    m, group = po
    a = m.ask("How many goats does Pim have now?", group=group)
    assert a.answer == "6" and not a.abstained, a.trace.get("reading")  # three, the other two, four more
    assert {e.source_ref for e in a.evidence} >= {"D1:1", "D2:3", "D3:3"}


def test_a_list_gathers_every_version_from_the_turns(po: tuple[Memory, str]) -> None:
    m, group = po
    a = m.ask("Which companies has Pim worked for over the course of the conversations?", group=group)
    low = a.answer.lower()
    assert "lindqvist" in low and "bergkvist" in low and not a.abstained, a.trace.get("reading")
    assert len(a.answer) < 60  # values, not a sentence
