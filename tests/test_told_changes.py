"""Changes told the way chat tells them, read by the offline extractor: a home after moving in ("new
place in Leith"), someone else's move ("mum moved into a care home"), shifts ("work nights at"), a
notice handed in, a break-up said of both ("Jonas and I broke up"), a plan that fell through, a pet
named after it was got ("she's called Miso"). Every sentence is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tkg.extract import extract
from tkg.predicates import PredicateRegistry

WHEN = datetime(2024, 6, 14, 19, 45, tzinfo=UTC)


def _facts(text: str) -> set[tuple[str, str, str, str]]:
    got = extract(text, speaker="Ilse", listeners=["Oskar"], when=WHEN, registry=PredicateRegistry.load())
    return {(c.subject, c.predicate, c.object, c.polarity) for c in got}


@pytest.mark.parametrize(("text", "fact"), [
    ("moved in on saturday! the new place in Leith has a bath", ("Ilse", "lives_in", "Leith", "assert")),
    ("We moved into a flat in Leith last week.", ("Ilse", "lives_in", "Leith", "assert")),
    ("I work nights at the Royal Infirmary now", ("Ilse", "works_at", "Royal Infirmary", "assert")),
    ("I handed my notice in at Quayside today", ("Ilse", "works_at", "Quayside", "retract")),
    ("Jonas and I broke up last month", ("Ilse", "partner_of", "Jonas", "retract")),
    ("Arlo and I are official now", ("Ilse", "partner_of", "Arlo", "assert")),
    ("the move to Bristol fell through", ("Ilse", "plans", "Bristol", "retract")),
    ("we're not moving to Bristol after all", ("Ilse", "plans", "Bristol", "retract")),
    ("we got a kitten, she's called Miso", ("Ilse", "has_pet", "Miso", "assert")),
    ("our new puppy is a beagle called Dot", ("Ilse", "has_pet", "Dot", "assert")),
    ("I'm now the team lead", ("Ilse", "job_title", "team lead", "assert")),
])
def test_the_change_is_read(text: str, fact: tuple[str, str, str, str]) -> None:
    assert fact in _facts(text)


@pytest.mark.parametrize("text", [
    "mum moved into a care home in Galway",  # her home, not the speaker's
    "my sister found a flat in Leith",
    "I moved my desk. The new flat in Leith is Anna's.",
    "Tom moved last month, I saw the new flat in Leith",
    "we split up in march",  # no partner known: nothing to end
    "I didn't get the job at Arup",  # never held, so nothing ends
    "My niece got a hamster and she's called Pip",
    "I'm not going to lie, Bristol was great",
])
def test_nothing_of_the_speakers_is_read(text: str) -> None:
    assert not {f for f in _facts(text) if f[0] == "Ilse" and f[1] != "sibling_of"}


def test_a_names_s_before_a_participle_is_has() -> None:
    assert ("Siobhan", "lives_in", "Boston", "assert") in _facts("Siobhan's moved to Boston")
    assert ("Pat", "works_at", "hardware shop", "assert") in _facts("Pat's started at the hardware shop")
    assert not _facts("Tom's flat is in Leeds but he's never there.")


def test_someone_is_no_ones_name() -> None:
    assert not {f for f in _facts("Aoife's got engaged to a lad from Galway") if f[1] == "engaged_to"}
    assert ("Aoife", "engaged_to", "Ciaran", "assert") in _facts("Aoife got engaged to Ciaran")
