"""Long-form questions: the phrasings that ask for a story route to long_form, and a story is the subject's
turns about its topic, dated, in time order. Our own sentences, and our own conversation end to end
(tests/data/reader/nell_arjun.json) on each store."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from planners.gates import summary_gate
from planners.router import route
from procedures.topic import change_in, relatives, says_something, topic_words
from tkg.memory import Memory
from tkg.predicates import PredicateRegistry

DATA = Path(__file__).parent / "data" / "reader" / "nell_arjun.json"


@pytest.mark.parametrize("question", [
    "What happened with Tomas's job offer from Larchwood?",
    "What's happened to the band Ilka started?",
    "How did Ravi's career change after the merger?",
    "How has Petra's running developed this year?",
    "How did the house sale go?",
    "How is Oona's new job going so far?",
    "How did the move to Ghent work out in the end?",
    "Tell me about Odile's trip to Lapland.",
    "Walk me through Bram's search for a flat.",
    "What's the story with Mina's van?",
])
def test_story_phrasings_route_to_long_form(question: str) -> None:
    assert summary_gate(question).fired
    r = route(question)
    assert r.mode == "long_form" and r.procedure == "long_form", r.gates
    assert asked_for(question).kind == "summary"


@pytest.mark.parametrize("question", [
    "How did Ravi get to work?",  # a manner, not a story
    "How did she pay for the van?",
    "What happened on 3 May?",  # a time, not a story of something
    "How often does Petra work out?",
    "How does Oona go to the gym?",
    "What was Ilka's reaction to sealing the deal with the label?",
])
def test_near_misses_are_not_stories(question: str) -> None:
    assert not summary_gate(question).fired
    assert route(question).mode != "long_form"


def test_topic_words_leave_the_frame_the_subject_and_the_date_out() -> None:
    assert topic_words("How did Ravi's career change over the year?", {"ravi"}) == ("career",)
    assert topic_words("What happened with Tomas's job offer from Larchwood in 2023?", {"tomas"}) == (
        "job", "offer", "larchwood")
    assert topic_words("How did the move to Ghent work out?", set()) == ("move", "ghent")
    assert topic_words("Summarise what happened with Ravi over the conversations.", {"ravi"}) == ()


def test_relatives_come_from_the_registry_for_the_whole_part_of_a_life() -> None:
    registry = PredicateRegistry.load()
    family, words = relatives(("career",), registry)
    assert {"works_at", "job_title", "reports_to"} <= family
    assert {"job", "manager", "quit", "laid"} <= words
    assert "student" not in words  # a value of the relation (its vocabulary), not a word about it
    plans, trip_words = relatives(("trip",), registry)
    assert "plans" in plans and "visited" in plans and "flight" in trip_words
    assert relatives(("violin",), registry)[0] == {"plays"}  # the vocabulary names the relation
    assert relatives(("weather",), registry) == (frozenset(), frozenset())


@pytest.mark.parametrize(("text", "change"), [
    ("they laid half the team off on friday", "laid half the team off"),
    ("the festival fell through in the end", "fell through"),
    ("our main sponsor pulled out", "pulled out"),
    ("we called the wedding off", "called the wedding off"),
    ("I handed in my notice and quit", "quit"),
    ("the hotel withdrew the booking", "withdrew"),
    ("the picnic is off, rain all day", "is off"),
    ("nice weather today", None),
])
def test_a_change_is_found_by_its_verb_or_phrase(text: str, change: str | None) -> None:
    assert change_in(text) == change


def test_a_turn_says_something_unless_it_is_a_reaction_or_only_questions() -> None:
    assert says_something("moved into the flat on Elm Street yesterday")
    assert says_something("we got engaged!")  # two content words and a change
    assert not says_something("lol ok")
    assert not says_something("good or bad")
    assert not says_something("wait, did you get the flat? when do you move?")


@pytest.fixture(scope="module")
def mg(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "nell-arjun", DATA)


def _bullets(answer: str) -> list[tuple[datetime, str]]:
    out = []
    for line in answer.splitlines():
        assert line.startswith("- ") and " — " in line, line
        day, said = line[2:].split(" — ", 1)
        out.append((datetime.strptime(day, "%d %B %Y"), said))
    return out


def test_a_story_of_work_is_the_turns_about_work_in_time_order(mg: tuple[Memory, str]) -> None:
    m, group = mg
    a = m.ask("How did Nell's work life change over the year?", group=group)
    assert (a.mode, a.procedure, a.abstained) == ("long_form", "long_form", False)
    bullets = _bullets(a.answer)
    assert [d for d, _ in bullets] == sorted(d for d, _ in bullets)
    assert all(said.startswith("Nell: ") for _, said in bullets)  # dated and attributed
    text = a.answer.lower()
    # the start, the promotion, the lay-off (no work word: its employer's name echoes), the new job
    for wanted in ("copperleaf warehouse", "shift lead", "let forty of us go", "tidewell", "manager ros"):
        assert wanted in text, a.answer
    for unwanted in ("pilchard", "hebrides", "what sleep", "ok lol", "scone"):
        assert unwanted not in text, a.answer
    quoted = {e.source_ref for e in a.evidence[: len(bullets)]}
    assert quoted == {"D1:1", "D2:1", "D3:3", "D4:1", "D5:1"}  # the bullets' turns lead the evidence


def test_a_story_of_a_trip_is_its_plan_its_cancellation_and_its_rebooking(mg: tuple[Memory, str]) -> None:
    m, group = mg
    a = m.ask("What happened with Nell's sailing trip?", group=group)
    assert a.procedure == "long_form" and not a.abstained
    refs = [e.source_ref for e in a.evidence[: len(_bullets(a.answer))]]
    assert set(refs) == {"D2:4", "D3:1", "D4:2"}, a.answer
    assert "is off" in a.answer and "rebooked" in a.answer and "Copperleaf" not in a.answer


def test_a_topic_no_turn_speaks_of_gets_no_story(mg: tuple[Memory, str]) -> None:
    m, group = mg
    a = m.ask("What happened with Nell's violin lessons?", group=group)
    # no turn says a word of it: no story is made up of nearby turns; the question is answered as one
    # without a topic (the overview), and the trace says why
    assert a.procedure == "long_form"
    assert a.trace["steps"]["story"]["reason"] == "no turn says the topic's words"
    assert "strata" in a.trace["steps"]


def test_a_story_at_a_time_is_told_by_the_turns_of_that_time(mg: tuple[Memory, str]) -> None:
    m, group = mg
    a = m.ask("What happened with Nell's sailing trip in October 2023?", group=group)
    assert a.procedure == "long_form" and [d.month for d, _ in _bullets(a.answer)] == [10], a.answer
    # no topic but a time: what was said then (the time-anchored procedure), not a whole history
    then = m.ask("What happened with Nell in June 2023?", group=group)
    assert then.trace["steps"]["procedure"] == "temporal" and then.evidence[0].source_ref.startswith("D2:")
