"""A race result is a duration: "her 10k PB", "his finishing time", "how fast did she run it" ask for
"48:59", not a clock time ("at 9:00"), a pace ("4:44 per km") or a target ("sub-22:30"), and "what
time did she run" is no when-question. A result told a week after the race is the race's ("New 10k
PB: 49:12! I ran it on the 15th"); a time in words ("47 minutes", "1 hour 41") is one too, but not one
of another run than the race a question names; "her time at the Harbour 10k" asks for one. The
conversations (tests/data/reader/ruth_pavel.json, kasia_tom.json) are our own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import RACE_TIME, asked_for
from procedures.span_numbers import race_times
from tkg.memory import Memory
from tkg.nlp import parse
from tkg.timeparse import find_times

DATA = Path(__file__).parent / "data" / "reader"


@pytest.mark.parametrize("question", [
    "What is Pavel's current 5k PB?", "What was her finishing time at the sportive?",
    "How fast did he run the half?", "What is Tom's best 10k time?",
    "What time did Jonas's girlfriend run at her first parkrun?", "What's her personal best?",
])
def test_a_race_result_question_asks_for_a_race_time(question: str) -> None:
    asked = asked_for(question)
    assert (asked.kind, asked.head) == ("number", RACE_TIME)


@pytest.mark.parametrize("question", [
    "What time does the gym open?", "Who has the best time management?", "When is the best time to visit?",
])
def test_other_time_questions_are_not_race_results(question: str) -> None:
    assert asked_for(question).head != RACE_TIME


def test_race_times_leave_clock_times_paces_and_targets_out() -> None:
    sent = parse("Started at 9:00, ran 23:41 at about 4:44 per km, 4:50 pace later; sub-22:30 next, "
                 "and 1:41:50 in the half.")
    assert [s.text for s in race_times(sent[:])] == ["23:41", "1:41:50"]


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ruth-pavel", DATA / "ruth_pavel.json")


@pytest.mark.parametrize(("question", "wanted", "turn"), [
    ("What is Pavel's current 5k PB?", "22:19", "D3:1"),
    ("What was Pavel's 5k PB as of March 2024?", "23:41", "D1:1"),
    ("What was Ruth's finishing time at the Coastal Sportive?", "6:12:05", "D2:1"),
    ("How fast did Pavel run the riverside parkrun?", "22:19", "D3:1"),
])
def test_the_race_time_is_the_answer(made: tuple[Memory, str], question: str, wanted: str, turn: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    assert a.answer == wanted, (a.answer, a.trace.get("reading"))
    assert a.evidence and a.evidence[0].source_ref == turn


def test_a_race_never_run_has_no_time(made: tuple[Memory, str]) -> None:
    m, group = made
    a = m.ask("What time did Ruth swim at the Lakeside Triathlon?", group=group)
    assert a.abstained, (a.answer, a.trace.get("reading"))


@pytest.mark.parametrize(("text", "wanted"), [
    ("Today I ran the harbour 10K, 47 minutes flat.", ["47 minutes"]),
    ("52 minutes 40 seconds, a new PB!", ["52 minutes 40 seconds"]),
    ("Finished the half in 1 hour 41, legs gone.", ["1 hour 41"]),
    ("The course is only 10 minutes away, 5 min per km pace the whole way.", []),
    ("Aiming for sub 50 minutes next time.", []),
])
def test_a_race_time_in_words(text: str, wanted: list[str]) -> None:
    assert [s.text for s in race_times(parse(text)[:])] == wanted


def test_a_race_told_in_an_irregular_past_lies_behind() -> None:
    said = datetime(2024, 9, 23, 18, 45, tzinfo=UTC)
    refs = find_times("49:12!!! Ran the 10k on the 15th, still buzzing.", said)
    assert [r.start.date().isoformat() for r in refs] == ["2024-09-15"]  # not the 15th of October


@pytest.fixture(scope="module")
def told_later(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "kasia-tom", DATA / "kasia_tom.json")


@pytest.mark.parametrize(("question", "wanted", "turn"), [
    # told a week after the race: dated by the race's day in the turn, not the day it was said
    ("What was Kasia's finishing time in the 10k on 15 September 2024?", "49:12", "D2:1"),
    ("What is Kasia's 10k PB now?", "48:30", "D3:1"),
])
def test_a_result_told_after_the_race_is_the_races(told_later: tuple[Memory, str], question: str, wanted: str,
                                                   turn: str) -> None:
    m, group = told_later
    a = m.ask(question, group=group)
    assert a.answer == wanted, (a.answer, a.trace.get("reading"))
    assert turn in [e.source_ref for e in a.evidence[:3]]


def test_a_named_race_is_not_answered_by_another_runs_time(told_later: tuple[Memory, str]) -> None:
    m, group = told_later
    a = m.ask("What was Kasia's finishing time at the Castle Hill Half?", group=group)
    assert a.abstained, (a.answer, a.trace.get("reading"))  # "14k in 78 minutes" was a training run
