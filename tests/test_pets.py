"""Pets a conversation shows by what they do, never calling them a cat or a dog again
(procedures/pets.py): the name read as a pet from its cues, its species from species cues or a
reply's "that cat", its owner the speaker who names it most; a person near pet words, a
hypothetical pet's name and another species' pet are not. Our own conversation
(tests/data/reader/hedda_joss.json), read directly and end to end on each store. A pet named like a place
("Sydney", tests/data/reader/tilly_arjun.json) is a pet only on more evidence, and then no place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.pets import infer_pets
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.models import NO_INFORMATION
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "hedda_joss.json"


def _turns() -> list[tuple[str, str]]:
    conv = json.loads(DATA.read_text())[0]["conversation"]
    sessions = sorted((k for k in conv if k.startswith("session_") and not k.endswith("date_time")),
                      key=lambda k: int(k.split("_")[1]))
    return [(t["speaker"], t["text"]) for k in sessions for t in conv[k]]


def test_names_that_behave_like_pets_are_pets_with_species_and_owner() -> None:
    pets = {p.name: p for p in infer_pets(_turns(), ("Hedda", "Joss"))}
    assert set(pets) == {"Tansy", "Brisket"}  # not Greta (a sister), not Pudding (a dog never got)
    assert (pets["Tansy"].species, pets["Tansy"].owner) == ("cat", "Hedda")
    assert (pets["Brisket"].species, pets["Brisket"].owner) == ("dog", "Joss")


def test_one_mention_with_a_pet_word_is_not_enough() -> None:
    turns = [("Ada", "Otto came round with the dog yesterday"), ("Ben", "nice"),
             ("Ada", "Otto is moving soon")]
    assert infer_pets(turns, ("Ada", "Ben")) == []


def test_a_person_near_pet_words_is_not_a_pet() -> None:
    turns = [("Ada", "my friend Wren is a vet now"), ("Ada", "Wren said the dog's paw will heal"),
             ("Ben", "Wren texted me about the vet bill")]
    assert infer_pets(turns, ("Ada", "Ben")) == []


@pytest.fixture(scope="module")
def hj(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "hedda-joss", DATA)


@pytest.mark.parametrize(("question", "wanted"), [
    ("What is the name of Hedda's cat?", "Tansy"),
    ("What is Joss's dog called?", "Brisket"),
])
def test_a_shown_pet_answers_with_its_turns(hj: tuple[Memory, str], question: str, wanted: str) -> None:
    m, group = hj
    a = m.ask(question, group=group)
    assert a.answer == wanted and not a.abstained, (a.answer, a.trace.get("reading"))
    assert any(wanted in e.text for e in a.evidence[:3])


@pytest.mark.parametrize("question", ["What is the name of Hedda's dog?", "What is the name of Joss's cat?"])
def test_a_pet_of_another_species_answers_nothing(hj: tuple[Memory, str], question: str) -> None:
    m, group = hj
    a = m.ask(question, group=group)
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))


def test_a_relatives_partner_is_neither_the_relative_nor_a_pet(hj: tuple[Memory, str]) -> None:
    """"Who is Hedda's sister marrying?" when only "my sister Ingrid is getting married … to someone
    from her work" is said: not Ingrid herself, not the cat; asked for the sister, Ingrid."""
    m, group = hj
    a = m.ask("Who is Hedda's sister marrying?", group=group)
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))
    sister = m.ask("What is the name of Hedda's sister?", group=group)
    assert sister.answer == "Ingrid", (sister.answer, sister.trace.get("reading"))


PLACE_NAMED = Path(__file__).parent / "data" / "reader" / "tilly_arjun.json"  # a dog called Sydney


def test_a_pet_with_a_place_name_needs_more_turns_and_never_a_place_word() -> None:
    turns = [("Ada", "took Sydney to the vet, her paw is fine"), ("Ada", "Sydney barked at the postman"),
             ("Ada", "Sydney chewed her lead")]
    assert [p.name for p in infer_pets(turns, ("Ada", "Ben"))] == ["Sydney"]
    assert infer_pets(turns[:2], ("Ada", "Ben")) == []  # two turns do for "Rolo", not for "Sydney"
    moved = [*turns, ("Ben", "my cousin moved to Sydney last year")]
    assert infer_pets(moved, ("Ada", "Ben")) == []  # said where a place goes: the city too
    words = [("Ada", "Pets are great company, the vet says so"), ("Ada", "Pets need walks"),
             ("Ada", "Pets at the shelter need homes")]
    assert infer_pets(words, ("Ada", "Ben")) == []  # a word for pets opening a sentence is none
    openings = [("Ada", "Honestly the vet was great. How she sat still I don't know"),
                ("Ada", "How the dog got out is a mystery"), ("Ben", "how did the walk go?")]
    assert infer_pets(openings, ("Ada", "Ben")) == []  # a word written small too is no name


@pytest.fixture(scope="module")
def ta(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "tilly-arjun", PLACE_NAMED)


def test_a_dog_called_sydney_is_no_place(ta: tuple[Memory, str]) -> None:
    m, group = ta
    a = m.ask("Where does Tilly live now?", group=group)
    assert a.answer == "Glasgow" and not a.abstained, (a.answer, a.trace.get("reading"))
    assert a.evidence[0].source_ref == "D1:3"
    dog = m.ask("What is the name of Tilly's dog?", group=group)
    assert dog.answer == "Sydney", (dog.answer, dog.trace.get("reading"))


def test_a_name_given_small_counts_for_the_pet_and_its_owner() -> None:
    turns = [("Odo", "so we got a dog. rescue lurcher, called captain"),
             ("Mae", "A dog! Captain is a grand name. Does he sleep at night?"),
             ("Mae", "Is Captain behaving?")]
    found = [(p.name, p.species, p.owner) for p in infer_pets(turns, ("Odo", "Mae"))]
    assert found == [("Captain", "dog", "Odo")]
    # a name alone after the sentence that got the pet, its species from that sentence
    alone = [("Odo", "juno got a kitten. bramble. she climbs the curtains"),
             ("Mae", "A kitten called Bramble! Give Bramble a cuddle from me")]
    found = [(p.name, p.species, p.owner) for p in infer_pets(alone, ("Odo", "Mae"))]
    assert found == [("Bramble", "cat", "Odo")]
    # a person given small ("my boss is called dana") is no pet, with or without a pet word near
    people = [("Odo", "my new boss is called dana, strict but fair"),
              ("Mae", "Dana sounds fine. My dog hates Mondays")]
    assert infer_pets(people, ("Odo", "Mae")) == []


def test_a_word_after_called_is_a_name_and_never_a_job() -> None:
    doc = parse("we got a dog. rescue lurcher. called pilot")
    assert [s.text for x in doc.sents for s in spans_of(x, "role", "job")] == []
    doc = parse("my cousin is a pilot now")
    assert [s.text for x in doc.sents for s in spans_of(x, "role", "job")] == ["pilot"]
