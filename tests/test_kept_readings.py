"""Readings kept per text (a question's anchor, the gate's needle patterns) answer as when first made."""

from __future__ import annotations

import dataclasses

import pytest

from planners.cues import find_time_anchor
from procedures.abstain import _says


def test_time_anchor_is_the_same_when_asked_again_and_cannot_be_changed() -> None:
    question = "Where did Oriel Vantasse work in March 2021?"
    first = find_time_anchor(question)
    assert first is not None and first.text == "March 2021"
    again = find_time_anchor(question)
    assert again == first
    with pytest.raises(dataclasses.FrozenInstanceError):
        again.text = "April"  # type: ignore[misc]
    assert find_time_anchor("Where does Oriel work?") is None


@pytest.mark.parametrize("text,needle,said", [
    ("we were living in the dunes", "live", True),
    ("she lives near the harbour", "live", True),
    ("a deliverable is due", "live", False),
    ("the bakeries closed", "bakery", False),
    ("two bakers quit", "baker", True),
    ("my_baker", "baker", True),
])
def test_says_a_needle_with_its_inflections_twice_alike(text: str, needle: str, said: bool) -> None:
    assert _says(text, needle) is said
    assert _says(text, needle) is said  # the kept pattern
