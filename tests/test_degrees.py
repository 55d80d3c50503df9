"""What someone studies is a degree they name ("Bachelor of Nursing", "her midwifery degree"), read from a
turn that never says "study"; the newest one is what they study now. Our own sentences, and our own
conversation end to end (tests/data/reader/yara_ben.json) on each store."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.span_context import degrees
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
