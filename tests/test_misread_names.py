"""Names the tagger misreads, and things named by their model: a workplace tagged a place or a
nationality ("now at Telstra"), a French sentence's first word ("Je commence lundi chez Ubisoft"), a car
by its model alone ("the Corsa", "picked up a little Yaris"; a model that is also an English word only
with its capital), the answer's evidence said by the date asked, and a question whose category noun
("car") no turn says while its members ("Yaris") are said; a pet named in Spanish or French ("nuestro
perro se llama Chispa"), and a firm tagged with its town ("Dell in Round Rock"). Our own messages
(tests/data/reader/wren_ollie.json) on each store, and our own sentences for the rules.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested
from reliability.common import span_texts as _spans

from planners.asked import Asked
from procedures.reader import may_hold
from procedures.span_patterns import members_said
from tkg.extract.engine import extract
from tkg.memory import Memory
from tkg.nlp import parse
from tkg.predicates import PredicateRegistry
from tkg.vehicle_words import names_vehicle

DATA = Path(__file__).parent / "data" / "reader" / "wren_ollie.json"


@pytest.fixture(scope="module")
def wo(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "wren-ollie", DATA)



def test_a_workplace_tagged_a_place_or_a_nationality_is_an_organisation() -> None:
    assert _spans("Left the council, now at Telstra doing network stuff", "organisation", "company") \
        == ["Telstra"]
    assert _spans("Je commence lundi chez Ubisoft, finally!", "organisation", "company") == ["Ubisoft"]
    assert "Dave" not in _spans("I work for Dave now, at his garage.", "organisation", "company")
    assert _spans("flying home to Perth for Christmas", "organisation", "company") == []


def test_a_car_by_its_model_and_a_model_word_only_with_its_capital() -> None:
    assert _spans("Honestly the Corsa and I have lived on the M4 this week.", "thing", "car") == ["Corsa"]
    assert _spans("the Fiesta failed its MOT on fri", "thing", "car") == ["Fiesta"]
    assert _spans("we played golf then drove home", "thing", "car") == []
    assert names_vehicle("a little Yaris") and names_vehicle("the Fiesta") and not names_vehicle("in focus")
    # a turn that names only the model is read for a car at all, and the model's name says the category
    car = Asked("thing", "car")
    assert may_hold(car, "the Fiesta failed its MOT on fri", None)
    assert all(s.cued for s in members_said(next(parse("the Fiesta failed its MOT").sents), "car"))


def test_a_model_picked_up_is_owned_and_one_sold_is_not() -> None:
    text = "Sold the Corsa at last. Picked up a little Yaris, hybrid."
    got = extract(text, speaker="Ollie", listeners=["Wren"], when=datetime(2024, 9, 2, tzinfo=UTC),
                  registry=PredicateRegistry.load())
    assert {(g.predicate, g.object, g.polarity) for g in got} == {("owns", "Corsa", "retract"),
                                                                  ("owns", "Yaris", "assert")}


def test_the_car_then_and_now_with_the_turns_that_say_them_first(wo: tuple[Memory, str]) -> None:
    m, group = wo
    then = m.ask("What car was Ollie driving in March 2024?", group=group)
    assert then.answer == "Corsa"
    assert then.evidence[0].source_ref == "D1:2"  # said by then, not "sold the Corsa" (D2:1)
    now = m.ask("What car does Ollie drive now?", group=group)  # no turn of Ollie's says "car" or "drive"
    assert now.answer == "Yaris" and now.evidence[0].source_ref == "D2:1"
    # Wren's own words fit "vehicle" and "drive" better, but Ollie's own clause names a car's model
    assert m.ask("What vehicle does Ollie drive now?", group=group).answer == "Yaris"


def test_a_workplace_the_tagger_took_for_a_place_answers_where_they_work(wo: tuple[Memory, str]) -> None:
    m, group = wo
    assert m.ask("Where does Wren work now?", group=group).answer == "Telstra"


def test_a_pet_named_in_the_language_a_chat_switches_into() -> None:
    assert _spans("Nuestro perro se llama Chispa.", "pet_name", "dog") == ["Chispa"]
    assert _spans("On a adopté un chien, il s'appelle Poutine.", "pet_name", "dog") == ["Poutine"]
    assert _spans("I had a chat with Maria about work.", "pet_name", "dog") == []  # "chat": English too


def test_a_firm_tagged_with_its_town_is_the_firm() -> None:
    assert _spans("started at Dell in Round Rock, bien contento", "organisation", "company") == ["Dell"]


def test_in_a_spanish_turn_a_place_needs_the_gazetteer_and_a_preposition() -> None:
    turn = "Ya no voy a Zumba, no está mi amá aquí. Hay un chavo, Adrián, que me ayudó con los wraps."
    assert _spans(turn, "place", "") == []  # a friend's name the tagger called a place
    assert _spans("Como 12 docenas, ya sabes como es. Se comió como 9, otro nivel.", "place", "") == []
    assert _spans("Ya me mudé a Austin en marzo, está bien bonito.", "place", "") == ["Austin"]


def test_a_firm_named_after_its_town_is_a_firm_however_tagged() -> None:
    assert _spans("got a job as an electrician wi Edinburgh Trams.", "organisation", "company") \
        == ["Edinburgh Trams"]  # (tagged a person)
    assert _spans("I met Tom Hardy and Sarah Jones at the gym.", "organisation", "company") == []
