"""Three general reading rules, on a conversation of our own (tests/data/reader/nadia_ruben.json):
"now" is the newest turn, so a value dated after it is a plan still to come, not where someone
lives; a turn may tell a place and its event in two sentences ("Yes, the robotics one. Oslo was
freezing"), and the place is then stated with its event; "since Oslo" dates another clause's
denial, it does not call Oslo off. `repeats_question` has its own examples (procedures/sentence_value.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.question import parse as parse_question
from procedures.about import Subject
from procedures.premise import check
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, Evidence

DATA = Path(__file__).parent / "data" / "reader"
NADIA = Subject("Nadia", frozenset({"nadia"}), speaker=True)
SPEAKERS = ("Nadia", "Ruben")


def _turn(text: str, day: int, speaker: str = "Nadia") -> Evidence:
    when = datetime(2024, 3, day, tzinfo=UTC)
    return Evidence(f"D{day}:1", f"e{day}", text, when, 1.0, "g", speaker=speaker)


def test_a_place_and_its_event_told_in_two_sentences_of_one_turn_are_stated() -> None:
    q = parse_question("When did Nadia attend the robotics summit in Oslo?")
    asked = _turn("How was Oslo? You were at that robotics summit last week, right?", 4, "Ruben")
    told = _turn("Yes, the warehouse robotics one. Oslo was freezing and the coffee cost a fortune.", 5)
    assert check(q, NADIA, [asked, told], SPEAKERS).holds
    # the place alone, with no word of the event anywhere in its turn, is still no statement of it
    elsewhere = _turn("Oslo was freezing and the coffee cost a fortune.", 5)
    assert not check(q, NADIA, [asked, elsewhere], SPEAKERS).holds


def test_a_denial_dated_since_a_place_does_not_call_the_place_off() -> None:
    q = parse_question("When did Nadia attend the robotics summit in Oslo?")
    told = _turn("Yes, the warehouse robotics one. Oslo was freezing and the coffee cost a fortune.", 5)
    since = _turn("You've not had a weekend off since Oslo, have you?", 20, "Ruben")
    assert check(q, NADIA, [told, since], SPEAKERS).holds
    off = _turn("Oslo is off, they cancelled the summit.", 20)
    assert not check(q, NADIA, [told, off], SPEAKERS).holds


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "nadia-ruben", DATA / "nadia_ruben.json")


def test_a_move_dated_after_the_newest_turn_is_not_where_someone_lives_now(made: tuple[Memory, str]) -> None:
    mem, group = made
    got = mem.ask("Where does Nadia live now?", group=group)
    assert "utrecht" in got.answer.lower() and "ghent" not in got.answer.lower(), got.answer


def test_the_summit_told_in_two_sentences_is_answered_with_a_date(made: tuple[Memory, str]) -> None:
    mem, group = made
    got = mem.ask("When did Nadia attend the robotics summit in Oslo?", group=group)
    said = got.answer.lower()
    assert got.answer != NO_INFORMATION and ("march" in said or "february" in said), got.answer
