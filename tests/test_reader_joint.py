"""Shared things and short replies (issue 17): "X and Y's dog" is asked of the one of the pair who
speaks, a pet's name said on its own right after the pet ("we got a dog btw. pepper."), a name
given just after a person ("a date … her name is joss") that is no pet's, a bare sum handed over
for something ("gave me 900 for it"), a race result told right after the race's name ("HARBOUR
TEN DONE. finished in 1:12:05"), kinship nouns that ask for a person, "Mum" who is no niece, a
held thing's edge that a later sale ends ("I sold my cello last month"), a band's edge whose value
is a race ("… Marathon"), a nationality that is no one's name, and short turns ("still there.",
"legend.") that are no place. Our own sentences, and our own conversation end to end
(tests/data/reader/ines_bram.json)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from planners.question import parse as parse_question
from procedures.about import subject_of
from procedures.graph_values import of_category
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "ines_bram.json"


@pytest.mark.parametrize(("question", "speakers", "subject"), [
    ("What is the name of Ines and Teo's dog?", ("Ines", "Bram"), "Ines"),
    ("What is Teo and Ines's cat called?", ("Ines", "Bram"), "Ines"),  # the speaker, named second
    ("Where do Maya and Lou's parents live?", ("Ines", "Bram"), "Maya"),  # neither speaks: the first
    ("What is Lou's dog called?", ("Ines", "Bram"), "Lou"),  # one possessor: as before
])
def test_a_pair_owns_what_the_speaker_of_them_tells(question: str, speakers: tuple[str, ...],
                                                    subject: str) -> None:
    got = subject_of(parse_question(question), dict.fromkeys(speakers, 1))
    assert got is not None and got.name == subject


def test_a_speaker_named_by_a_later_word_of_their_name_unless_two_share_it() -> None:
    """"Funmi" is the speaker "Aunty Funmi"; "Raghavan", which both speakers share, is neither."""
    got = subject_of(parse_question("What is Funmi's job now?"), dict.fromkeys(("Tolu", "Aunty Funmi"), 1))
    assert got is not None and got.name == "Aunty Funmi" and got.speaker
    both = dict.fromkeys(("Lakshmi Raghavan", "Meera Raghavan"), 1)
    shared = subject_of(parse_question("Where does Dr Raghavan work?"), both)
    assert shared is not None and not shared.speaker


@pytest.mark.parametrize(("text", "names"), [
    ("we finally got a puppy!! biscuit. already ate a shoe", ["biscuit"]),
    ("We got a cat on Friday. Miso. She bites.", ["Miso"]),
    ("my cat is ill. Poor thing.", []),  # two words: no lone name
    ("we got a dog. Seriously. he is huge", []),  # an adverb is no name
    ("Tired today. Pickles. Anyway how are you", []),  # no pet in the sentence before
])
def test_a_name_said_alone_after_the_pet_names_it(text: str, names: list[str]) -> None:
    found = [s.text for sent in parse(text).sents for s in spans_of(sent, "pet_name", "pet")]
    assert found == names


@pytest.mark.parametrize("question", [
    "What is the name of Ines's niece?", "What's Bram's stepson called?", "Who is Ines's sister-in-law?",
])
def test_every_kinship_noun_asks_for_a_person(question: str) -> None:
    assert asked_for(question).kind == "person"


def test_the_names_of_children_ask_for_every_child_and_people_stay_a_count() -> None:
    asked = asked_for("What are the names of Bram's children?")
    assert (asked.kind, asked.head, asked.many) == ("person", "child", True)
    counted = asked_for("How many people report to Bram?")  # "six people report to me": a number said
    assert (counted.kind, counted.count) == ("number", True) and counted.head != "person"


@pytest.mark.parametrize(("text", "names"), [
    ("i have a date on saturday. her name is joss", []),  # the date's name, not a cat's
    ("met someone at the climbing wall. his name is Theo", []),
    ("took her to the vet today, all fine. her name is pip btw", ["pip"]),  # the vet is the pet's
    ("her name is pip and she bites", ["pip"]),  # brought in by a turn before
])
def test_a_name_given_after_a_person_is_no_pets(text: str, names: list[str]) -> None:
    found = [s.text for sent in parse(text).sents for s in spans_of(sent, "pet_name", "cat")]
    assert found == names


@pytest.mark.parametrize(("value", "head", "of_it"), [
    ("Harbour Ten Marathon", "band", False),  # a race, however capitalised
    ("St Jude Hospital", "band", False),
    ("Glass Otters", "band", True),
    ("Harbour Ten Marathon", "race", True),  # a race is what was asked
    ("Toyota Yaris", "car", True),
])
def test_a_name_ending_in_a_noun_of_another_kind_is_of_that_kind(value: str, head: str, of_it: bool) -> None:
    assert of_category(value, head) is of_it


def test_a_nationality_is_no_persons_name() -> None:
    sent = next(parse("hiking in the Tatra mountains last weekend, loved it").sents)  # "Tatra": NORP
    assert [s.text for s in spans_of(sent, "person", "")] == []


@pytest.fixture(scope="module")
def ib(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ines-bram", DATA)


@pytest.mark.parametrize(("question", "wanted"), [
    ("What is the name of Ines and Teo's dog?", "pepper"),  # "we got a dog btw. pepper." by Ines
    ("What is Teo and Ines's dog called?", "pepper"),
    ("How much did Bram get for his old camper?", "900"),  # "a couple from bude gave me 900 for it"
    ("What was Bram's finishing time in the Harbour Ten?", "1:12:05"),  # "HARBOUR TEN DONE. finished in …"
    ("What instrument does Bram play now?", "ukulele"),  # the cello's edge stands, but "I sold my cello"
    ("What is the name of Bram's dog?", None),  # the dog is Ines's
    ("Where does Ines live?", None),  # "still there." (of the camper) is no place
    ("What are the names of Ines and Teo's children?", None),  # a dog, no children
])
def test_shared_things_and_short_replies_end_to_end(ib: tuple[Memory, str], question: str,
                                                    wanted: str | None) -> None:
    m, group = ib
    a = m.ask(question, group=group)
    if wanted is None:
        assert a.abstained, (a.answer, a.trace.get("reading"))
    else:
        assert wanted in a.answer.lower() and not a.abstained, (a.answer, a.trace.get("reading"))


def test_a_word_for_a_relative_answers_only_for_that_relative(ib: tuple[Memory, str]) -> None:
    m, group = ib  # "also i have a niece!! … Mum is already knitting her a cardigan": never named
    a = m.ask("What is the name of Ines's niece?", group=group)
    values = a.trace["reading"].get("choice", {}).get("values", {})
    assert a.abstained and "Mum" not in values, (a.answer, a.trace["reading"])
