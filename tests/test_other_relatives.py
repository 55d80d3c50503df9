"""A relative asked for is not one the graph knows as another kind of relative: the wife is no
answer to "his youngest child", "my brother Anton" none to "his sister". A sentence's opener run
into a name ("Morning Hamid", "Renting's") is no person. Our own conversation
(tests/data/reader/tobiah_coach.json) end to end on each store, and our own sentences."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.span_base import Span
from procedures.spans import _without_opener, spans_of
from tkg.memory import Memory
from tkg.models import NO_INFORMATION
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "tobiah_coach.json"


@pytest.mark.parametrize(("text", "people"), [
    ("Morning Hamid, good to have you here!", ["Hamid"]),  # the tagger reads "Morning Hamid"
    ("Hello Marisa and welcome.", ["Marisa"]),
])
def test_an_opener_run_into_a_name_is_not_part_of_it(text: str, people: list[str]) -> None:
    found = [s.text for sent in parse(text).sents for s in spans_of(sent, "person", "") if s.sure >= 0.9]
    assert found == people


def test_a_common_ing_word_alone_names_no_one() -> None:
    sent = next(parse("Renting's fine but Lucia wants to buy.").sents)
    assert _without_opener(sent, Span("Renting", "person", 0.9, 0, 1)) is None
    kept = Span("Lucia", "person", 0.9, 4, 5)
    assert _without_opener(sent, kept) == kept


@pytest.fixture(scope="module")
def tc(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "tobiah-coach", DATA)


def test_the_wife_is_no_answer_for_a_child_never_named(tc: tuple[Memory, str]) -> None:
    m, group = tc
    a = m.ask("What is the name of Tobiah's youngest child?", group=group)
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))
    wife = m.ask("What is the name of Tobiah's wife?", group=group)
    assert "Marisa" in wife.answer and not wife.abstained, (wife.answer, wife.trace.get("reading"))


def test_a_brother_is_no_answer_for_a_sister(tc: tuple[Memory, str]) -> None:
    m, group = tc
    a = m.ask("What is Tobiah's sister's name?", group=group)
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))
    brother = m.ask("What is Tobiah's brother's name?", group=group)
    assert "Anton" in brother.answer and not brother.abstained, (brother.answer, brother.trace.get("reading"))
