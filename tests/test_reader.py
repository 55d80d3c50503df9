"""The offline reader: what a question asks for, spans of that kind, whom a clause is about,
false premises, and typed answers end to end on each store (our own conversation,
tests/data/reader/wren_ottilie.json: lower-case texting, a move, a cancelled trip, a
hypothetical dog, a promotion, a relative who moves twice)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from reliability.common import ingested

from planners.asked import Asked, asked_for
from planners.question import parse as parse_question
from procedures.about import Subject, about, clause_about
from procedures.graph_values import graph_candidates
from procedures.premise import check
from procedures.presupposed import presupposed
from procedures.spans import spans_of
from procedures.stated import hypothetical, negated
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, Evidence, Fact
from tkg.nlp import parse
from tkg.predicates import PredicateRegistry
from tkg.words import is_place_name

DATA = Path(__file__).parent / "data" / "reader" / "wren_ottilie.json"
GROUP = "wren-ottilie"


@pytest.mark.parametrize(("question", "kind", "head", "many"), [
    ("Which town did Odile grow up in?", "place", "town", False),
    ("Where does Odile work these days?", "organisation", "", False),
    ("Who was Odile's landlord in 2020?", "person", "landlord", False),
    ("What is Odile's job title now?", "role", "title", False),
    ("What does Odile do for a living?", "role", "job", False),
    ("When did Odile start at the bakery?", "date", "", False),
    ("How many sisters does Odile have?", "number", "sister", False),
    ("How old is Odile's nephew?", "number", "age", False),
    ("What is the name of Odile's rabbit?", "pet_name", "rabbit", False),
    ("What kind of animal is Crumb?", "animal", "animal", False),
    ("Which restaurants has Odile worked at over the years?", "organisation", "restaurant", True),
    ("What happened to Odile's old van?", "summary", "", False),  # its story (tests/test_long_form.py)
    ("What is Odile's relationship status?", "status", "relationship", False),
    ("Summarise Odile's year.", "summary", "", False),
    ("Which board game does Odile play on Sundays?", "thing", "game", False),
    ("Why did Odile sell the van?", "reason", "", False),
    ("How did Odile feel after the audition?", "manner", "", False),
])
def test_the_kind_a_question_asks_for(question: str, kind: str, head: str, many: bool) -> None:
    asked = asked_for(question)
    assert (asked.kind, asked.head, asked.many) == (kind, head, many), asked


def test_spans_are_typed_and_written_as_the_sentence_writes_them() -> None:
    sent = next(parse("we finally moved to lyon last may, near the old market").sents)
    assert [s.text for s in spans_of(sent, "place", "")] == ["lyon"]
    sent = next(parse("My uncle turned sixty-two on Friday.").sents)
    assert "sixty-two" in [s.text for s in spans_of(sent, "number", "age")]
    said, mentioned = (next(parse(t).sents) for t in ("I'm a paralegal now.", "I have a new paralegal."))
    assert spans_of(said, "role", "")[0].sure > spans_of(mentioned, "role", "")[0].sure
    sent = next(parse("We adopted a puppy, meet Biscuit!").sents)
    assert [s.text for s in spans_of(sent, "pet_name", "dog")] == ["Biscuit"]
    sent = next(parse("Happy new year, INGRID!!! See you in January.").sents)
    assert spans_of(sent, "person", "") == []  # a shout and a month are not names
    sent = next(parse("Honestly it was you who sold me on it, the blue kayak.").sents)
    things = [s.text for s in spans_of(sent, "thing", "kayak")]
    assert things and not {"it", "you", "me"} & {t.lower() for t in things}  # pronouns name nothing


def test_gazetteer_places_need_a_capital_or_a_preposition_when_english_uses_the_word() -> None:
    assert is_place_name("Nice") and not is_place_name("nice") and is_place_name("nice", locative=True)
    assert is_place_name("malmö") and not is_place_name("of", locative=True)


def test_denial_and_wishes_are_not_statements() -> None:
    denied = next(parse("He wants to stay in Perth forever and I don't.").sents)
    perth = next(t for t in denied if t.text == "Perth")
    assert not negated(denied, perth)  # the "don't" is about another clause
    assert negated(next(parse("The Lisbon move fell through.").sents))
    assert hypothetical(next(parse("If I ever get a dog I'm calling it Pretzel.").sents))
    assert hypothetical(next(parse("Are you still going to Oslo?").sents))


def test_a_clause_is_about_its_grammatical_subject() -> None:
    wren = Subject("Wren", frozenset({"wren"}), speaker=True)
    doc = parse("my sister moved to Bergen and I moved to Tallinn")
    bergen, tallinn = (next(t for t in doc if t.text == w) for w in ("Bergen", "Tallinn"))
    assert clause_about(wren, bergen, speaker="Wren", speakers=("Wren", "Ottilie"), fallback=0.9) == 0.0
    assert clause_about(wren, tallinn, speaker="Wren", speakers=("Wren", "Ottilie"), fallback=0.9) == 0.9
    boss = parse("my boss is still jonas")
    jonas = next(t for t in boss if t.text == "jonas")
    assert clause_about(wren, jonas, speaker="Wren", speakers=("Wren", "Ottilie"), fallback=0.5,
                        relation=frozenset({"boss"})) == 0.9


@pytest.fixture(scope="module")
def mg(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, GROUP, DATA)


@pytest.mark.parametrize(("question", "wanted"), [
    ("Which city does Wren live in now?", "tallinn"),
    ("Where was Wren living in March 2021?", "ghent"),
    ("What is Wren's job title now?", "senior cartographer"),
    ("Who is Wren's boss?", "jonas"),
    ("Which city did Wren's boss move from?", "rotterdam"),
    ("What is the name of Wren's cat?", "fig"),
    ("Where does Ottilie's sister Maren live now?", "oslo"),
])
def test_typed_answers_from_the_turns(mg: tuple[Memory, str], question: str, wanted: str) -> None:
    m, group = mg
    a = m.ask(question, group=group)
    assert wanted in a.answer.lower() and not a.abstained, (a.answer, a.trace.get("reading"))
    assert len(a.answer) < 40  # a value, not a sentence
    support = [e for e in a.evidence if e.source_ref in a.trace["reading"]["support"]]
    assert support and all(wanted in e.text.lower() for e in support)  # the turns that state it are evidence


@pytest.mark.parametrize("question", [
    "What is the name of Wren's dog?",  # only a wish: "if i ever get a dog"
    "When did Wren go to Lisbon?",  # the trip fell through
    "What is the name of Ottilie's baby?",  # never mentioned
])
def test_false_premises_abstain_with_related_turns(mg: tuple[Memory, str], question: str) -> None:
    m, group = mg
    a = m.ask(question, group=group)
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))
    assert a.trace["reading"]["evidence_role"] == "related" and "premise" in a.trace["reading"]["reason"]
    assert a.evidence  # what was looked at stays, labelled as related turns


def test_a_speaker_called_by_name_is_spoken_to_not_of() -> None:
    """"Morning Priyanka! News from Lisbon: …" said by Tomas names Priyanka only to greet her: the
    news is Tomas's, not hers; a name used in the sentence itself still makes it about her."""
    priyanka = Subject("Priyanka", frozenset({"priyanka"}), speaker=True)
    turn = "Morning Priyanka! News from Lisbon: the tram strike is over."
    speakers = ("Tomas", "Priyanka")
    for sent in ("Morning Priyanka!", "News from Lisbon: the tram strike is over."):
        assert about(priyanka, speaker="Tomas", sentence=sent, turn=turn, others=speakers) == 0.0
    asked = "Hey Priyanka, how is your new flat in Porto?"  # spoken to, and about her ("your")
    assert about(priyanka, speaker="Tomas", sentence=asked, turn=asked, others=speakers) == 0.8
    told = "Oh and I bumped into Priyanka in Ghent, she looked great."
    assert about(priyanka, speaker="Tomas", sentence=told, turn=told, others=speakers) == 1.0


