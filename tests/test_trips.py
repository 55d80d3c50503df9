"""A trip told when its teller is back ("Back from a week in Sardinia"), said after the month it
was in and in no word of the question's: where she went is the place she is back from, not the home
she is back in. Our own messages (tests/data/reader/brita_casimir.json) on each store."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.cue_words import trip_question
from tkg.memory import Memory

DATA = Path(__file__).parent / "data" / "reader" / "brita_casimir.json"


@pytest.fixture(scope="module")
def bc(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "brita-casimir", DATA)


def test_trip_questions_are_told_from_questions_about_a_home() -> None:
    assert trip_question("Where did Brita spend her week off?")
    assert trip_question("Where did they fly to in June?")
    assert not trip_question("Where was Brita living in June?")


def test_the_place_a_trip_is_back_from_answers_where_she_went(bc: tuple[Memory, str]) -> None:
    m, group = bc
    went = m.ask("Where did Brita go on holiday in June 2024?", group=group)
    assert went.answer == "Sardinia", went.trace.get("reading")
    assert went.evidence[0].source_ref == "D2:1"
    assert m.ask("Where does Brita live?", group=group).answer == "Aarhus"
