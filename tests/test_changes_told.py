"""Changes as people tell them, from our own messages (tests/data/reader/ilse_darius.json): a doing given
up ("I gave up running after the knee operation") is no current sport; a thing traded in ("The Passat was
too much car…, so I've traded it in for a little Fiat Panda") gives way to the one taken, told in the same
turn; a partner is named the sentence before "He is my boyfriend now"; a city asked of a country ("Which
city in Germany…") is no country; and a car asked before its make and model ("the Fiat Panda") is there
when the turns say the model only. Sentence by sentence: a participle after a noun ("three pumps
running") is no pastime, a breed said as a name ("Staffy brain.") no pet's, "her name's pebble" names
one, a small-letter colour in a cased text is no name, a car model written small still a car, a title
after its category noun ("the module Cities and Memory") one name, and an offer refused ("I told Halden
no") called off. On each store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested, span_texts

from planners.asked import asked_for
from procedures.residence import place_scale
from procedures.span_base import Span
from procedures.span_patterns import members_said
from procedures.span_pets import calls_an_animal
from procedures.stated import CALLED_OFF
from procedures.swaps import given_up, replaced
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "ilse_darius.json"


@pytest.fixture(scope="module")
def idg(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ilse-darius", DATA)


@pytest.mark.parametrize(("question", "answer", "turn"), [
    ("What sport does Ilse do now?", "swimming", "D2:2"),  # "I gave up running after the knee operation"
    ("What car does Ilse drive now?", "Fiat Panda", "D3:1"),  # traded in, in the same turn
    ("What car did Ilse drive before the Fiat Panda?", "Passat", "D1:3"),
    ("Who is Ilse's boyfriend now?", "Jonas", "D2:4"),  # "Thanks to Jonas. He is my boyfriend now"
    ("Which city in Germany is Darius from?", "Leipzig", "D1:2"),  # not "Germany", not "Ireland"
])
def test_the_value_as_told(idg: tuple[Memory, str], question: str, answer: str, turn: str) -> None:
    m, group = idg
    got = m.ask(question, group=group)
    assert got.answer == answer, (got.answer, got.trace.get("reading"))
    assert got.evidence[0].source_ref == turn, [e.source_ref for e in got.evidence]


@pytest.mark.parametrize(("text", "word", "over"), [
    ("My news: I gave up running after the knee operation.", "running", True),
    ("I've packed the choir in, finally.", "choir", True),
    ("I stopped cycling when the baby came.", "cycling", True),
    ("I stopped the Volvo at the lights.", "Volvo", False),  # a car stopped is not given up
    ("Tennis is dead to me after that final.", "Tennis", True),
    ("I started running again in May.", "running", False),
])
def test_given_up(text: str, word: str, over: bool) -> None:
    doc = parse(text)
    token = next(t for t in doc if t.text == word)
    assert (given_up(doc[:], token) or replaced(token)) is over


def _members(text: str, head: str) -> list[str]:
    return [s.text for s in members_said(parse(text)[:], head)]


def test_a_participle_is_no_pastime() -> None:
    assert _members("Bed four has three pumps running overnight.", "sport") == []
    assert _members("I've started running again.", "sport") == ["running"]


def test_a_car_model_in_small_letters() -> None:
    assert _members("picked up a 2016 fabia estate on saturday, runs like a dream", "car") == ["fabia"]
    assert _members("😂 corsa's making that noise again", "car") == ["corsa"]


def test_what_a_pet_is_is_not_its_name() -> None:
    text = "Bruno chewed the sofa again. Staffy brain. Jonas says it's the sofa or the dog."
    assert "Staffy brain" not in span_texts(text, "pet_name", "dog")
    doc = parse(text)
    staffy = next(t for t in doc if t.text == "Staffy")
    assert calls_an_animal(Span("Staffy brain", "name", 0.7, staffy.i, staffy.i + 2), doc)


def test_a_name_given_by_name_s() -> None:
    told = "mum got me a tortoise for my bday!! her name's pebble. she's tiny"
    assert "pebble" in span_texts(told, "pet_name", "pet")


def test_a_small_colour_is_no_pet_name() -> None:
    told = "There was a kitten at the shelter in Gijón, grey, very small, and I called him Fideo."
    names = span_texts(told, "pet_name", "cat")
    assert "grey" not in names and "Fideo" in names, names


def test_a_title_after_its_noun() -> None:
    found = span_texts("I now teach only the module Cities and Memory, on Wednesday afternoons.", "thing",
                       "module")
    assert "Cities and Memory" in found and "module" not in " ".join(found), found


def test_a_country_is_no_city() -> None:
    assert place_scale("city", "Ireland") < place_scale("city", "Leipzig")
    assert place_scale("country", "Ireland") == 1.0


@pytest.mark.parametrize(("text", "off"), [
    ("Halden offered me the analyst role. I told them no.", True),
    ("They offered me the job! But I said no.", True),
    ("We turned it down in the end.", True),
    ("The landlord said no pets, sadly.", False),  # a rule, not an offer refused
])
def test_an_offer_refused(text: str, off: bool) -> None:
    assert bool(CALLED_OFF.search(text)) is off


def test_an_ordinal_asks_for_the_value_told_so_many_times() -> None:
    assert asked_for("What was the name of Lior's second kitten?").nth == 2
    assert asked_for("Where did Lior live first?").nth == 0
