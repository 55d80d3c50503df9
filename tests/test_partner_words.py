"""Partners told the way people text them: a name said alone and the sentence after says what they
are ("Elio. we're official"); the one who asked the teller to be their girlfriend; a split that ends
it ("Elio and I split up"), so he was her partner until then and is not now. Our own messages
(tests/data/reader/oona_hedvig.json) on each store."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.span_patterns import asked_out
from procedures.swaps import broke_up
from tkg.memory import Memory
from tkg.models import NO_INFORMATION
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "oona_hedvig.json"


@pytest.fixture(scope="module")
def oh(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "oona-hedvig", DATA)


def test_the_one_who_asked_is_the_partner_and_a_pronoun_after_may_ask() -> None:
    doc = parse("Wren asked me to the formal. Then she asked if I wanted to be her girlfriend.")
    assert asked_out(doc, 0)
    doc = parse("Wren asked me to the formal. Then Ida asked if I wanted to be her girlfriend.")
    assert not asked_out(doc, 0)  # Ida asked, not Wren


def test_a_split_is_told_from_a_split_shift() -> None:
    said = parse("We broke up on Sunday. I split the bill with Ida.")
    assert [broke_up(s) for s in said.sents] == [True, False]


def test_a_name_alone_then_what_they_are_on_a_day_named_for_someone(oh: tuple[Memory, str]) -> None:
    m, group = oh
    then = m.ask("Who was Oona going out with on Valentine's Day 2024?", group=group)  # no Valentine asked
    assert then.answer == "Elio", then.trace.get("reading")
    assert then.evidence[0].source_ref == "D2:1"


def test_a_partner_split_up_with_is_not_the_partner_now(oh: tuple[Memory, str]) -> None:
    m, group = oh
    assert m.ask("Who is Oona dating now?", group=group).answer == NO_INFORMATION


def test_the_one_who_asked_her_to_be_his_girlfriend(oh: tuple[Memory, str]) -> None:
    m, group = oh
    partner = m.ask("Who is Hedvig dating now?", group=group)
    assert partner.answer == "Ansel", partner.trace.get("reading")
    assert partner.evidence[0].source_ref == "D2:2"