def _said_by(speaker: str, text: str) -> Evidence:
    return Evidence("S1:1", "e1", text, datetime(2024, 5, 1, tzinfo=UTC), 1.0, "g", speaker=speaker)


def test_a_relative_in_the_question_is_presupposed_whatever_it_asks() -> None:
    """"Where does Bruno's son live?" takes a son as given: a daughter and her husband (a
    son-in-law) are no son, so the question has a false premise; "my son Theo" states one."""
    bruno = Subject("Bruno", frozenset({"bruno"}), speaker=True)
    q = parse_question("Where does Bruno's son live?")
    assert presupposed(q) >= {"son"}

    def said(text: str) -> Evidence:
        return _said_by("Bruno", text)

    no_son = [said("My daughter Clara and my son-in-law moved to Lyon with the twins.")]
    assert not check(q, bruno, no_son, ("Bruno", "Ines")).holds
    assert check(q, bruno, [said("My son Theo finally found a flat in Lyon.")], ("Bruno", "Ines")).holds


def test_a_name_given_by_a_copula_names_the_pet_of_the_sentence_before() -> None:
    """"we took in a stray cat last week. her name is pip": the name follows "name is", in its own
    sentence; "the name is on the door" gives no name."""
    named = list(parse("we took in a stray cat last week. her name is pip 🐈").sents)[-1]
    assert [s.text for s in spans_of(named, "pet_name", "cat")] == ["pip"]
    assert spans_of(next(parse("The name is on the door.").sents), "pet_name", "cat") == []


