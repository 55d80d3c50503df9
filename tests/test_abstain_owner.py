"""The best-ranked turns decide whose attribute a question asks for, in a two-person chat: "What
did Ines bake for the party?" when the turns that answer it are Tomas's about himself, or Ines
asking Tomas about his, asks about the wrong person."""

from __future__ import annotations

from datetime import UTC, datetime

from procedures.abstain import Grounding, best_turns_owner
from tkg.models import Evidence


def _turn(ref: str, speaker: str, text: str) -> Evidence:
    return Evidence(ref, ref, text, datetime(2024, 3, 1, tzinfo=UTC), 1.0, "g", speaker=speaker)


def _owned(turns: list[Evidence]) -> Grounding:
    g = Grounding(True, "every main name is grounded", "Ines", ownership={})
    best_turns_owner("Ines", turns, g)
    return g


def test_the_other_speakers_own_turns_move_the_attribute_to_them() -> None:
    g = _owned([_turn("D1:2", "Tomas", "I baked a plum tart for the party, my first ever!"),
                _turn("D1:1", "Ines", "How was the party? What did you bake?"),
                _turn("D1:3", "Ines", "Wow, that sounds lovely.")])
    assert not g.grounded and "other than Ines" in g.reason
    assert [e.source_ref for e in g.evidence] == ["D1:2", "D1:1", "D1:3"]
    assert g.ownership is not None and g.ownership["best_turn_votes"] == [-1, -1, 1]


def test_the_asked_speakers_own_turns_or_turns_to_them_keep_it() -> None:
    assert _owned([_turn("D2:4", "Ines", "I baked a lemon cake for the party last night."),
                   _turn("D2:5", "Tomas", "I love lemon cake!")]).grounded
    assert _owned([_turn("D3:1", "Tomas", "Your lemon cake was the best thing at the party!"),
                   _turn("D3:2", "Tomas", "I brought bread.")]).grounded
    assert _owned([]).grounded
