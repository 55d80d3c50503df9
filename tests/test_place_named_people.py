"""A person whose name is also a town (tests/data/reader/maud_orlando.json, our own conversation:
Maud's manager is Gustavo, then Orlando the colleague, then Hester): the edge that says whom she
reported to answers for its time, on each store; a place-named value of an edge whose object is no
known person still answers no question about a person."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from tkg.memory import Memory
from tkg.words import is_place_name

DATA = Path(__file__).parent / "data" / "reader" / "maud_orlando.json"


@pytest.fixture(scope="module")
def mg(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "maud-orlando", DATA)


def test_the_colleague_is_a_town_too() -> None:
    assert is_place_name("Orlando", locative=True)  # what the reader checks a person's name against


@pytest.mark.parametrize(("question", "wanted"), [
    ("Who did Maud report to on 1 July 2022?", "Orlando"),
    ("Who did Maud report to in August 2022?", "Orlando"),
    ("Who did Maud report to in March 2022?", "Gustavo"),
    ("Who does Maud report to now?", "Hester"),
])
def test_a_manager_named_like_a_town_answers_for_the_time(
    mg: tuple[Memory, str], question: str, wanted: str
) -> None:
    m, group = mg
    history = [f.object for f in m.history("Maud", "reports_to", group=group)]
    assert history == ["Gustavo", "Orlando", "Hester"]  # what the answers rest on
    a = m.ask(question, group=group)
    assert a.answer == wanted and not a.abstained, (a.answer, a.trace.get("reading"))
    assert any(wanted in e.text for e in a.evidence)
