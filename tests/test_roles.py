"""A person named for a role the vocabulary has no predicate for (procedures/roles.py), read from
clause structure, and the chain questions it bridges, on our own conversation
tests/data/reader/odile_fen.json: a bassist named by "X on bass", a first apprentice in
apposition, a business partner beside the speaker ("yesenka and i ... our own shop")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import Asked
from procedures.about import Subject
from procedures.choice import choose
from procedures.cue_words import KIND_CUES
from procedures.reader import Candidate
from procedures.roles import joint_role, named_for_role, role_bases
from procedures.spans import spans_of
from procedures.verb_args import present
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.text import content_terms

DATA = Path(__file__).parent / "data" / "reader" / "odile_fen.json"
ODILE = Subject("Odile", frozenset({"odile"}), speaker=True)


def _turn(text: str, speaker: str = "Odile", ref: str = "D1:1") -> Evidence:
    return Evidence(ref, ref, text, None, 1.0, "g", speaker=speaker)


def test_an_agent_noun_is_named_for_an_english_word() -> None:
    assert role_bases("drummer") == {"drum"} and role_bases("bassist") == {"bass"}
    assert role_bases("employee") == {"employ"} and role_bases("boss") == set()
    assert joint_role("co-founder") and joint_role("bandmate") and joint_role("partner", ["business"])
    assert not joint_role("cousin") and not joint_role("landlord")


@pytest.mark.parametrize(("role", "text", "name"), [
    ("apprentice", "i took on my first apprentice, quillon.", "quillon"),  # apposition
    ("landlord", "Our landlord is Mr Petrakis, sadly.", "Petrakis"),  # a copula
    ("bassist", "me on keys, brannock on bass, the usual chaos", "brannock"),  # what the role plays
    ("co-founder", "yesenka and i signed the lease on our own print shop.", "yesenka"),  # beside the speaker
])
def test_a_role_is_named_by_the_clause(role: str, text: str, name: str) -> None:
    found = named_for_role(role, (), ODILE, [_turn(text)], set())
    assert name in [n.split()[-1] for n, _ in found], found


def test_a_joint_role_needs_the_speaker_and_something_of_theirs() -> None:
    anchored = [_turn("yesenka and i went to the cinema.")]
    assert named_for_role("co-founder", (), ODILE, anchored, set()) == []  # nothing founded, nothing theirs
    assert named_for_role("co-founder", (), ODILE, anchored, {"cinema"}) != []  # the question's own word
    other = [_turn("yesenka and i signed the lease on our own print shop.", speaker="Fen")]
    assert named_for_role("co-founder", (), ODILE, other, set()) == []  # Fen's partner, not Odile's


def test_a_place_after_to_stays_a_place_when_the_tagger_calls_it_a_verb() -> None:
    sent = next(parse("brannock is relocating to derby for a research post").sents)
    assert [s.text for s in spans_of(sent, "place", "city")] == ["derby"]
    sent = next(parse("we decided to split the bill").sents)
    assert spans_of(sent, "place", "city") == []  # "split" is an English verb (and a town)


@pytest.mark.parametrize(("text", "roles"), [
    ("Ines is captaining the late ferry to Vlissingen these days.", ["late ferry captain"]),
    ("he has been coaching the under-12s since spring", ["under-12s coach"]),
    ("I was cooking dinner when you called", []),  # "cook" is a job, cooking dinner is not
    ("we are nursing a cold", []),
])
def test_a_role_noun_used_as_a_verb_names_the_role(text: str, roles: list[str]) -> None:
    assert [s.text for sent in parse(text).sents for s in spans_of(sent, "role", "job")] == roles


def test_kind_cues_are_stems_a_sentence_shares() -> None:
    assert content_terms("we finally got married!") & KIND_CUES["status"]
    assert content_terms("she got promoted last week") & KIND_CUES["role"]


def test_a_present_tense_status_question_asks_how_it_stands_now() -> None:
    assert present("What is Dana's relationship status?")
    assert not present("What was Dana's relationship status in 2019?")


def test_a_window_takes_a_fair_value_said_by_its_end_when_the_strong_ones_came_later() -> None:
    def cand(value: str, score: float, month: int) -> Candidate:
        when = datetime(2021, month, 1, tzinfo=UTC)
        return Candidate(value, score, when, _turn(value, ref=f"D{month}:1"), "turn")

    asked = Asked("role", "title")
    window = (datetime(1900, 1, 1, tzinfo=UTC), datetime(2021, 3, 1, tzinfo=UTC))
    chosen, how = choose(asked, [cand("trainee buyer", 0.45, 2), cand("head buyer", 0.9, 9)],
                         latest=False, window=window)
    assert [c.value for c in chosen] == ["trainee buyer"], how
    chosen, _ = choose(asked, [cand("trainee buyer", 0.3, 2), cand("head buyer", 0.9, 9)],
                       latest=False, window=window)
    assert chosen == []  # too weak even then


# question: (a word of the answer, the person the chain goes through)
CHAINS = {
    "Which city did the bassist of Odile's band move to?": ("derby", "brannock"),  # "brannock on bass"
    "Where did Odile's first apprentice work before?": ("fernhill", "quillon"),
    "Which city does Odile's business partner live in?": ("ghent", "yesenka"),  # "yesenka and i ... our own"
}


@pytest.fixture(scope="module")
def odile(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "odile-fen", DATA)


def test_a_chain_through_a_role_reads_the_named_persons_value(odile: tuple[Memory, str]) -> None:
    m, group = odile
    for question, (wanted, bridge) in CHAINS.items():
        a = m.ask(question, group=group)
        reading = a.trace.get("reading") or {}
        got = (wanted in a.answer.lower(), a.abstained, str(reading.get("bridge") or "").lower())
        assert got == (True, False, bridge), (question, a.answer, reading)



def _roles(text: str) -> list[tuple[str, bool]]:
    return [(s.text, s.cued) for s in spans_of(next(parse(text).sents), "role", "job")]


def test_a_job_named_after_a_dash_is_a_role_given() -> None:
    assert _roles("Kestrel gave me her job - shift supervisor, from June.") == [("shift supervisor", True)]
    assert _roles("I got the promotion - senior analyst!") == [("senior analyst", True)]
    assert _roles("My manager - Wren - is lovely.") == []
