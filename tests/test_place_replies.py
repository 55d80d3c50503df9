"""Values told by a sentence of their own: a place as the reply to a "where" question ("Where are you
going for the honeymoon?" – "Lanzarote."), a name right after its category ("I've joined a choir!
Loud Harmony."; not a bike the sentence before says was stolen); and a speaker called by name
("Florence, quick heads-up") who is no place though a city has her name. Our own messages
(tests/data/reader/kwasi_florence.json) on each store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.about import called_out
from tkg.memory import Memory
from tkg.models import NO_INFORMATION

DATA = Path(__file__).parent / "data" / "reader" / "kwasi_florence.json"


@pytest.fixture(scope="module")
def kf(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "kwasi-florence", DATA)


def test_a_place_named_in_reply_to_where(kf: tuple[Memory, str]) -> None:
    m, group = kf
    got = m.ask("Where did Kwasi go on honeymoon?", group=group)
    assert got.answer == "Lanzarote", (got.answer, got.trace.get("reading"))
    assert "D1:3" in [e.source_ref for e in got.evidence[:3]]


@pytest.mark.parametrize(("text", "name", "said_to"), [
    ("Florence, quick heads-up: I'm off in June", "Florence", True),
    ("thanks Florence!", "Florence", True),
    ("we flew to Florence, then home", "Florence", False),
])
def test_a_name_called_out(text: str, name: str, said_to: bool) -> None:
    at = text.index(name)
    assert called_out(text, at, at + len(name)) is said_to


@pytest.mark.parametrize(("question", "answer"), [
    ("Which choir has Kwasi joined?", "Loud Harmony"),
    ("What is the name of Kwasi's choir?", "Loud Harmony"),
    ("What bike does Kwasi ride now?", NO_INFORMATION),  # "somebody nicked my bike. The Pashley."
])
def test_a_name_said_after_its_category(kf: tuple[Memory, str], question: str, answer: str) -> None:
    m, group = kf
    got = m.ask(question, group=group)
    assert got.answer == answer, (got.answer, got.trace.get("reading"))
