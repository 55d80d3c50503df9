"""Whose a relative or an animal is, and where a value ends, from our own messages
(tests/data/reader/rosa_tom.json): "her son Felix" in Rosa's own turn is her daughter's son, a litter of
beagles looked at or a kitten someone else wants is no pet of hers, and "the dog of Tom's sister" is the
sister's; the question's verb done by another ("the Polo lives in Porto now", "my sister Dorothy, who lives
in Falmouth") says nothing of where Rosa lives, nor does advice ("has written to suggest that I sell up and
move down to Cornwall"), nor a sentence with no subject after "She won't admit it"; "she has a cat called
waffle" is someone else's cat. A workplace texted small after "at" is one in a turn about work, a resident's
name ("a Londoner") says the town, a value left after a date ("last ever shift at the chippy") was held at
it, and a home left ("moved out of the leith flat") with none said since is no current home. "Lies.
Beautiful lies." and "its name immediately" name no pet. On each store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested, span_texts

from planners.question import parse as parse_question
from procedures.presupposed import presupposed
from procedures.stated import hypothetical
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "rosa_tom.json"


@pytest.fixture(scope="module")
def rt(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "rosa-tom", DATA)


@pytest.mark.parametrize(("question", "answer", "turn"), [
    ("What is the name of Rosa's daughter?", "Clara", "D1:1"),
    ("Where does Tom work now?", "quillbyte", "D4:1"),  # "first week of crunch at quillbyte lol"
    ("Where was Tom working in March 2023?", "chippy", "D3:1"),  # left in July: held in March
    ("Where does Rosa live now?", "London", "D3:2"),  # "I am officially a Londoner"; not Porto, nor Margate
])
def test_the_value_as_told(rt: tuple[Memory, str], question: str, answer: str, turn: str) -> None:
    m, group = rt
    got = m.ask(question, group=group)
    assert got.answer == answer, (got.answer, got.trace.get("reading"))
    assert turn in [e.source_ref for e in got.evidence][:2], [e.source_ref for e in got.evidence]


@pytest.mark.parametrize("question", [
    "What is the name of Rosa's son?",  # "Her son Felix": Clara's
    "What is the name of Rosa's beagle?",  # a litter looked at; "had I taken one"
    "What colour is Tom's kitten?",  # "kit wants us to get a kitten btw. no."
    "What is the name of Tom's cat?",  # "she has a cat called waffle": his girlfriend's
    "Where does Tom live now?",  # "i moved out of the leith flat on saturday. sofa surfing": nowhere said
])
def test_no_such_relative_or_pet(rt: tuple[Memory, str], question: str) -> None:
    m, group = rt
    got = m.ask(question, group=group)
    assert got.abstained, (got.answer, got.trace.get("reading"))


def test_a_relatives_pet_is_not_the_subjects() -> None:
    assert presupposed(parse_question("What is the name of the dog of Jade's fiancé?")) == set()
    given = presupposed(parse_question("What is the name of the dog that lives with Kofi's sister?"))
    assert "sister" in given and "dog" not in given


@pytest.mark.parametrize(("question", "animal"), [
    ("What was the name of Margaret's spaniel?", "spaniel"),
    ("What breed is Leah's puppy?", "puppy"),  # asked for a breed, the puppy is still given
])
def test_an_animal_of_theirs_is_given(question: str, animal: str) -> None:
    assert animal in presupposed(parse_question(question))


@pytest.mark.parametrize(("text", "told"), [
    ("My sister has written to suggest that I sell up and move down to Cornwall.", False),
    ("Dad thinks I should move back to Leeds.", False),
    ("I sold up and moved down to Cornwall.", True),
])
def test_advice_is_no_statement(text: str, told: bool) -> None:
    assert hypothetical(parse(text)[:]) is not told


@pytest.mark.parametrize(("text", "head"), [
    ("The greyhound rescue said she was a calm couch type. Lies. Beautiful lies.", "greyhound"),
    ("I need to know this whippet's name immediately.", "whippet"),
])
def test_words_that_are_no_pet_names(text: str, head: str) -> None:
    assert span_texts(text, "pet_name", head) == []
