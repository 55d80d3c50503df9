"""Whose pet, and which: "What did Ivo name his cat?" asks for a pet's name; a dog's words name no cat
("one old man and a dog"); "Her name is Pip" in the speaker's own turn names their pet; a cat another
speaker tells of ("she once put the cat in the laundry basket") or advises ("Mum says I should get a
cat") gives no one a cat; a person's possessive is no town ("Rafa's guitar"). Our own messages
(tests/data/reader/noor_ivo.json) on each store, and our own sentences for the rules.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from planners.question import parse as parse_question
from procedures.about import Subject
from procedures.premise import check
from procedures.span_places import places
from procedures.span_words import pet_words
from procedures.spans import spans_of
from procedures.stated import hypothetical
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "noor_ivo.json"


@pytest.fixture(scope="module")
def ni(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "noor-ivo", DATA)


def test_what_someone_named_or_called_a_pet_or_a_child_asks_for_a_name() -> None:
    assert (asked_for("What did Kai name his cat?").kind, asked_for("What did Kai name his cat?").head) \
        == ("pet_name", "cat")
    assert asked_for("What did they call the new puppy?").kind == "pet_name"
    assert asked_for("What did Ana and Tom call their baby?").kind == "person"
    assert asked_for("What did Jess say about her cat?").kind == "thing"


def test_a_cat_is_named_by_a_cat_word_and_a_dog_by_a_dog_word() -> None:
    assert "kitten" in pet_words("cat") and "puppy" not in pet_words("cat") and "puppy" in pet_words("pet")
    text = "Too much truck for one old man and a dog, so I got a little Suzuki Jimny."
    sent = next(iter(parse(text).sents))
    assert spans_of(sent, "pet_name", "cat") == []


def test_advice_to_get_an_animal_states_none() -> None:
    assert hypothetical(next(iter(parse("Karen says I should get a cat for company.").sents)))
    assert not hypothetical(next(iter(parse("Karen got a cat for company.").sents)))


def test_a_persons_possessive_is_no_town() -> None:
    sent = next(iter(parse("Boxes everywhere and Rafa's guitar in the bath.").sents))
    assert [p.text for p in places(sent)] == []


def test_the_speakers_own_pet_named_and_no_cat_from_advice(ni: tuple[Memory, str]) -> None:
    m, group = ni
    dog = m.ask("What is the name of Noor's dog?", group=group)
    assert dog.answer == "Pip" and dog.evidence[0].source_ref == "D1:3"
    cat = m.ask("What did Ivo name his cat?", group=group)
    assert cat.abstained and "cat" in cat.trace["reading"]["reason"]
    assert m.ask("Where does Ivo live now?", group=group).answer == "Totterdown"


def test_a_pet_named_in_the_sentence_after_the_one_that_says_it() -> None:
    doc = parse("The Macraes had a litter of heading dogs and one runt nobody wanted. He's called Skip.")
    assert [s.text for x in doc.sents for s in spans_of(x, "pet_name", "dog")][-1:] == ["Skip"]
    doc = parse("I met a new guy at work. He's called Skip.")
    assert [s.text for x in doc.sents for s in spans_of(x, "pet_name", "dog")] == []


def _said_by(speaker: str, text: str, ref: str = "T1:1") -> Evidence:
    return Evidence(ref, ref, text, datetime(2024, 3, 1, tzinfo=UTC), 1.0, "g", speaker=speaker)


def test_an_animal_is_the_subjects_by_their_own_words_or_a_verb_of_keeping() -> None:
    ivo, speakers = Subject("Ivo", frozenset({"ivo"}), speaker=True), ("Ivo", "Noor")
    q = parse_question("What did Ivo name his cat?")
    told = _said_by("Noor", "Karen will tell you when she's ready; she once put the cat in the freezer.")
    assert not check(q, ivo, [told], speakers).holds  # the other speaker, no verb of keeping
    kept = _said_by("Noor", "And you adopted a cat last week, I hear!")
    assert check(q, ivo, [kept], speakers).holds
    max_ = parse_question("What colour is Ivo's dog Max?")  # "a pet" in his own words will do
    own = _said_by("Ivo", "Pets are the best for lifting our spirits. I'm always still thinking about Max.")
    assert check(max_, ivo, [own], speakers).holds
