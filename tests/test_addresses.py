"""A home said as an address says it: a part of a town with its town ("a flat in Pankow. Still
Berlin" → "Pankow, Berlin"; "we live in Lisbon now, in a tiny flat in Alfama" → "Alfama, Lisbon"),
the town alone for "which city", a job offer taken up ("asked me to step up as charge nurse. I said
yes") or turned down ("offered me a ward manager post. I turned it down."), and a start dated by the
day it names ("I start at Kestrel on Monday the 3rd"). Our own messages
(tests/data/reader/signe_tamar.json) on each store."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from tkg.memory import Memory
from tkg.words import near

DATA = Path(__file__).parent / "data" / "reader" / "signe_tamar.json"


@pytest.fixture(scope="module")
def st(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "signe-tamar", DATA)


def test_a_part_of_a_town_is_near_it_not_a_namesake_far_off() -> None:
    assert near("Pankow", "Berlin") is True
    assert near("Dublin", "London") is False and near("Dublin", "Columbus") is True  # the Ohio one
    assert near("Fallowfield", "Manchester") is None  # a name it does not know


def test_a_home_in_a_part_of_a_town_is_answered_with_its_town(st: tuple[Memory, str]) -> None:
    m, group = st
    now = m.ask("Where does Signe live now?", group=group)
    assert now.answer == "Pankow, Berlin", now.trace.get("reading")
    assert now.evidence[0].source_ref == "D2:1"
    assert m.ask("Where was Signe living in May 2024?", group=group).answer == "Moabit, Berlin"


def test_a_town_said_as_home_takes_the_part_said_with_it(st: tuple[Memory, str]) -> None:
    m, group = st
    assert m.ask("Where does Tamar live now?", group=group).answer == "Alfama, Lisbon"


def test_which_city_answers_the_town_not_its_part(st: tuple[Memory, str]) -> None:
    m, group = st
    assert m.ask("Which city does Signe live in now?", group=group).answer == "Berlin"
    assert m.ask("Which city does Tamar live in?", group=group).answer == "Lisbon"


def test_an_offer_taken_up_is_held_and_one_turned_down_is_not(st: tuple[Memory, str]) -> None:
    m, group = st
    job = m.ask("What was Signe's job in December 2024?", group=group)
    assert job.answer == "charge nurse", job.trace.get("reading")
    assert job.evidence[0].source_ref == "D1:3"
    assert m.ask("What is Signe's job now?", group=group).answer.startswith("practice nurse")


def test_a_start_is_dated_by_the_day_its_telling_names(st: tuple[Memory, str]) -> None:
    m, group = st
    start = m.ask("When did Signe start at the Kestrel clinic?", group=group)
    assert start.answer.startswith("3 March 2025"), start.trace.get("reading")
    assert start.evidence[0].source_ref == "D4:1"
