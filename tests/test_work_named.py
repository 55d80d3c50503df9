"""Work told by what it is, not by a role noun ("an apprenticeship at Hollis & Rowe", "gone freelance",
"opening a small bike repair shop"), roles given by a verb of rising or taking ("step up to VP of
Sales", "asked me to take team lead"), and partners told without a partner word ("matched w a guy
called Sol", "Someone from choir. Rosa."). Our own messages (tests/data/reader/ivo_bea.json) on each
store, and our own sentences for the span rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested, span_texts

from procedures.clauses import clause_subject
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "ivo_bea.json"


@pytest.mark.parametrize(("text", "role"), [
    ("I start an internship at Pell & Marsh on Monday.", "internship at Pell & Marsh"),
    ("he got the boots job, weekends only", "boots job"),
    ("i'm cineworld staff now lol", "cineworld staff"),
    ("She went freelance last year.", "freelance"),
    ("We're opening a little bakery, Crumb Theory, in the spring.", "little bakery, Crumb Theory"),
    ("They asked me to step up to VP of Sales in May.", "VP of Sales"),
    ("my boss asked me to take shift lead", "shift lead"),
    ("Big news: I'm opening the café. Little Heron. Two tables and a view.", "café, Little Heron"),
    ("We opened a cafe. Sam and I are exhausted.", "cafe"),  # a sentence that says more names no café
])
def test_work_named_by_what_it_is(text: str, role: str) -> None:
    assert role in span_texts(text, "role", "job")


@pytest.mark.parametrize("text", [
    "I got a summer job.",  # a season names no post
    "the staff were lovely",  # no one is said to be staff
    "Dario left last year to open a bakery.",  # whose bakery, no clause of its own says
])
def test_no_work_named(text: str) -> None:
    assert span_texts(text, "role", "job") == []


@pytest.mark.parametrize(("text", "word", "subject"), [
    ("they want me to take head chef", "chef", "me"),  # the one asked does what is asked
    ("my sister matched with a guy called Sol", "Sol", "sister"),  # a name is its noun's, in its clause
])
def test_whose_clause(text: str, word: str, subject: str) -> None:
    doc = parse(text)
    found = clause_subject(next(t for t in doc if t.text == word))
    assert found is not None and found.text == subject


@pytest.fixture(scope="module")
def ivo(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ivo-bea", DATA)


@pytest.mark.parametrize(("question", "answer", "turn"), [
    ("What does Ivo do for work now?", "small bike repair shop", "D3:1"),
    ("What did Ivo do for work in May 2024?", "apprenticeship at Hollis & Rowe", "D1:1"),
    ("What does Kit do for work?", "freelance", "D1:2"),
    ("Who is Bea's partner?", "Rosa", "D2:1"),  # "Someone from choir. Rosa.", then "seeing each other"
    ("Who is Ivo seeing these days?", "Sol", "D2:4"),  # "matched w a guy called Sol"
])
def test_asked_of_the_conversation(ivo: tuple[Memory, str], question: str, answer: str, turn: str) -> None:
    m, group = ivo
    got = m.ask(question, group=group)
    assert got.answer == answer, (got.answer, got.trace.get("reading"))
    assert turn in [e.source_ref for e in got.evidence[:2]]


def test_no_work_told_is_no_information(ivo: tuple[Memory, str]) -> None:
    """Bea's work is never told: her romance and her brother's work are not it."""
    m, group = ivo
    got = m.ask("What does Bea do for work?", group=group)
    assert got.abstained, (got.answer, got.trace.get("reading"))
