"""The swapped-subject check: a question about one speaker that, asked about the other speaker,
finds that speaker's own turns about as well, took what one said for the other's ("What did
Ines name her kayak?" when Tomas named his and Ines only asked about it)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from reliability.common import ingested

from planners.payloads import default_payloads
from procedures.abstain import Grounding, ground, swap_name, swapped_owner
from procedures.result import Hit
from procedures.slots import question_in
from tkg.memory import Memory


def _hit(ref: str, speaker: str, text: str, score: float) -> Hit:
    return Hit(f"ep-{ref}", ref, text, speaker, datetime(2024, 5, 2, tzinfo=UTC), score, ("chunk_text",))


def _grounding() -> Grounding:
    return Grounding(True, "every main name is grounded", "Ines", ownership={})


# the turns the question as asked ("What did Ines name her kayak?") finds: Ines asking Tomas about his
ASKED = [
    _hit("K1:2", "Ines", "A kayak, wow! What did you name it?", 10.0),
    _hit("K1:3", "Tomas", "I named my kayak Otter, after the river where I learned.", 9.5),
    _hit("K1:4", "Ines", "Otter is such a sweet name for it.", 6.0),
]
# the turns the swapped question ("What did Tomas name his kayak?") finds: Tomas about himself
SWAPPED = [
    _hit("K1:3", "Tomas", "I named my kayak Otter, after the river where I learned.", 11.0),
    _hit("K1:1", "Tomas", "I finally bought my own kayak last weekend!", 9.0),
    _hit("K1:5", "Tomas", "My paddle is red, I love it.", 5.0),
]


def test_a_question_that_fits_the_other_speaker_better_abstains() -> None:
    g = _grounding()
    swapped_owner("Ines", "Tomas", ASKED, SWAPPED, g)
    assert not g.grounded and "Tomas's own turns" in g.reason
    assert "K1:3, K1:1, K1:5" in g.reason and not g.evidence  # the evidence stays the question's own
    swap = (g.ownership or {})["swapped"]
    assert swap["asked_votes"] == [-1, -1, 1] and swap["swapped_votes"] == [1, 1, 1]
    assert swap["swapped_turns"] == ["K1:3", "K1:1", "K1:5"]


def test_an_exempt_question_never_abstains_on_the_swap() -> None:
    g = _grounding()
    swapped_owner("Ines", "Tomas", ASKED, SWAPPED, g, exempt="the question asks for an inference")
    assert g.grounded and (g.ownership or {})["swapped"]["exempt"] == "the question asks for an inference"


def test_the_asked_speakers_own_turns_keep_the_question() -> None:
    own = [_hit("K2:1", "Ines", "I named my kayak Heron because it is so tall.", 12.0),
           _hit("K2:2", "Tomas", "Heron is a great name for your kayak!", 8.0)]
    g = _grounding()
    swapped_owner("Ines", "Tomas", own, SWAPPED, g)
    assert g.grounded and (g.ownership or {})["swapped"]["asked_votes"] == [1, 1]


def test_a_swapped_question_that_scores_clearly_worse_keeps_the_question() -> None:
    weak = [_hit(h.source_ref or "", h.speaker, h.text, h.score / 3) for h in SWAPPED]
    g = _grounding()
    swapped_owner("Ines", "Tomas", ASKED, weak, g)
    assert g.grounded and (g.ownership or {})["swapped"]["score_share"] < 0.9


def test_turns_leaning_to_the_asked_speaker_need_a_clearly_better_swapped_question() -> None:
    mixed = [_hit("K4:1", "Ines", "My cousin has a kayak too, I might borrow it.", 10.0),
             _hit("K4:2", "Ines", "What did you name yours?", 9.0),
             _hit("K4:3", "Tomas", "I named my kayak Otter.", 8.0)]  # vote 0.14: share 1.06 needed
    for scale, abstains in ((1.0, False), (1.1, True)):
        swapped = [_hit(h.source_ref or "", h.speaker, h.text, h.score * scale) for h in SWAPPED]
        swapped[0].score = 10.0 * scale
        g = _grounding()
        swapped_owner("Ines", "Tomas", mixed, swapped, g)
        assert g.grounded is not abstains, (scale, g.ownership)


def test_an_owner_check_is_withdrawn_when_the_other_speaker_has_no_such_turns() -> None:
    not_theirs = [_hit("K5:1", "Tomas", "Did you ever name your kayak?", 10.0),
                  _hit("K5:2", "Ines", "I never named mine, it is just the kayak.", 9.0)]
    g = Grounding(False, "the turns that answer best are about the speaker other than Ines", "Ines",
                  ownership={}, evidence=[])
    swapped_owner("Ines", "Tomas", ASKED, not_theirs, g)
    assert g.grounded and "withdrawn" in g.reason and not g.evidence
    kept = Grounding(False, "the turns that answer best are about the speaker other than Ines", "Ines",
                     ownership={})
    swapped_owner("Ines", "Tomas", ASKED, SWAPPED, kept)
    assert not kept.grounded and "other than Ines" in kept.reason


def test_the_swapped_question_renames_every_mention() -> None:
    assert swap_name("Why did ines sell Ines Duarte's kayak?", "Ines Duarte", "Tomas Lind") == (
        "Why did Tomas sell Tomas's kayak?"
    )
    assert swap_name("What do Inesita and Ines share?", "Ines", "Tomas") == "What do Inesita and Tomas share?"


def _grounded(
    mem: Memory, tmp_path: Path, turns: list[tuple[str, str]], questions: list[str], ownership: bool = False,
    said_own: str | None = None,
) -> list[Grounding]:
    """Ingest a two-person chat of our own into a new group; ground each question as `Memory.ask` would
    (by default as after the reader found a typed value: ownership=False skips the term-ownership check)."""
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps(
        {"speaker": who, "listeners": ["Tomas" if who == "Ines" else "Ines"], "text": text,
         "source_ref": f"K3:{i}", "timestamp": f"2024-05-01T10:0{i}:00Z"}) + "\n"
        for i, (who, text) in enumerate(turns, 1)), encoding="utf-8")
    group = ingested(mem, "swap", path)
    lookup = default_payloads().for_mode("single_fact")
    return [ground(mem.ctx, question_in(mem.ctx, q, group), group, ownership=ownership, payload=lookup,
                   said_own=said_own) for q in questions]


KAYAKS = [
    ("Tomas", "I finally bought my own kayak last weekend, a bright orange one!"),
    ("Ines", "Wow, orange! What did you call it?"),
    ("Tomas", "I named my kayak Otter. Every kayak I own gets named after a river animal."),
    ("Ines", "Otter suits it! Meanwhile my weekend went to repotting ferns."),
    ("Tomas", "How many ferns do you have now?"),
    ("Ines", "Eleven ferns, my balcony is a jungle."),
]


def test_ground_runs_the_swap_on_a_real_store_and_keeps_the_right_persons_question(
    mem: Memory, tmp_path: Path
) -> None:
    wrong, right = _grounded(mem, tmp_path, KAYAKS, ["What did Ines name her kayak?",
                                                     "What did Tomas name his kayak?"])
    assert right.grounded and "swapped" in (right.ownership or {}), right.to_trace()
    assert not wrong.grounded and "Tomas's own turns" in wrong.reason, wrong.to_trace()


def test_questions_about_someone_in_the_speakers_life_skip_the_swap(mem: Memory, tmp_path: Path) -> None:
    kin, plain = _grounded(mem, tmp_path, [
        ("Tomas", "My husband grew up in a tiny fishing village."),
        ("Ines", "Oh lovely! What was it called?"),
        ("Tomas", "Porthleven. He still misses the harbour."),
        ("Ines", "I went sailing there once, years ago."),
    ], ["Where did Ines's husband grow up?", "Where did Ines go sailing?"])
    assert "swapped" not in (kin.ownership or {}), kin.to_trace()
    assert "swapped" in (plain.ownership or {}), plain.to_trace()


def test_inference_questions_and_the_speakers_own_words_are_exempt(mem: Memory, tmp_path: Path) -> None:
    chat = [("Tomas", "I finally bought my own kayak last weekend, a bright orange one!"),
            ("Ines", "Wow, orange! What did you call it?"),
            ("Tomas", "I named my kayak Otter. Every kayak I own gets named after a river animal."),
            ("Ines", "Otter suits it! I rode my first tandem bicycle on Sunday, wobbly but fun.")]
    (would,) = _grounded(mem, tmp_path, chat, ["Would Ines likely name a kayak?"])
    (own,) = _grounded(mem, tmp_path, chat, ["Did Ines ride a tandem?"], ownership=True)
    assert would.grounded, would.to_trace()
    assert (would.ownership or {})["swapped"]["exempt"] == "the question asks for an inference"
    assert own.grounded and (own.ownership or {})["swapped"]["exempt"] == (
        "Ines's own turns match the question's words best"
    ), own.to_trace()


def test_a_value_the_asked_speaker_states_of_themselves_is_exempt_from_the_swap(
    mem: Memory, tmp_path: Path
) -> None:
    """The reader found its value in Ines's own first-person clause (`Reading.own`): what she says of
    herself is hers, so the swap never abstains; a value that is Tomas's own word exempts nothing."""
    (own,) = _grounded(mem, tmp_path, KAYAKS, ["What did Ines name her kayak?"], said_own="Ines")
    assert own.grounded, own.to_trace()
    assert "Ines states the reader's value of themselves" in str((own.ownership or {})["swapped"]["exempt"])
    (theirs,) = _grounded(mem, tmp_path, KAYAKS, ["What did Ines name her kayak?"], said_own="Tomas")
    assert not theirs.grounded and "Tomas's own turns" in theirs.reason
