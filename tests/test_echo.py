"""A copied sentence that only says back the question's own words answers nothing: "Lisbon." for
"What did Ada and Bo eat in Lisbon?" is "No information available" (the trace names the echo), while
"Where is Ada going this weekend?" is still answered by it. Our own conversation
(tests/data/reader/ada_bo.json) on each store."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from tkg.memory import Memory
from tkg.models import NO_INFORMATION

DATA = Path(__file__).parent / "data" / "reader" / "ada_bo.json"


@pytest.fixture(scope="module")
def ab(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ada-bo", DATA)


def test_a_sentence_that_says_back_the_question_answers_nothing(ab: tuple[Memory, str]) -> None:
    m, group = ab
    a = m.ask("What did Ada and Bo eat in Lisbon?", group=group)
    assert a.abstained and a.answer == NO_INFORMATION and a.trace.get("abstained_by") == "echo", a.trace
    went = m.ask("Where is Ada going this weekend?", group=group)
    assert went.answer == "Lisbon" and not went.abstained, went.trace.get("reading")
