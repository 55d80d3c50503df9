"""An answer that is the asked person's own question to the other one ("How did the kids handle
the move?") states nothing about them: `asked_back` finds the turn, so the answer abstains."""

from __future__ import annotations

from datetime import UTC, datetime

from procedures.stated import asked_back
from tkg.models import Evidence


def _turn(ref: str, speaker: str, text: str) -> Evidence:
    return Evidence(ref, "e1", text, datetime(2024, 3, 1, tzinfo=UTC), 1.0, "g", speaker=speaker)


def test_the_asked_persons_own_question_answers_nothing_about_them() -> None:
    turns = [_turn("S1:4", "Ines Duarte", "Lovely photos, Tomas! How did the kids handle the move?"),
             _turn("S1:5", "Tomas", "They were brave about it, the little one cried once.")]
    found = asked_back("How did the kids handle the move?", turns, "Ines")
    assert found is not None and found.source_ref == "S1:4"


def test_a_question_put_to_them_or_a_statement_is_left_alone() -> None:
    turns = [_turn("S2:1", "Tomas", "How long have you been playing the cello, Ines?"),
             _turn("S2:2", "Ines", "About four years now, I started at the conservatory.")]
    assert asked_back("How long have you been playing the cello, Ines?", turns, "Ines") is None
    assert asked_back("About four years now", turns, "Ines") is None
