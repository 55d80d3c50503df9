"""A thing known by its name is often named without its category: "Velvet Harbour on repeat", "Ashford
Rovers won on Saturday", "my new obsession is Lantern Drift — have you heard 'Copper Sky'?". A
capitalised name beside what is done with a band, a team or a book (`NAMED_CONTEXT`) is a candidate
member; a liking given up ("I'm over Velvet Harbour") is no longer one; a question asked after a dash
leaves the clause before it a statement; "my new obsession is X" is about its speaker; a name written
small is read where it is liked ("hooked on slow tide radio now"). A team or a band
never named is "No information available", not a sentence. The conversation
(tests/data/reader/noor_felix.json) is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.span_context import named_in_context
from procedures.stated import hypothetical
from procedures.swaps import given_up
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader"


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "noor-felix", DATA / "noor_felix.json")


@pytest.mark.parametrize(("question", "value", "ref"), [
    ("What is Noor's favourite band now?", "Lantern Drift", "D2:1"),
    ("What was Noor's favourite band in March 2023?", "Velvet Harbour", "D1:1"),
    ("Which football team does Noor support now?", "Millbrook United", "D3:1"),
    ("Which football team did Noor support in 2023?", "Ashford Rovers", "D1:3"),
    ("Which band is Felix into now?", "slow tide radio", "D4:1"),  # written small
    ("Who was Noor's boyfriend in June 2024?", "Jonah", "D5:1"),
    ("What job did Noor take at Brightwater Labs?", "Junior analyst", "D8:1"),  # the turn naming it
])
def test_a_name_beside_what_is_done_with_its_kind_answers(made: tuple[Memory, str], question: str, value: str,
                                                          ref: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    assert a.answer == value and not a.abstained, (a.answer, a.trace.get("reading"))
    assert ref in [e.source_ref for e in a.evidence[:3]]


@pytest.mark.parametrize("question", [
    "Which football team does Felix support?",
    "Which band did Felix like in 2023?",
    "What does Felix do for work now?",  # not "pilot": his dog is called that
    "Who is Noor's boyfriend now?",  # not Jonah: "Jonah and I have split up"
    "Where does Noor live?",  # "Finally unpacked. The flat is tiny": no place, so no sentence either
])
def test_a_team_or_band_never_named_is_no_information(made: tuple[Memory, str], question: str) -> None:
    m, group = made
    a = m.ask(question, group=group)  # not "Tomas", who took him to a match, nor a sentence about a novel
    assert a.abstained and a.answer == "No information available", (a.answer, a.trace.get("reading"))


def _names(text: str, head: str, kind: str = "thing") -> list[tuple[str, float]]:
    doc = parse(text)
    return [(s.text, s.sure) for x in doc.sents for s in named_in_context(x, head, kind)]


def test_names_in_context_are_cued_by_the_category_and_not_places_songs_or_shops() -> None:
    assert _names("I had Velvet Harbour on repeat all night.", "band") == [("Velvet Harbour", 0.6)]
    assert _names("Still playing Velvet Harbour. Their new album is unreal.", "band") \
        == [("Velvet Harbour", 0.45)]  # from the sentence beside, less sure
    assert _names("Still playing Velvet Harbour. Work was long.", "band") == []  # nothing done with a band
    assert _names("Played 'Copper Sky' on repeat.", "band") == []  # a quoted title beside a band is its song
    assert _names("I work Saturdays at Corner Books. Their playlist is all Lantern Drift.", "band") \
        == [("Lantern Drift", 0.6)]  # not the shop after "at"
    assert _names("We met at Corner Books, the tiny bookshop, then heard the album.", "band") == []
    assert _names("Ashford Rovers won on Saturday!", "team", "organisation") == [("Ashford Rovers", 0.6)]
    assert _names("Ashford Rovers won on Saturday!", "company", "organisation") == []  # no context for it


def test_names_written_small_are_read_from_what_is_liked() -> None:
    assert _names("i've moved on tho, obsessed with chai & circuits now, their new album is unreal", "band") \
        == [("chai & circuits", 0.54)]
    assert _names("at least u have monsoon static on repeat lol", "band") == [("monsoon static", 0.54)]
    assert _names("obsessed with it, their new album is unreal", "band") == []  # a pronoun names nothing
    assert _names("obsessed with chai & circuits now", "band") == []  # nothing done with a band said


def test_a_liking_given_up_and_a_question_after_a_dash() -> None:
    doc = parse("Full confession: I'm over Velvet Harbour.")
    assert given_up(doc[:], doc[6]) and not given_up(doc[:], doc[0])
    assert not given_up(parse("I'm over the moon about Velvet Harbour.")[:], parse(
        "I'm over the moon about Velvet Harbour.")[6])
    doc = parse("My new obsession is Lantern Drift — have you heard it?")
    sent = doc[:]
    assert hypothetical(sent) and not hypothetical(sent, doc[4]) and hypothetical(sent, doc[9])
    doc = parse("Is it Lantern Drift you like?")
    assert hypothetical(doc[:], doc[2])  # a question with no break is a question throughout
