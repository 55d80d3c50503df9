"""A turn that goes on about a third person named just before ("priya. we had lunch…" – "a real date??" –
"she's a vet…") is read for that person, though a search for the name cannot find it: the reader adds
the one or two turns after a turn naming them that open on "she", "he" or "they"
(`procedures.event_turns.continuing_turns`), and the turn a value was read from leads the evidence when
the procedure ranked it low. The conversation (tests/data/reader/ravi_june.json) is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.about import Subject
from procedures.event_turns import _OPENS_THIRD, continuing_turns
from tkg.memory import Memory

DATA = Path(__file__).parent / "data" / "reader"


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ravi-june", DATA / "ravi_june.json")


@pytest.mark.parametrize(("question", "wanted", "ref"), [
    ("What is Priya's job?", "vet", "D1:3"),  # after a reply between
    ("What does Tomas do for work?", "pharmacist", "D2:3"),
])
def test_the_turn_after_the_name_is_read_for_them(made: tuple[Memory, str], question: str, wanted: str,
                                                  ref: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    assert a.answer == wanted and not a.abstained, (a.answer, a.trace.get("reading"))
    assert ref in [e.source_ref for e in a.evidence[:3]]


@pytest.mark.parametrize(("name", "named_in", "wanted"), [
    ("Priya", "D1:1", ["D1:3"]),  # the reply between does not open on a pronoun
    ("Tomas", "D2:1", ["D2:3"]),
])
def test_continuing_turns_follow_the_naming_turn(made: tuple[Memory, str], name: str, named_in: str,
                                                 wanted: list[str]) -> None:
    m, group = made
    subject = Subject(name, frozenset({name.lower()}), speaker=False)
    naming = [e for e in m.search(name, group=group, k=20) if e.source_ref == named_in]
    assert naming, f"{named_in} names {name}"
    assert [e.source_ref for e in continuing_turns(m.ctx, group, subject, naming)] == wanted
    speaker = Subject("June", frozenset({"june"}), speaker=True)  # a speaker's own turns are found by name
    assert continuing_turns(m.ctx, group, speaker, naming) == []


@pytest.mark.parametrize(("text", "opens"), [
    ("calm down 😂 she's a vet at a clinic", True),
    ("He's a pharmacist now.", True),
    ("The one with the broken clock? I walk past it every day and she waves.", False),  # not its opening
    ("I walk past it every day.", False),
])
def test_a_turn_opening_on_a_pronoun(text: str, opens: bool) -> None:
    assert (_OPENS_THIRD.search(text) is not None) == opens
