"""Whose pet a name is, from the words that give it: "she brought Kuba, her lurcher" in Lotta's turn
names her sister's dog, not Lotta's; a town's name ("Kuba") given to an animal in so many words is the
pet's. Our own messages (tests/data/reader/lotta_aino.json) on each store."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested, span_texts

from procedures.span_base import Span
from procedures.span_pets import pet_possessor
from tkg.memory import Memory
from tkg.models import NO_INFORMATION
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "lotta_aino.json"


@pytest.fixture(scope="module")
def la(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "lotta-aino", DATA)


def test_the_word_that_says_whose_animal_a_name_is_given_to() -> None:
    doc = parse("Rory got a collie called Bran. Then Rory's collie, Bran, ate my slippers.")
    assert pet_possessor(Span("Bran", "name", 0.7, 4, 5), doc) is None  # "a collie": no one's said
    assert pet_possessor(Span("Bran", "name", 0.7, 12, 13), doc).text == "Rory"


def test_a_name_the_next_sentence_calls_a_pet_is_the_pets() -> None:
    """"Tupsu is fourteen now. … my old whippet sleeps all day": the subject named before the pet word
    is the pet; a name only after "the" is a thing's, no one's."""
    said = ("Dear Emil,\n\nTupsu is, I fear, feeling every one of his fourteen years. The vet has changed "
            "his tablets, and my poor old whippet now sleeps most of the day by the stove.")
    assert span_texts(said, "pet_name", "whippet") == ["Tupsu"]
    assert span_texts("Tupsu is fourteen. The whippet next door barks.", "pet_name", "whippet") == []
    assert span_texts("Aino says it was the Stilton that did it.", "person", "") == ["Aino"]


def test_a_pet_brought_by_the_tellers_sister_is_hers(la: tuple[Memory, str]) -> None:
    m, group = la
    theirs = m.ask("What is the name of Aino's dog?", group=group)
    assert theirs.answer == "Kuba", theirs.trace.get("reading")
    assert theirs.evidence[0].source_ref == "D1:1"
    assert m.ask("What is the name of Lotta's dog?", group=group).answer == NO_INFORMATION
