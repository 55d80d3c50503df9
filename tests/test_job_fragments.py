"""A job told as a verbless "Title at Org" right after someone got it: "Marta just got a hospital job!
Pharmacist at Westgate Infirmary" is Marta's job, "finally got the offer. Lead designer at
Fellside Atlas" the speaker's, and "She got a job! Nurse at the Royal Free" no one's we can name. The
conversation (tests/data/reader/pia_osric.json) is our own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from tkg.extract import extract
from tkg.memory import Memory
from tkg.predicates import PredicateRegistry

DATA = Path(__file__).parent / "data" / "reader"
WHEN = datetime(2024, 5, 3, 19, 5, tzinfo=UTC)


def _facts(text: str) -> set[tuple[str, str, str]]:
    got = extract(text, speaker="Pia", listeners=["Osric"], when=WHEN, registry=PredicateRegistry.load())
    return {(c.subject, c.predicate, c.object) for c in got if c.polarity == "assert"}


def test_the_fragment_is_the_job_of_whoever_got_it() -> None:
    assert {("Marta", "job_title", "pharmacist"), ("Marta", "works_at", "Westgate Infirmary")} <= _facts(
        "Marta just got a hospital job! Pharmacist at Westgate Infirmary in Bristol.")
    assert {("Pia", "job_title", "lead designer"), ("Pia", "works_at", "Fellside Atlas")} <= _facts(
        "Finally got the offer. Lead designer at Fellside Atlas.")
    assert not {f for f in _facts("She got a job! Nurse at the Royal Free.") if f[1] == "works_at"}
    assert not _facts("Pharmacist at Westgate Infirmary, apparently.")  # no one got a job before it


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "pia-osric", DATA / "pia_osric.json")


@pytest.mark.parametrize(("question", "wanted", "turn"), [
    ("Where does Pia's sister work now?", "westgate", "D2:1"),
    ("Where does Pia work now?", "fellside", "D2:3"),
])
def test_the_new_job_is_the_current_one(made: tuple[Memory, str], question: str, wanted: str,
                                        turn: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    assert wanted in a.answer.lower(), (a.answer, a.trace.get("reading"))
    assert any(e.source_ref == turn for e in a.evidence[:3])
