"""A role said with "'s" for "is": "Tomasz's an electrician", "my sister's a midwife", "Wren's a
postwoman now". The tagger reads that "'s" as a possessive (Tomasz's electrician), so the role was
no span at all, or someone else's; and "-man", "-woman", "-person", "-wife" nouns are agent nouns
too. The conversation (tests/data/reader/bryn_odile.json) is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.clauses import clause_subject
from procedures.span_words import ROLE_SUFFIX
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader"


@pytest.mark.parametrize(("text", "role", "subject"), [
    ("Kofi's an electrician.", "electrician", "Kofi"),
    ("My sister's a midwife in Cork.", "midwife", "sister"),
    ("Wren's a postwoman now.", "postwoman", "Wren"),
    ("Tomasz's the new site foreman at the harbour build.", "site foreman", "Tomasz"),
    ("Ha, he liked you too. Tomasz's an electrician, so ask him.", "electrician", "Tomasz"),
])
def test_a_role_after_a_copular_s_is_said_of_the_one_before_it(text: str, role: str, subject: str) -> None:
    doc = parse(text)
    spans = [sp for sent in doc.sents for sp in spans_of(sent, "role", "job")]
    assert [sp.text for sp in spans] == [role]
    assert spans[0].cued  # said of someone, as "Kofi is an electrician" is
    said_of = clause_subject(doc[spans[0].end - 1])
    assert said_of is not None and said_of.text == subject


def test_a_place_in_that_clause_is_the_same_someones() -> None:
    doc = parse("Tomasz's the new site foreman at Arup.")
    arup, electrician = clause_subject(doc[7]), clause_subject(parse("Kofi's electrician came round.")[2])
    assert arup is not None and arup.text == "Tomasz"
    assert electrician is not None and electrician.text == "electrician"


@pytest.mark.parametrize("text", [
    "My manager's office is tiny.", "Dev's the best.", "Kofi's electrician came round.",
])
def test_a_possessive_stays_a_possessive(text: str) -> None:
    doc = parse(text)
    assert not [sp for sent in doc.sents for sp in spans_of(sent, "role", "job")]


@pytest.mark.parametrize(("word", "agent"), [
    ("postman", True), ("firewoman", True), ("salesperson", True), ("midwife", True), ("foreman", True),
    ("gentleman", False), ("snowman", False), ("woman", False), ("human", False),
])
def test_agent_nouns_in_man_woman_person_and_wife(word: str, agent: bool) -> None:
    assert bool(ROLE_SUFFIX.search(word)) is agent


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "bryn-odile", DATA / "bryn_odile.json")


@pytest.mark.parametrize(("question", "wanted", "turn"), [
    ("What does Tomasz do for work now?", "site foreman", "D2:1"),
    ("What was Tomasz's job in January 2024?", "electrician", "D1:2"),
    ("What does Wren do for work?", "postwoman", "D1:5"),
    ("What does Bryn's sister do for a living?", "midwife", "D1:3"),
])
def test_the_role_is_read(made: tuple[Memory, str], question: str, wanted: str, turn: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    assert a.answer == wanted, (a.answer, a.trace.get("reading"))
    assert turn in [e.source_ref for e in a.evidence[:3]]


def test_no_role_is_said_of_the_listener(made: tuple[Memory, str]) -> None:
    m, group = made
    a = m.ask("What does Odile do for work?", group=group)
    assert a.abstained, (a.answer, a.trace.get("reading"))
