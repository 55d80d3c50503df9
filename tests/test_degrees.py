"""Spans typed by a phrase pattern: what someone studies is a degree they name ("Bachelor of Nursing",
"her midwifery degree"), read from a turn that never says "study", the newest one now; where a thing was
had from is what a "from" after a getting verb names ("got him from the rescue centre"), not any place
said with "from"; a partner may be a name introduced ("his name is tomas") in a turn or reply that says
romance ("we met at the climbing wall"). Our own sentences, and our own conversation end to end
(tests/data/reader/yara_ben.json) on each store."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.span_patterns import degrees, sources
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "yara_ben.json"


@pytest.mark.parametrize(("sentence", "named"), [
    ("and I got an offer from Deakin for Bachelor of Nursing!", ["Bachelor of Nursing"]),
    ("she's started her midwifery degree at leeds", ["midwifery"]),
    ("he did a master's in data science at UCL", ["master's in data science"]),
    ("I have a degree in physics", ["degree in physics"]),
    ("a degree is a degree", []),  # no field is named
    ("I finished my degree", []),
])
def test_a_degree_is_named_by_its_field(sentence: str, named: list[str]) -> None:
    assert [sp.text for x in parse(sentence).sents for sp in degrees(x)] == named


@pytest.fixture(scope="module")
def yb(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "yara-ben", DATA)


def test_what_someone_studies_now_is_the_newest_degree_they_name(yb: tuple[Memory, str]) -> None:
    m, group = yb
    a = m.ask("What is Yara studying now?", group=group)
    assert "Forestry" in a.answer and not a.abstained, (a.answer, a.trace.get("reading"))
    assert a.trace["reading"]["support"] == ["D2:1"]  # the turn that names it, with no "study" in it


@pytest.mark.parametrize(("sentence", "named"), [
    ("[photo] got him from the rspca centre in leeds this morning", ["rspca centre"]),
    ("since saturday! from the greyhound trust in cheshire.", ["greyhound trust"]),  # a fragment
    ("we got him from the shelter on tuesday", ["shelter"]),
    ("she came from Leeds", []),  # no getting verb
    ("I bought it from a guy on Gumtree", []),  # who, not where
])
def test_where_a_thing_was_had_from_is_what_from_names_after_a_getting_verb(sentence: str,
                                                                           named: list[str]) -> None:
    assert [sp.text for x in parse(sentence).sents for sp in sources(x)] == named


def test_where_a_pet_was_adopted_from_is_the_getting_turns_source(yb: tuple[Memory, str]) -> None:
    m, group = yb
    a = m.ask("Where did Yara adopt Moss from?", group=group)  # not "from my aunt's place in Dunmore"
    assert "rescue centre" in a.answer and not a.abstained, (a.answer, a.trace.get("reading"))


def test_a_partner_is_a_name_introduced_with_romance(yb: tuple[Memory, str]) -> None:
    m, group = yb
    a = m.ask("Who is Yara seeing now?", group=group)  # "his name is tomas. we met at the climbing wall"
    assert a.answer.lower() == "tomas" and not a.abstained, (a.answer, a.trace.get("reading"))
