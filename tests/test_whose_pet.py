"""Whose pet, and which: "What did Ivo name his cat?" asks for a pet's name; a dog's words name no cat
("one old man and a dog"); "Her name is Pip" in the speaker's own turn names their pet; a cat another
speaker tells of ("she once put the cat in the laundry basket") or advises ("Mum says I should get a
cat") gives no one a cat; a person's possessive is no town ("Rafa's guitar"). Our own messages
(tests/data/reader/noor_ivo.json) on each store, and our own sentences for the rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from procedures.span_places import places
from procedures.span_words import pet_words
from procedures.spans import spans_of
from procedures.stated import hypothetical
from tkg.memory import Memory
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
