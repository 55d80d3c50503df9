"""Names, titles and counts as people write them, from our own messages
(tests/data/reader/names_titles_counts.json): a pet's name in small letters after its animal ("my cousin
dev's dog rollo") and one given by "calling her Fern"; an owner's name ("Gerry Walsh's collie") and a
farm's ("at Carrowkeel") are no pet's; a title says a doctor ("moved to a Dr Haddad", however the tagger
labels it); "twenty-six years" is one number, counted where the question's verb is said; "RIP the Clio"
gives the car up; a shop's name across an "n" ("pots n pans") is one name; the answer to "Who is Sol?" is
about Sol; "a climber" is no job, nor is what the children call Nell in quotation marks; a hospital's
unit ("on NICU") is a member of its category, not a shouted word; "He is my boyfriend" two sentences after
"Tobias said…" says whose Tobias is. On each store.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from reliability.common import ingested, span_texts

from procedures.gather import count_held
from procedures.span_context import quoted
from procedures.span_roles import pastime_doer
from procedures.span_words import titled_as
from procedures.swaps import given_up
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "names_titles_counts.json"


@pytest.fixture(scope="module")
def na(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "nell-arjun-names", DATA)


@pytest.mark.parametrize(("question", "answer", "turn"), [
    ("What is the name of Dev's dog?", "rollo", "D1:2"),  # "my cousin dev's dog rollo ate my sandwich"
    ("What is the name of Nell's dog?", "Fern", "D2:1"),  # not Gerry Walsh, whose collie had the pups
    ("Who is Nell's doctor now?", "Haddad", "D2:5"),  # "moved to a Dr Haddad": the title says doctor
    ("Who was Nell's doctor in February 2023?", "Dr Price", "D1:3"),
    ("How many years did Nell work at the post office?", "26", "D1:1"),  # not the pup's nine months
    ("What car does Arjun drive now?", "yaris", "D3:1"),  # "RIP the Clio!"
    ("Where does Arjun work now?", "pots n pans", "D3:3"),
    ("Where does Sol work?", "Bean", "D2:4"),  # "Who is Sol?" – "Old friend. Works at Bean There"
    ("What is Arjun's job now?", "barista at pots n pans", "D3:3"),  # not "im a climber now btw"
    ("Who is Nell's boyfriend?", "Tobias", "D4:3"),  # "Tobias said… So I shall stop… He is my boyfriend."
])
def test_the_value_as_written(na: tuple[Memory, str], question: str, answer: str, turn: str) -> None:
    m, group = na
    got = m.ask(question, group=group)
    assert got.answer == answer, (got.answer, got.trace.get("reading"))
    assert turn in [e.source_ref for e in got.evidence][:3], [e.source_ref for e in got.evidence]


def test_a_pets_name_and_not_its_owners() -> None:
    assert span_texts("my cousin dev's dog rollo ate my sandwich", "pet_name", "dog") == ["rollo"]
    assert span_texts("his dog food is in the car", "pet_name", "dog") == []  # an English noun it qualifies
    assert "Gerry Walsh" not in span_texts("Gerry Walsh's collie had pups at Carrowkeel.", "pet_name", "dog")
    assert "Carrowkeel" not in span_texts("Gerry Walsh's collie had pups at Carrowkeel.", "pet_name", "dog")
    assert span_texts("Got a pup. I am calling her Fern.", "pet_name", "dog") == ["Fern"]
    assert span_texts("Got a pup. I'll call her tomorrow.", "pet_name", "dog") == []


@pytest.mark.parametrize("said", ["His dog's called Kuba, a big soft shepherd.",
                                  "She came round with Kuba, her lurcher, who ate the cushions."])
def test_a_pet_given_a_towns_name_in_so_many_words_is_named(said: str) -> None:
    """A name a town has too ("Kuba") is the pet's where it is given to the animal in so many words;
    said alone where a place goes it stays a place."""
    assert span_texts(said, "pet_name", "dog") == ["Kuba"]
    assert span_texts("We drove to Kuba with the dog for the weekend.", "pet_name", "dog") == []


def test_a_title_says_the_relation() -> None:
    doc = parse("I have been moved to a Dr Haddad at the new practice.")
    assert "Dr Haddad" in span_texts(doc.text, "person", "doctor") or "Haddad" in span_texts(
        doc.text, "person", "doctor")
    assert titled_as("doctor", doc[6]) and titled_as("doctor", doc[7]) and not titled_as("partner", doc[7])


def test_a_number_in_words_is_one_number_and_a_span_of_time_has_its_verb() -> None:
    said = ("I worked there twenty-six years, and loved it.", "Fern is nine months and two years from calm.")
    turns = [Evidence(f"D{i}:1", f"e{i}", text, datetime(2023, i, 1), 1.0, "g", "Nell")
             for i, text in enumerate(said, start=1)]
    counted = count_held("year", turns, lambda ev: True, frozenset({"work"}))
    assert counted is not None and counted.total == 26
    every = count_held("year", turns, lambda ev: True)  # without the verb, the last count stated wins
    assert every is not None and every.total == 2


def test_rip_gives_a_thing_up() -> None:
    doc = parse("RIP the Clio! It carried me everywhere.")
    assert given_up(next(doc.sents), doc[2])
    doc = parse("The Clio is parked outside.")
    assert not given_up(next(doc.sents), doc[1])


def test_quoted_words_are_someone_elses() -> None:
    doc = parse("The children at the library call me 'the story lady' now. I'm a volunteer.")
    first, second = list(doc.sents)
    lady = next(t.i for t in doc if t.text == "lady")
    volunteer = next(t.i for t in doc if t.text == "volunteer")
    assert quoted(first, lady - 1, lady + 1) and not quoted(second, volunteer, volunteer + 1)
    assert pastime_doer("climber") and pastime_doer("cyclist") and not pastime_doer("barista")


def test_a_hospital_unit_is_a_category_member() -> None:
    assert span_texts("three nights on NICU and I'm wrecked", "thing", "unit") == ["NICU"]  # not shouted
    assert span_texts("my hair is pink now", "thing", "unit") == []
