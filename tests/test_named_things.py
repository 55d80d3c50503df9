"""A thing known by a proper name (a band, a bakery, a book) or a name asked for ("what is the name of
…", "… called?") is answered by a name or by "No information available": a whole turn that mentions the
thing without naming it is no answer, however well it scored. A work known by its title (a book, a
song) is answered by the one title the copied sentence or its turn quotes; a band is not (what a turn
quotes beside a band is its song). A street after "on" is where a thing is, never its name nor
a person ("her own bakery on Mill Lane"), and "in years" is when, not what was seen. The conversation
(tests/data/reader/bea_lorcan.json) is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from planners.question import parse as parse_question
from procedures.result import ProcedureResult
from procedures.sentence_value import sentence_for_value, title_answer
from procedures.span_objects import objects_of
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader"


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "bea-lorcan", DATA / "bea_lorcan.json")


@pytest.mark.parametrize(("question", "head"), [
    ("Which band did Bea see at the gig?", "band"),
    ("What is the name of the bakery Bea's sister opened?", "bakery"),
])
def test_a_thing_never_named_is_no_information(made: tuple[Memory, str], question: str, head: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    assert a.abstained and a.answer == "No information available", (a.answer, a.trace.get("reading"))
    assert a.trace["reading"]["reason"] == f"no {head} is named in the evidence, only whole turns"
    assert a.evidence  # kept, as related turns
    assert a.trace["reading"]["evidence_role"] == "related"


@pytest.mark.parametrize(("question", "title", "ref"), [
    ("Which book does Lorcan's brother want him to read?", "The Quiet Orchard", "D1:4"),
    ("Which song has Lorcan had on repeat?", "Harbour Lights", "D3:1"),
])
def test_a_quoted_title_is_the_answer(made: tuple[Memory, str], question: str, title: str, ref: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    assert a.answer == title and not a.abstained, (a.answer, a.trace.get("reading"))
    assert a.evidence[0].source_ref == ref


def _copied(sentence: str, turn: str) -> ProcedureResult:
    ev = Evidence("D9:1", "e1", turn, None, 1.0, "g", speaker="Sofia")
    return ProcedureResult(sentence, [ev])


@pytest.mark.parametrize(("question", "sentence", "turn", "wanted"), [
    ("Which song does Sofia love?", "I've listened to it all week.",
     "Have you heard 'Salt Roads'? I've listened to it all week.", "Salt Roads"),
    # a band's turn quoting a song: the song is not the band
    ("Which band does Sofia love?", "I've listened to it all week.",
     "Have you heard 'Salt Roads'? I've listened to it all week.", None),
    # two titles, or a quoted phrase that is no title: no answer of the reader's own
    ("Which book did Sofia read?", "I read two this month.",
     "I read two this month. 'Nightwood' and 'Orlando' both.", None),
    ("Which book did Sofia read?", "She said it was fine.",
     "She said 'meh' and left. She said it was fine.", None),
])
def test_a_title_is_read_only_for_works(question: str, sentence: str, turn: str, wanted: str | None) -> None:
    got = title_answer(parse_question(question), _copied(sentence, turn), {})
    assert (got.answer if got else None) == wanted


@pytest.mark.parametrize(("question", "head"), [
    ("What is the name of the bakery Bea's sister opened?", "bakery"),  # the possessive is the clause's
    ("What was the name of the rehab facility her mum went to?", "facility"),
    ("What's the name of the physio who treated Jonas's shin splints?", "physio"),
    ("What is the name of Keisha's family dog?", "dog"),
])
def test_the_named_noun_is_the_one_before_its_clause(question: str, head: str) -> None:
    assert asked_for(question).head == head


def test_a_street_is_where_the_bakery_is(made: tuple[Memory, str]) -> None:
    m, group = made
    a = m.ask("Where is Bea's sister's bakery?", group=group)
    assert a.answer == "Mill Lane" and not a.abstained, (a.answer, a.trace.get("reading"))
    assert a.evidence[0].source_ref == "D2:1"
    assert a.trace["reading"]["bridge"] == "Bea's sister"  # the sister is unnamed, not "Mill Lane"


@pytest.mark.parametrize(("text", "kind", "wanted"), [
    ("My sister opened her own bakery on Mill Lane last week.", "person", []),
    ("My sister opened her own bakery on Mill Lane last week.", "place", ["Mill Lane"]),
    ("I met Rosa Lane at the gym.", "person", ["Rosa Lane"]),  # no preposition of place: a person
])
def test_a_street_after_a_preposition_is_a_place(text: str, kind: str, wanted: list[str]) -> None:
    assert [s.text for s in spans_of(next(parse(text).sents), kind, "")] == wanted


@pytest.mark.parametrize(("text", "verb", "wanted"), [
    ("Honestly the best band I've seen in years.", "see", []),
    ("She opened a bakery on Mill Lane last week.", "open", ["bakery"]),
    ("I listen to Paper Lanterns all day.", "listen", ["Paper Lanterns"]),
])
def test_a_verbs_object_is_not_its_time_or_place(text: str, verb: str, wanted: list[str]) -> None:
    assert [s.text for s in objects_of(next(parse(text).sents), verb)] == wanted


@pytest.mark.parametrize(("question", "sentence", "abstains"), [
    ("Which crumble does Tam prefer now?", "No apology needed.", True),  # names no crumble
    ("Which crumble does Tam prefer now?", "The plum crumble, every time.", False),  # says the category
    ("Which crumble did Tam make?", "No apology needed.", False),  # not asked as it is now: it stands
])
def test_a_thing_as_it_is_now_is_never_a_sentence_that_names_none(question: str, sentence: str,
                                                                   abstains: bool) -> None:
    got = sentence_for_value(parse_question(question), _copied(sentence, sentence), {}, [])
    assert (got is not None and got.answer == "No information available") == abstains
