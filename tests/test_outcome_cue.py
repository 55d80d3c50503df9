"""A question about how something turned out ("finally", "in the end", "ended up") asks the reader
for the last value said, as "now" does, but routes as before: the party moved from Henley to Marlow,
so "where was it finally held" is Marlow. The conversation (tests/data/reader/anouk_ferris.json) is
our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from planners.cues import outcome_cue, recency_cue
from planners.gates import recency_gate
from tkg.memory import Memory

DATA = Path(__file__).parent / "data" / "reader"


@pytest.mark.parametrize(("outcome", "plain"), [
    ("Where was the party finally held?", "Where was the party held?"),
    ("Which caterer did they go with in the end?", "Which caterer did they meet at the end of May?"),
    ("Where did Anouk end up living?", "Where did Anouk live?"),
    ("What did the couple eventually call the dog?", "What did the couple call the dog?"),
    ("What was the final plan for Christmas?", "What was the plan for Christmas?"),
])
def test_an_outcome_word_asks_for_the_last_value(outcome: str, plain: str) -> None:
    assert outcome_cue(outcome) and asked_for(outcome).recency
    assert outcome_cue(plain) is None and not asked_for(plain).recency
    # it routes as it did: "what did they end up playing" is no question about a slot's value now
    assert recency_cue(outcome) is None and not recency_gate(outcome).fired


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "anouk-ferris", DATA / "anouk_ferris.json")


@pytest.mark.parametrize(("question", "wanted", "not_wanted"), [
    ("Where was the retirement party finally held?", "marlow", "henley"),
    ("Where did Anouk's retirement party end up being held?", "marlow", "henley"),
    ("Which pool does Anouk swim at in the end?", "hillside", "leisure"),
])
def test_the_outcome_is_the_last_value_said(made: tuple[Memory, str], question: str, wanted: str,
                                            not_wanted: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    got = a.answer.lower()
    assert wanted in got and not_wanted not in got, (a.answer, a.trace.get("reading"))
    assert a.evidence and any(wanted in e.text.lower() for e in a.evidence[:3])
