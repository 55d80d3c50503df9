"""A fact's named value is a noun phrase (tkg/extract/typecheck.py `shaped`): words a rule swept in
past its end are trimmed, a clause or a stretch of time is no value, and "I meant to …" corrects
nothing. Our own sentences and values."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tkg.extract import Candidate, extract
from tkg.extract.candidate import Hit
from tkg.extract.objects import _name_run
from tkg.extract.typecheck import shaped
from tkg.predicates import REGISTRY

WHEN = datetime(2024, 3, 12, 18, 30, tzinfo=UTC)


@pytest.mark.parametrize(("predicate", "kind", "value", "kept"), [
    ("works_at", "organisation", "garage up", "garage"),  # "a job at a garage up there"
    ("works_at", "organisation", "Harwick Analytics the", "Harwick Analytics"),
    ("works_at", "organisation", "Pell & Grange's", "Pell & Grange"),  # a name's possessive
    ("member_of", "organisation", "quiz team and", "quiz team"),
    ("plans", "thing", "barbecue two weekends", "barbecue"),  # the time after it is not the plan
    ("plans", "thing", "a part-time master's", "a part-time master's"),  # a degree, not a possessive
    ("likes", "thing", "curling up", "curling up"),  # an activity keeps its particle
    ("sibling_of", "person", "June", "June"),  # a month that is a name
    ("has_pet", "pet", "Sunday", "Sunday"),
    ("age", "literal", "31 next week", "31 next week"),  # only named kinds are shaped
])
def test_a_named_value_is_trimmed_to_its_noun_phrase(
    predicate: str, kind: str, value: str, kept: str
) -> None:
    got = shaped(Hit("Ilse", predicate, value), kind)
    assert got is not None and got.object == kept


@pytest.mark.parametrize(("predicate", "kind", "value"), [
    ("works_at", "organisation", "call you yesterday but I've been"),  # a clause
    ("owns", "thing", "three nights"),  # a stretch of time
    ("member_of", "organisation", "January"),
    ("plans", "thing", "a few weekends"),
    ("works_at", "organisation", "the"),
])
def test_a_clause_or_a_stretch_of_time_is_no_value(predicate: str, kind: str, value: str) -> None:
    assert shaped(Hit("Ilse", predicate, value), kind) is None


def test_a_name_run_ends_before_the_words_after_it() -> None:
    assert _name_run("Harwick the following Monday".split()) == ["Harwick"]
    assert _name_run("Bank of England".split()) == ["Bank", "of", "England"]


def test_i_meant_to_is_an_intention_not_a_correction() -> None:
    history = (Candidate("Ilse", "works_at", "Velmont"),)
    got = extract("I meant to call you yesterday but the kids were sick.", speaker="Ilse",
                  listeners=["Oskar"], when=WHEN, registry=REGISTRY, history=history)
    assert got == []
    fixed = extract("Sorry, I meant Halvorsen, not Velmont.", speaker="Ilse", listeners=["Oskar"], when=WHEN,
                    registry=REGISTRY, history=history)
    assert [(c.predicate, c.object) for c in fixed] == [("works_at", "Halvorsen")]
