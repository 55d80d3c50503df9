"""The time an as-of question is anchored to by an event ("who was her boss when she joined
Lumenkraft?"): the first turn that tells the event, where a turn naming the event's own names
outranks an earlier one that only shares its verb (procedures/event_turns.py). Our own sentences."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from procedures.event_turns import event_window
from tkg.models import Evidence


def _ev(ref: str, text: str, when: datetime) -> Evidence:
    return Evidence(ref, ref, text, when, 1.0, "g", speaker="Odile")


_NOW = datetime(2024, 1, 1, tzinfo=UTC)
_SAID = [datetime(y, m, d, tzinfo=UTC) for y, m, d in ((2022, 3, 1), (2022, 8, 15), (2023, 2, 1))]
_TURNS = [
    _ev("D1:1", "the pottery course starts next week, so excited", _SAID[0]),
    _ev("D2:1", "first day at Lumenkraft done, my manager seems lovely", _SAID[1]),
    _ev("D3:1", "a year at Lumenkraft soon, time flies", _SAID[2]),
]


def test_the_turn_naming_the_event_anchors_it_not_one_sharing_a_verb() -> None:
    window, how = event_window(cast(Any, None), "Who was Odile's manager when she started at Lumenkraft?",
                               "g", _TURNS, _NOW)
    assert window is not None and window[0] < _SAID[1] < window[1] < _SAID[2], how
    assert "D2:1" in how


def test_without_a_name_the_shared_words_still_anchor() -> None:
    window, how = event_window(cast(Any, None), "What did Odile do before the pottery course started?",
                               "g", _TURNS, _NOW)
    assert window is not None and window[1] < _SAID[0], how


def test_an_event_no_turn_tells_anchors_nothing() -> None:
    assert event_window(cast(Any, None), "Who was Odile's boss when she moved to Quito?", "g", _TURNS,
                        _NOW) == (None, "")
