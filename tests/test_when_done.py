"""When an event happened is the date a turn tells it with, not the day someone only wanted it:
"Joost has been wanting to move to Utrecht for ages" is no day of a move, and "we signed for a flat,
moving on the 2nd of June" (said in April) dates it in June of that year, the participle's own
tense rather than the past of "signed"; and "Karim didn't move, of course" after "he'll move to
Leiden this summer" leaves no date at all. The conversation (tests/data/reader/lotte_amir.json) is our own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from tkg.memory import Memory
from tkg.time_words import clause_tense
from tkg.timeparse import find_times

DATA = Path(__file__).parent / "data" / "reader"
APRIL = datetime(2024, 4, 14, tzinfo=UTC)


@pytest.mark.parametrize(("text", "day"), [
    ("We signed for a flat near the canal, moving on the 2nd of June.", "2024-06-02"),
    ("I got the job, starting on the 1st of May", "2024-05-01"),
    ("We had a lovely week away, arriving back on the 3rd of April.", "2024-04-03"),
    ("We signed for a flat on the 2nd of June.", "2023-06-02"),  # a past clause's date lies behind
])
def test_a_participle_after_a_comma_speaks_for_its_own_date(text: str, day: str) -> None:
    assert [t.start.date().isoformat() for t in find_times(text, APRIL)] == [day]


def test_the_part_before_the_comma_keeps_its_tense() -> None:
    text = "We signed for a flat, moving on the 2nd of June."
    assert clause_tense(text, text.index("flat")) == "past"
    assert clause_tense(text, text.index("2nd")) == "present"


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "lotte-amir", DATA / "lotte_amir.json")


def test_a_move_only_wanted_does_not_date_the_move(made: tuple[Memory, str]) -> None:
    m, group = made
    a = m.ask("When did Lotte move to Utrecht?", group=group)
    assert a.answer.startswith("2 June 2024"), (a.answer, a.trace.get("reading"))
    assert a.evidence[0].source_ref == "D2:1"


def test_a_plan_is_still_dated_by_its_plan(made: tuple[Memory, str]) -> None:
    m, group = made
    a = m.ask("When is Lotte moving to Utrecht?", group=group)
    assert a.answer.startswith("2 June 2024"), (a.answer, a.trace.get("reading"))


def test_a_move_said_later_not_to_have_happened_has_no_date(made: tuple[Memory, str]) -> None:
    m, group = made
    a = m.ask("When did Karim move to Leiden?", group=group)
    assert a.abstained, (a.answer, a.trace.get("reading"))
    assert "D3:2" in [e.source_ref for e in a.evidence]