def test_status_words_that_state_no_ones_status() -> None:
    """"not a single page" counts, "Ana's wedding" is someone else's; "single" of a person, "our
    wedding" and a shouted "ENGAGED" are statuses."""
    def statuses(text: str) -> list[str]:
        return [s.text for sent in parse(text).sents for s in spans_of(sent, "status", "relationship")]

    assert statuses("We got back from Crete with not a single page read.") == []
    assert statuses("We met at my cousin Ana's wedding in June.") == []
    assert statuses("Happy new year from the single guy!") == ["single"]
    assert statuses("Our wedding was perfect.") == ["married"]
    assert "engaged" in statuses("told them last week. so: ENGAGED 💍")


def test_a_bare_number_is_no_role_name_or_place() -> None:
    """An edge whose literal object is a number ("job_title 11") answers no question for a role."""
    registry = PredicateRegistry.load()
    ev = _said_by("Bruno", "I've been working the 11 o'clock ferry shift.")
    facts = [Fact(f"f{n}", "g", "Bruno", "job_title", value, f"Bruno works as {value}", ev.valid_at,
                  episodes=[ev.episode]) for n, value in enumerate(("11", "deckhand"))]
    got = graph_candidates(cast(Any, SimpleNamespace(registry=registry)), Asked("role", "job"), facts, [ev],
                           set())
    assert [c.value for c in got] == ["deckhand"]


@pytest.mark.parametrize(("text", "cued"), [
    ("Nothing new here, which at seventy-one suits me fine.", ["seventy-one"]),
    ("At 45 I finally learned to swim.", ["45"]),
    ("My niece turned nine on Sunday.", ["nine"]),
    ("Her lad is a 12-year-old menace.", ["12"]),
    ("He says he is 40 years old, going on 15.", ["40"]),
    ("We've lived here thirty years.", []),  # how long, perhaps not how old
    ("Meet me at 5 tomorrow.", []),  # a clock time
])
def test_an_age_said_by_its_own_words_is_cued(text: str, cued: list[str]) -> None:
    """"turned nine", "at seventy-one", "40 years old": the number's own words say it is an age, so the
    reader needs no other cue word near it."""
    sent = next(iter(parse(text).sents))
    assert [s.text for s in spans_of(sent, "number", "age") if s.cued] == cued


@pytest.mark.parametrize(("text", "cars"), [
    ("Honestly I'd barely been driving the Toyota since spring.", ["Toyota"]),
    ("Yesterday I picked up a used Honda Jazz, red, very quiet.", ["Honda Jazz"]),
    ("Took my old Ford Fiesta to the scrapyard.", ["Ford Fiesta"]),
    ("We found a seat near the window.", []),  # a word that is also a make's name is not one here
])
def test_a_car_named_by_its_make_and_model_is_a_car(text: str, cars: list[str]) -> None:
    """"the Toyota", "a Honda Jazz": a car is often named by its make (and model) without the word car."""
    sent = next(iter(parse(text).sents))
    assert [s.text for s in spans_of(sent, "thing", "car")] == cars
