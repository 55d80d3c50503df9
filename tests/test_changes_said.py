"""Changes said by the old value and the new one, and homes, cars and pets said in passing: "switched
from the trumpet to the trombone", "traded it in for a little Fiat Panda", "got the keys to the Roath
flat", "first night in Canton!! boxes everywhere", "Pesto, a Ragdoll", "I called him Cawl". Our own
messages (tests/data/reader/rhian_tomos.json) on each store, and our own sentences for the rules.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from planners.question import parse as parse_question
from procedures.about import Subject, clause_about
from procedures.clauses import clause_subject
from procedures.result import ProcedureResult
from procedures.sentence_value import echoed, names_kind, sentence_for_value
from procedures.span_base import proper_runs
from procedures.span_objects import site_of_object
from procedures.spans import spans_of
from procedures.stated import hypothetical
from procedures.swaps import replaced, replacing
from tkg.extract.engine import extract
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.predicates import PredicateRegistry

DATA = Path(__file__).parent / "data" / "reader" / "rhian_tomos.json"
WHEN = datetime(2024, 3, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def rt(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "rhian-tomos", DATA)


def _facts(text: str, speaker: str = "Ana") -> list[tuple[str, str, str, str]]:
    got = extract(text, speaker=speaker, listeners=["Bo"], when=WHEN, registry=PredicateRegistry.load())
    return [(g.subject, g.predicate, g.object, g.polarity) for g in got]


def test_the_new_value_of_a_switch_answers_now(rt: tuple[Memory, str]) -> None:
    m, group = rt  # "I switched from the trumpet to the trombone": the trumpet was said first, and again
    assert m.ask("What instrument does Rhian play now?", group=group).answer == "trombone"


def test_a_trade_in_a_home_by_its_keys_and_a_pet_named_by_its_breed(rt: tuple[Memory, str]) -> None:
    m, group = rt
    now = {f.predicate: f.object for f in m.state("Rhian", group=group)}
    assert now["owns"] == "Fiat Panda" and now["lives_in"] == "Roath" and now["has_pet"] == "Cawl"
    assert [f.object for f in m.state("Tomos", "has_pet", group=group)] == ["Pesto"]
    assert m.ask("What car does Rhian drive now?", group=group).answer == "Fiat Panda"
    assert m.ask("Where does Rhian live now?", group=group).answer == "Roath"
    assert m.ask("Which dog lives with Rhian now?", group=group).answer == "Cawl"


def test_a_tag_after_a_sentence_says_whose_its_subject_is(rt: tuple[Memory, str]) -> None:
    m, group = rt  # "Gethin did his first shift as a paramedic yday. my little bro!!"
    assert m.ask("What is the name of Rhian's brother?", group=group).answer == "Gethin"


def test_a_thing_owned_answers_no_question_of_another_kind(rt: tuple[Memory, str]) -> None:
    m, group = rt  # Tomos "bought a cat flap": no bike; Rhian's bike is a Raleigh "if you want to borrow it"
    assert m.ask("What bike does Tomos ride now?", group=group).abstained
    assert "Raleigh" in m.ask("What bike does Rhian ride now?", group=group).answer


@pytest.mark.parametrize(("text", "old", "new"), [
    ("We switched from oat milk to soya last month.", "oat", "soya"),
    ("Nia moved from Swansea to Bangor in the spring.", "Swansea", "Bangor"),
    ("He left Monzo for Starling after a year.", "Monzo", "Starling"),
    ("I swapped the scooter for a cargo bike.", "scooter", "bike"),
])
def test_the_old_and_the_new_value_of_a_change(text: str, old: str, new: str) -> None:
    doc = parse(text)
    word = {t.text: t for t in doc}
    assert replaced(word[old]) and not replacing(word[old])
    assert replacing(word[new]) and not replaced(word[new])


def test_a_trip_from_one_place_to_another_is_no_change() -> None:
    doc = parse("We drove from Swansea to Bangor for the match.")
    assert not any(replaced(t) or replacing(t) for t in doc)


@pytest.mark.parametrize(("text", "fact"), [
    ("We finally got the keys to the Cathays flat on Friday!", ("Ana", "lives_in", "Cathays", "assert")),
    ("first night in Pontprennau!! boxes everywhere", ("Ana", "lives_in", "Pontprennau", "assert")),
    ("Our first weekend in the new flat in Grangetown, still unpacking",
     ("Ana", "lives_in", "Grangetown", "assert")),
    ("Traded it in for a secondhand Toyota Yaris, so the commute is cheaper.",
     ("Ana", "owns", "Toyota Yaris", "assert")),
    ("We have a puppy now. Bara, a Cockapoo, and she chews everything.",
     ("Ana", "has_pet", "Bara", "assert")),
    ("There was a kitten at the shelter, tiny and grey, and I called him Sgwd.", ("Ana", "has_pet", "Sgwd",
                                                                                  "assert")),
])
def test_homes_cars_and_pets_said_in_passing(text: str, fact: tuple[str, str, str, str]) -> None:
    assert fact in _facts(text)


@pytest.mark.parametrize("text", [
    "first night in Lisbon was magical, the hotel has a pool",  # a first night away, no move
    "Dai got the keys to the Cathays flat on Friday",  # his keys
    "My cousin got a puppy. Bara, a Cockapoo, and she chews everything.",  # the cousin's
    "My niece got a hamster and she called it Pip.",
])
def test_no_home_or_pet_of_the_speaker(text: str) -> None:
    assert not [f for f in _facts(text) if f[0] == "Ana" and f[1] in ("lives_in", "has_pet")]


def test_a_left_out_i_before_a_clause_the_tagger_put_first() -> None:
    doc = parse("Traded it in for a secondhand Nissan Leaf, so Hannah can charge it at the practice.")
    leaf = next(t for t in doc if t.text == "Leaf")
    owen = Subject("Owen", frozenset({"owen"}), True)
    assert clause_about(owen, leaf, speaker="Owen", speakers=("Owen", "Sofia"), fallback=0.5) == 0.9
    hannah = Subject("Hannah", frozenset({"hannah"}), False)
    assert clause_about(hannah, leaf, speaker="Owen", speakers=("Owen", "Sofia"), fallback=0.5) < 0.5


def test_a_dialect_auxiliary_is_no_subject() -> None:
    doc = parse("Choir gist: I don switch from keyboard to bass guitar.")
    bass = next(t for t in doc if t.text == "guitar")
    tolu = Subject("Tolu", frozenset({"tolu"}), True)
    assert clause_about(tolu, bass, speaker="Tolu", speakers=("Tolu", "Funmi"), fallback=0.5) == 0.9


def test_which_noun_verbs_asks_for_the_noun() -> None:
    cat = asked_for("Which cat lives with Nia now?")
    assert (cat.kind, cat.head) == ("pet_name", "cat")
    assert asked_for("Which band plays at the Crown on Fridays?").head == "band"
    assert asked_for("What running shoes in 2022 did she buy?").head == "shoe"


def test_a_polite_condition_supposes_nothing() -> None:
    assert not hypothetical(parse("The spare room is yours if you want it.")[:])
    assert hypothetical(parse("If I got a cat I would call it Miso.")[:])


def _copied(text: str) -> ProcedureResult:
    ev = Evidence("D1:1", "e1", f"Ok. {text} See you then.", WHEN, 1.0, "g", speaker="Ana")
    return ProcedureResult(text, [ev])


def test_a_reply_copied_from_a_turn_is_no_value_of_a_state() -> None:
    q = parse_question("What car does Ana drive?")  # a current value, asked without "now"
    assert echoed(_copied("Will do.")) and not echoed(_copied("Fiat Panda"))
    read = sentence_for_value(q, _copied("Will do."), {}, [], state=True)
    assert read is not None and read.abstained
    assert sentence_for_value(q, _copied("Will do."), {}, [], state=False) is None  # not a state: it stands


def test_the_category_said_names_no_value_now() -> None:
    q = parse_question("Which unit does Ana work on now?")
    said = "did my first shift in charge of the unit on thurs."
    assert names_kind(said, q) and not names_kind(said, q, head_word=False)
    read = sentence_for_value(q, _copied(said), {}, [])
    assert read is not None and read.abstained


def test_a_make_keeps_its_model_number() -> None:
    sent = parse("Bisi gave me her old iPhone 13, and I sold the Ford 2 weeks ago.")[:]
    assert [sp.text for sp in spans_of(sent, "thing", "phone")] == ["iPhone 13"]
    assert [sp.text for sp in spans_of(sent, "thing", "car")] == ["Ford"]


def test_a_workplace_left_and_one_joined_at_a_site() -> None:
    doc = parse("She has left Lloyds and joined Monzo at Canary Wharf as an analyst.")
    word = {t.text: t for t in doc}
    assert replaced(word["Lloyds"]) and not replaced(word["Monzo"])
    assert site_of_object(word["Wharf"]) and not site_of_object(word["Monzo"])


def test_a_relative_named_in_the_question_is_whose_not_what() -> None:
    named = asked_for("Where does Ana's cousin Bisi work now?")
    assert (named.kind, named.head) == ("organisation", "")  # an employer's cue words, not a cousin's


def test_the_nearest_of_two_subjects_the_tagger_gave_a_verb() -> None:
    doc = parse("he met Dai last wk too, Dai's home loads now bc he left Monzo for Starling, he's in Leeds")
    starling = next(t for t in doc if t.text == "Starling")
    assert clause_subject(starling).lower_ == "he"


def test_a_brand_with_a_number_is_a_name_and_a_tag_says_whose() -> None:
    sent = parse("He left Jetstar for Jet2 in March.")[:]
    assert "Jet2" in [sp.text for sp in proper_runs(sent)]
    assert not [sp for sp in proper_runs(parse("I got the A54 in March.")[:]) if sp.text == "A54"]
    assert ("Ana", "sibling_of", "Dai") in [f[:3] for f in _facts("Dai is my bro, he flies for Jet2")]


def test_a_kin_word_is_no_name() -> None:
    assert not spans_of(parse("no way, tell ur bro congrats.")[:], "person", "sister")
    assert asked_for("Who is Ana's bro?").kind == "person"
