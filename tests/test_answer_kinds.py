"""Answers of the asked kind: clock and race times, numerals (not the pronoun "one"), ages said
as ages, a thing linked by a copula, a role edge widened by its turn's modifiers, and no whole
turn standing in for a value. Every sentence here is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from reliability.common import span_texts as _spans

from planners.asked import Asked, asked_for
from planners.question import parse as parse_question
from procedures.graph_values import widened
from procedures.reading import echoed, names_kind
from procedures.result import ProcedureResult
from procedures.sentence_value import asks_a_name
from procedures.spans import spans_of
from tkg.models import Evidence
from tkg.nlp import parse


@pytest.mark.parametrize(("question", "kind", "head"), [
    ("What was Lena's finishing time in the Berlin half?", "number", "race time"),
    ("What time does Odile's ferry leave?", "number", "time"),
    ("What time of year did Odile move?", "date", ""),
    ("Which destination did Odile pick for her honeymoon?", "place", "destination"),
    ("What was Odile's most recent TOEFL reading score?", "number", "score"),  # past "most recent", 3 words
    ("Who is Bruno's most recent partner?", "person", "partner"),
    ("What is the name of Odile's dog now?", "pet_name", "dog"),  # "now" ends the named noun
    ("Who is Bruno's current employer?", "organisation", "employer"),  # "who", and an employer
    ("What is the name of the pet belonging to Odile's partner?", "thing", "pet"),  # not "to"
    ("What is the name of the cat in the flat where Bruno lives now?", "pet_name", "cat"),  # not "flat"
])
def test_times_and_destinations_have_their_own_kind(question: str, kind: str, head: str) -> None:
    asked = asked_for(question)
    assert (asked.kind, asked.head) == (kind, head), asked


@pytest.mark.parametrize(("question", "kind", "head"), [
    ("What injury kept Odile off the bike in May?", "thing", "injury"),
    ("Which company hired Bruno last spring?", "organisation", "company"),
    ("What dog bit him at the park?", "pet_name", "dog"),
    ("What kind of dog adopted them, in the end?", "animal", "dog"),
    ("Which band played at Odile's wedding?", "thing", "band"),
    ("Which football team does Bruno support now?", "organisation", "team"),
    ("What gaming hardware has Bruno owned?", "thing", "hardware"),
])
def test_the_head_is_the_noun_before_the_questions_verb(question: str, kind: str, head: str) -> None:
    asked = asked_for(question)
    assert (asked.kind, asked.head) == (kind, head), asked


def test_a_time_is_a_clock_or_race_time_not_any_number() -> None:
    assert _spans("My finishing time was 4:12:09, a personal best after two tries.", "number", "time") == [
        "4:12:09"]
    assert _spans("We left the harbour at 6:30 pm with three bags.", "number", "time") == ["6:30 pm"]


def test_a_score_is_no_rank() -> None:
    assert _spans("she is nursing 2nd year and got 7.5 in the test", "number", "score") == ["7.5"]


def test_one_as_a_pronoun_is_no_number() -> None:
    assert _spans("Is that the one you drove us to the lake in?", "number", "") == []
    assert _spans("I have one dog and two cats.", "number", "") == ["one", "two"]


def test_a_number_said_as_an_age_is_surer_than_any_number() -> None:
    sent = next(parse("My aunt turned fifty-one and has three cats.").sents)
    sure = {s.text: s.sure for s in spans_of(sent, "number", "age")}
    assert sure["fifty-one"] > sure["three"]


def test_a_long_linked_phrase_keeps_its_head() -> None:
    found = _spans("new go-to snack is ur spicy peanut noodles, the ones with the chilli oil and sesame.",
                   "thing", "snack")
    assert "spicy peanut noodles" in found


def test_a_role_edge_keeps_the_modifiers_its_turn_says() -> None:
    asked = Asked("role", "title")
    text = "Big week. After the reshuffle they promoted me to senior project manager, so I'm a manager now."
    assert widened(asked, "manager", text) == "senior project manager"
    assert widened(asked, "nurse", "I'm a nurse at the clinic.") == "nurse"
    assert widened(Asked("place", "city"), "york", "We moved to New York.") == "york"  # roles only


def test_a_whole_turn_is_not_a_value() -> None:
    turn = "we spent the whole weekend repainting the shed, it looks great"
    ev = Evidence("S1:1", "e1", turn, datetime(2024, 5, 1, tzinfo=UTC), 1.0, "g", speaker="Odile")
    assert echoed(ProcedureResult("we spent the whole weekend repainting the shed", [ev]))
    assert not echoed(ProcedureResult("the shed", [ev]))  # a short value read out of the turn
    assert not echoed(ProcedureResult("Odile repainted her shed over a long weekend", [ev]))  # not copied
    assert echoed(ProcedureResult("what a week.", [Evidence("S1:2", "e2", "ok. what a week. the shed is done",
                                                            None, 1.0, "g")]))  # a short whole sentence


@pytest.mark.parametrize(("text", "head", "wanted"), [
    ("open mic tonight, me on cello as usual, priya on vocals", "instrument", ["cello"]),
    ("sold the amp. saving for an electric guitar instead", "instrument", ["electric guitar"]),
    ("I bought a bass guitar off a colleague.", "instrument", ["bass guitar"]),  # one instrument, not two
    ("we do padel on tuesdays now and tennis at the weekend", "sport", ["padel", "tennis"]),
    ("she teaches physics at the grammar school", "subject", ["physics"]),
    ("we painted the kitchen on sunday", "instrument", []),
    ("Pottery continues, and I have started weaving on Wednesdays.", "hobby", ["Pottery", "weaving"]),
    ("I'm weaving through traffic on the bike", "hobby", []),  # a gerund that is no pastime taken up
])
def test_members_of_a_known_category_are_values_of_it(text: str, head: str, wanted: list[str]) -> None:
    assert [s for s in _spans(text, "thing", head) if s in wanted or s.split()[-1] in wanted] == wanted


def test_own_is_no_part_of_a_things_name() -> None:
    assert "cello" in _spans("I finally bought my own cello, second hand.", "thing", "instrument")
    assert "own cello" not in _spans("I finally bought my own cello, second hand.", "thing", "instrument")


def test_a_turn_that_names_the_asked_kind_may_stand() -> None:
    band = parse_question("What is Odile's favourite band now?")  # a band is known by its name
    assert not names_kind("honestly the best band on earth, fight me", band)  # only says the category
    assert names_kind("the new 'Salt Roads' album is on repeat", band)  # a quoted title may be one
    assert not names_kind("the dog snores all night, so very restful.", band)
    drink = parse_question("Which drink does Odile order now?")
    assert names_kind("honestly the best drink on earth, fight me", drink)  # the category: it stands
    carer = parse_question("Who fed Odile's rabbit while she was away?")
    assert names_kind("Margaret next door fed him every morning.", carer)  # a person is named
    assert not names_kind("we got back on sunday, the rabbit is fine!!", carer)


def test_time_modifying_another_noun_is_not_the_head() -> None:
    asked = asked_for("Which revision technique does Odile use before exams?")
    assert asked.kind == "thing"
    assert asked_for("Which time tracking app does Odile use?").head != "time"


@pytest.mark.parametrize(("text", "wanted"), [
    ("Also I've started a B2 German evening course on Tuesdays.", []),  # a language, no organisation
    ("Told Mam about it and Dad laughed.", []),  # a parent, however capitalised
    ("We are off to the Christmas Eve party.", []),  # a day
    ("I joined the Harbour Singers choir.", ["Harbour Singers"]),  # a name, whatever the tagger's label
    ("I started at Nordlys Forsikring in August, in their claims team.", ["Nordlys Forsikring"]),
])
def test_a_language_or_a_parent_is_no_organisation(text: str, wanted: list[str]) -> None:
    assert _spans(text, "organisation", "") == wanted


@pytest.mark.parametrize(("text", "wanted"), [
    ("From May I'll be team lead for the design team.", ["team lead"]),  # "lead" tagged a verb
    ("Four designers report to me now.", []),  # others, no one's role
    ("The Friends elected me treasurer in October.", ["treasurer"]),
    ("She is the chair of the board now.", ["chair of the board"]),
    ("I might get a gaming chair for the stream.", []),  # a seat
])
def test_roles_said_of_someone(text: str, wanted: list[str]) -> None:
    assert _spans(text, "role", "role") == wanted


def test_a_nickname_is_a_name_a_sentence_without_one_does_not_give() -> None:
    assert asks_a_name(parse_question("What nickname does Odile use for her brother?"))
