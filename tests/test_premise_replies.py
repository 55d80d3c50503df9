"""Presuppositions a question states by its reply or by world knowledge: "how did the Quarrow 5K
go?" answered without a denial says the race took place; everyone has a birthday; "her baby" after
"Oksana's cousin" is the cousin's. A texting "ur" speaks to the listener, and a salary is a sum of
money. Sentences are our own."""

from __future__ import annotations

from datetime import UTC, datetime

from planners.asked import asked_for
from planners.question import parse as parse_question
from procedures.about import Subject
from procedures.abstain import about_speaker
from procedures.premise import check
from procedures.presupposed import presupposed
from procedures.span_numbers import amounts
from tkg.models import Evidence
from tkg.nlp import parse

OKSANA = Subject("Oksana", frozenset({"oksana"}), speaker=True)
SPEAKERS = ("Oksana", "Bram")


def _said(text: str, speaker: str, episode: str, day: int) -> Evidence:
    return Evidence(f"D{day}:1", episode, text, datetime(2024, 5, day, tzinfo=UTC), 1.0, "g", speaker=speaker)


def test_an_outcome_question_answered_without_a_denial_states_the_thing() -> None:
    plan = _said("If my knee holds I might run the Quarrow 5K in June.", "Oksana", "e1", 1)
    asked = _said("How did the Quarrow 5K go? You went quiet.", "Bram", "e2", 20)
    q = parse_question("What was Oksana's time at the Quarrow 5K?")
    assert not check(q, OKSANA, [plan, asked], SPEAKERS).holds  # only planned, only asked
    assert check(q, OKSANA, [plan, asked], SPEAKERS, {"e2": "Slow, honestly. 27:40 but my knee held."}).holds
    assert not check(q, OKSANA, [plan, asked], SPEAKERS, {"e2": "It didn't happen, they cancelled it."}).holds


def test_everyone_has_a_birthday() -> None:
    asked = _said("When's your birthday again?", "Bram", "e1", 2)
    told = _said("Mine is the 3rd of August.", "Oksana", "e2", 2)
    assert check(parse_question("When is Oksana's birthday?"), OKSANA, [asked, told], SPEAKERS).holds


def test_her_baby_after_a_relative_is_the_relatives() -> None:
    assert presupposed(parse_question("When did Oksana's cousin have her baby?")) == set()
    assert "baby" in presupposed(parse_question("When did Oksana have her baby?"))


def test_texting_second_person_speaks_to_the_listener() -> None:
    assert not about_speaker("ur band name will never not be funny", ["band"])
    assert about_speaker("my band is called Soft Ferns", ["band"])


def test_a_salary_is_a_sum_of_money() -> None:
    """"What salary did they offer" is answered by a sum of money only ("three" is no salary); a
    thousands figure after a currency sign is one."""
    assert asked_for("What salary did Kestrel offer Oksana?").head == "amount"
    assert asked_for("What rent does Bram pay?").head == "amount"
    sent = next(iter(parse("They came back at $95k yesterday, plus a bonus.").sents))
    assert [s.text for s in amounts(sent)] == ["95k"]
    three = next(iter(parse("I had three interviews this week.").sents))
    assert amounts(three) == []
