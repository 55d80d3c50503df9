"""What is given up, and lists of places inside one, from our own messages
(tests/data/reader/ffion_kaito.json): "I'm quitting netball" leaves netball behind, so with no sport
taken up since there is no current one; "sold my trumpet… playing the drums now" takes up the
drums; a goal of "not get fired for feeding Pip crisps" denies no Pip; "which places in Wales" lists no
weekend in Krakow, and "where has she lived since…" asks for a list; "home from Durham" is where one was
away. On each store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from procedures.choice import inside
from procedures.residence import residence_scale
from tkg.memory import Memory
from tkg.nlp import parse
from tkg.words import countries_of

DATA = Path(__file__).parent / "data" / "reader" / "ffion_kaito.json"
NO_INFO = "No information available"


@pytest.fixture(scope="module")
def fk(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ffion-kaito-quits", DATA)


@pytest.mark.parametrize(("question", "answer", "turn"), [
    ("What sport does Ffion play now?", NO_INFO, "D2:1"),  # "I'm quitting netball", nothing since
    ("What sport did Ffion play in March 2023?", "netball", "D1:1"),  # held until she quit
    ("What instrument does Kaito play now?", "drums", "D2:2"),  # the turn selling the trumpet says the drums
    ("What instrument did Kaito play in March 2023?", "trumpet", "D1:2"),
    ("What pets has Ffion had?", "Pip", "D1:3"),
    ("In which places in Wales has Ffion lived?", "Cardiff, Mumbles and Swansea", "D2:1"),  # no Krakow
])
def test_what_is_held_and_where(fk: tuple[Memory, str], question: str, answer: str, turn: str) -> None:
    m, group = fk
    got = m.ask(question, group=group)
    assert got.answer == answer, (got.answer, got.trace.get("reading"))
    assert turn in [e.source_ref for e in got.evidence][:5], [e.source_ref for e in got.evidence]


def test_a_list_of_places_inside_one_is_asked_for() -> None:
    assert asked_for("In which places in Wales has Ffion lived?").many  # "in which", and a place after
    assert asked_for("Which areas of Cardiff has she lived in?").within == "Cardiff"
    assert asked_for("Which places has she lived in?").within == ""
    assert asked_for("Which city in Wales does she live in?").within == ""  # one city, no list
    # the places over a span, each of them; "been living" and "moved to" ask for the latest one
    assert asked_for("Where has Ffion lived since she left Cardiff?").many
    assert not asked_for("Where has Ffion been living?").many
    assert not asked_for("Where has Kaito moved to?").many


def test_a_place_is_inside_a_country_or_a_town() -> None:
    assert countries_of("Cardiff") == {"GB"} and countries_of("Wales") == {"GB"}
    assert [inside(p, "Wales") for p in ("Cardiff", "Mumbles", "Krakow", "Poland", "Wales")] == [
        True, True, False, False, False]
    # "which cities in the States": the question's "the" is not part of the place read
    assert [inside(p, "States") for p in ("Austin", "Leeds")] == [True, False]
    # Swansea is a large town of its own, not a part of Cardiff
    assert [inside(p, "Cardiff") for p in ("Canton", "Swansea", "Wales")] == [True, False, False]


def test_home_from_a_place_is_where_one_was_away() -> None:
    away, greeting = parse("Ida is home from Durham for Christmas."), parse("Greetings from Durham!")
    assert residence_scale(away, 4, 5) < 0.5 <= residence_scale(greeting, 2, 3)
