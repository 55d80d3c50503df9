"""What a "now" question needs the ingest to have kept: a relative named by its owner stays apart from
the owner ("my parents" is not the speaker), a job said with "still" and an acronym ("still a junior QA
engineer at …"), a time in a later "…, but" clause not dating the one before, "moved into" a named
place, and two people moving together ("Ferdie and Maud moved into …"). Our own sentences
(tests/data/reader/latest_moves.json)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from planners.hop_planner import find_mentions
from procedures.choice import choose
from procedures.reader import Candidate
from procedures.stated import hypothetical, past_state
from tkg.extract.engine import extract
from tkg.ingest.resolve import EntityResolver
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.predicates import PredicateRegistry

DATA = Path(__file__).parent / "data" / "reader" / "latest_moves.json"
SAID = datetime(2024, 2, 12, 19, 5, tzinfo=UTC)
REG = PredicateRegistry.load()


def _facts(text: str, speaker: str = "Ysolde") -> set[tuple[str, str, str, str]]:
    got = extract(text, speaker=speaker, listeners=["Corwin"], when=SAID, registry=REG)
    return {(c.subject, c.predicate, c.object, c.polarity) for c in got}


def test_a_relative_named_by_its_owner_is_not_the_owner() -> None:
    for order in (["Ysolde's parents", "Ysolde"], ["Ysolde", "Ysolde's parents"]):
        idx = EntityResolver("g", [])
        first, second = (idx.resolve(n, "person") for n in order)
        assert first.uuid != second.uuid
        assert {first.name, second.name} == {"Ysolde", "Ysolde's parents"}
        assert not first.aliases and not second.aliases
    idx = EntityResolver("g", [])
    short = idx.resolve("St Brigid's", "organisation")  # a place's own possessive is still its name
    assert idx.resolve("St Brigid's Hospital", "organisation").uuid == short.uuid


def test_still_and_an_acronym_in_a_job_title() -> None:
    assert _facts("I'm still a junior QA engineer at Tollgate Systems.") >= {
        ("Ysolde", "job_title", "junior QA engineer", "assert"),
        ("Ysolde", "works_at", "Tollgate Systems", "assert"),
    }
    assert _facts("I'm an HR manager for Pellworth.") >= {("Ysolde", "job_title", "HR manager", "assert")}


def test_a_time_after_but_belongs_to_its_own_clause() -> None:
    got = extract("I'm a nurse at Fenwick Clinic, but there may be a restructure in the spring.",
                  speaker="Ysolde", listeners=["Corwin"], when=SAID, registry=REG)
    works = [c for c in got if c.predicate == "works_at"]
    assert works and works[0].valid_at is None  # the spring is the restructure's, not the job's
    moved = extract("I moved to Tarbert in March, but the ferry was late.", speaker="Ysolde",
                    listeners=["Corwin"], when=SAID, registry=REG)
    # the last March before the turn
    assert [c.valid_at for c in moved if c.predicate == "lives_in"] == [datetime(2023, 3, 1, tzinfo=UTC)]


@pytest.mark.parametrize(("text", "wanted"), [
    ("Ferdie and Maud moved into Willowbrook Lodge last Tuesday.",
     {("Ferdie", "lives_in", "Willowbrook Lodge", "assert"),
      ("Maud", "lives_in", "Willowbrook Lodge", "assert")}),
    ("And Ferdie and Maud live in Kilbride.",
     {("Ferdie", "lives_in", "Kilbride", "assert"), ("Maud", "lives_in", "Kilbride", "assert")}),
    ("We moved into Harrow Mews in May.", {("Ysolde", "lives_in", "Harrow Mews", "assert")}),
])
def test_moving_into_a_named_place_and_two_people_moving_together(
        text: str, wanted: set[tuple[str, str, str, str]]) -> None:
    assert _facts(text) >= wanted


@pytest.fixture(scope="module")
def moves(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "latest-moves", DATA)


def test_the_speakers_own_slots_survive_a_relative_named_after_them(moves: tuple[Memory, str]) -> None:
    mem, group = moves
    now = {(f.predicate, f.object) for f in mem.state("Ysolde", group=group)}
    assert ("lives_in", "Carrowmore") in now and ("works_at", "Tollgate Systems") in now
    assert not any("parents" in f.subject for f in mem.state("Ysolde", group=group))
    got = mem.ask("Where does Maud live now?", group=group)
    assert "Willowbrook" in got.answer
    assert "Tollgate" in mem.ask("Where does Ysolde work these days?", group=group).answer


@pytest.mark.parametrize(("text", "wanted", "unwanted"), [
    ("Still at Brennick, still in Montreal.",  # "Montreal" is the gazetteer's "Montréal"
     {("Ysolde", "works_at", "Brennick", "assert"), ("Ysolde", "lives_in", "Montreal", "assert")}, set()),
    ("we're still in Tromsø lol", {("Ysolde", "lives_in", "Tromsø", "assert")}, set()),
    ("My sister is still in Leeds.", set(), {("Ysolde", "lives_in", "Leeds", "assert")}),
    ("Are you still in Leeds?", set(), {("Ysolde", "lives_in", "Leeds", "assert")}),
    # a reply about someone else: "is she still in Leeds?" – "yep, still in Leeds. She says …"
    ("Yep, still at the bakery, still in Leeds. She says hi.", set(),
     {("Ysolde", "lives_in", "Leeds", "assert")}),
    ("still at Glasgow, the ferry is late", set(), {("Ysolde", "works_at", "Glasgow", "assert")}),
])
def test_still_in_a_place_says_where_the_speaker_lives(
        text: str, wanted: set[tuple[str, str, str, str]], unwanted: set[tuple[str, str, str, str]]) -> None:
    got = _facts(text)
    assert got >= wanted and not got & unwanted


def test_a_question_reads_an_owned_name_as_its_owner_and_a_relation() -> None:
    names = ["Ysolde", "Ysolde's parents", "St Brigid's Hospital"]
    found = [m.canonical for m in find_mentions("Where do Ysolde's parents live?", names)]
    assert found == ["Ysolde"]  # the relation is the planner's, as for any possessive
    hospital = [m.canonical for m in find_mentions("Is St Brigid's Hospital far?", names)]
    assert hospital == ["St Brigid's Hospital"]


def test_what_someone_was_given_is_theirs(moves: tuple[Memory, str]) -> None:
    mem, group = moves
    assert "scooter" in mem.ask("What does Ysolde ride to get around now?", group=group).answer


@pytest.mark.parametrize(("text", "wanted", "unwanted"), [
    ("I got made senior editor at Harlow & Finch last week.",
     {("Ysolde", "job_title", "senior editor", "assert"), ("Ysolde", "works_at", "Harlow & Finch", "assert")},
     set()),
    ("we made a designer very happy", set(), {("Ysolde", "job_title", "designer", "assert")}),
    ("I've got a job at Tessaly Learning writing maths quizzes for kids.",  # the name ends before the clause
     {("Ysolde", "works_at", "Tessaly Learning", "assert")}, set()),
])
def test_made_a_title_and_a_name_that_a_clause_follows(
        text: str, wanted: set[tuple[str, str, str, str]], unwanted: set[tuple[str, str, str, str]]) -> None:
    got = _facts(text)
    assert got >= wanted and not got & unwanted


def test_a_time_before_and_i_have_belongs_to_the_clause_before() -> None:
    got = extract("I handed in my notice in July and I've got a job at Tessaly Learning.", speaker="Ysolde",
                  listeners=["Corwin"], when=SAID, registry=REG)
    assert [c.valid_at for c in got if c.predicate == "works_at"] == [None]  # July dates the notice


def test_someone_elses_wish_for_them_is_no_statement() -> None:
    assert hypothetical(next(parse("Brackwell wanted me to relocate to their Oslo office.").sents))
    assert not hypothetical(next(parse("Brackwell relocated me to their Oslo office.").sents))


@pytest.mark.parametrize(("text", "wanted", "unwanted"), [
    ("I traded in my Corolla for a used Skoda Octavia last month.",
     {("Ysolde", "owns", "Corolla", "retract"), ("Ysolde", "owns", "Skoda Octavia", "assert")}, set()),
    ("I swapped my shift for a day off.", set(), {("Ysolde", "owns", "day", "assert")}),
    ("I've been driving back and forth three hours a day.", set(), {("Ysolde", "owns", "back", "assert")}),
    ("I drive an old Volvo estate now.", {("Ysolde", "owns", "old Volvo estate", "assert")}, set()),
    ("I started a fully remote analyst job at Pryce & Dorn on Monday.",  # one name with its ampersand
     {("Ysolde", "works_at", "Pryce & Dorn", "assert")}, set()),
])
def test_a_vehicle_traded_for_driven_and_an_ampersand_name(
        text: str, wanted: set[tuple[str, str, str, str]], unwanted: set[tuple[str, str, str, str]]) -> None:
    got = _facts(text)
    assert got >= wanted and not got & unwanted


@pytest.mark.parametrize(("question", "kind"), [
    ("Who does Ysolde currently work for?", "organisation"),
    ("Who was she working for in March 2022?", "organisation"),
    ("Who did Ysolde work for before?", "organisation"),
    ("Who works for Ysolde?", "person"),  # her staff
    ("Who does Ysolde report to?", "person"),
])
def test_who_someone_works_for_asks_for_an_employer(question: str, kind: str) -> None:
    assert asked_for(question).kind == kind


def test_a_past_state_held_before_the_turn() -> None:
    def at(text: str, word: str) -> bool:
        doc = parse(text)
        return past_state(next(t for t in doc if t.text == word))
    assert at("In Porto I was a junior developer for two years.", "Porto")
    assert at("I lived in Leeds for ages.", "Leeds")
    assert not at("I moved to Leeds.", "Leeds")  # a move's state goes on
    assert not at("I live in Leeds.", "Leeds")
    assert not at("I was still in Leeds then.", "Leeds")
    assert at("We met while I was teaching English in Hanoi.", "Hanoi")  # a past progressive, any verb
    assert not at("I am teaching English in Hanoi.", "Hanoi")


def test_in_a_window_values_said_the_same_day_go_by_support() -> None:
    day = datetime(2024, 1, 14, 16, 30, tzinfo=UTC)
    home = Evidence("D1:3", "D1:3", "Shared house in Kilmore.", day, 1.0, "g", speaker="Ysolde")
    past = Evidence("D1:7", "D1:7", "In Porto I was a developer.", day.replace(second=6), 1.0, "g",
                    speaker="Ysolde")
    cands = [Candidate("Kilmore", 0.96, home.valid_at, home, "turn"),
             Candidate("Porto", 0.62, past.valid_at, past, "turn")]
    window = (datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 2, 1, tzinfo=UTC))
    asked = asked_for("Where was Ysolde living in January 2024?")
    chosen, _ = choose(asked, cands, latest=False, window=window)
    assert [c.value for c in chosen] == ["Kilmore"]  # four seconds later is the same conversation


def test_a_job_is_said_with_its_employer(moves: tuple[Memory, str]) -> None:
    mem, group = moves
    got = mem.ask("What's Ysolde's job these days?", group=group).answer
    assert "QA engineer" in got and "Tollgate Systems" in got
