"""Whom the best turns for a question speak of, and the question asked of the other speaker.

`procedures.abstain.ground` decides whether a question about one speaker of a two-person chat is
really about the other one. This module holds the votes it weighs (`best_turns_owner`: the turns
retrieval ranked best; `swapped_owner`: the question retrieved with the speaker's name swapped for
the other's) and the `Grounding` they revise. `swap_decides` says when the swapped question's turns
can change the verdict at all, so the second search runs only then.

Example::

    >>> swap_name("What did Ines bake for Ines's party?", "Ines Duarte", "Tomas Lind")
    "What did Tomas bake for Tomas's party?"
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tkg.models import Evidence

from .result import Hit

# the best-ranked turns' votes on whom they are about (1, 1/2, 1/4 by rank): at most this says "the other one"
OWNER_RANK_WEIGHTS = (1.0, 0.5, 0.25)
OWNER_BEST_TURNS = -0.7
# the swapped question: its best turns' vote for the other speaker, and its best score as a share of
# the question's own, that together say the question fits the other speaker
SWAP_OWNER_VOTE = 0.5  # the swapped question's best turns vote at least this for the other speaker
SWAP_ASKED_VOTE = 0.2  # while the asked question's vote for the asked speaker is at most this
SWAP_SCORE_SHARE = 1.0  # and its best score is this share of the asked one's, plus SWAP_SHARE_SLOPE × the
SWAP_SHARE_SLOPE = 0.4  # asked vote (turns leaning away from the asked speaker: a lower share suffices)
SWAP_KEEP_VOTE = 0.15  # an owner check's abstention stands only if the swapped question's vote exceeds this


@dataclass
class Grounding:
    grounded: bool
    reason: str
    main: str | None = None
    names: list[dict[str, Any]] = field(default_factory=list)
    ownership: dict[str, Any] | None = None
    evidence: list[Evidence] = field(default_factory=list)

    def to_trace(self) -> dict[str, Any]:
        return {"grounded": self.grounded, "reason": self.reason, "main": self.main, "names": self.names,
                "ownership": self.ownership}  # fmt: skip


# with the spellings of quick typing ("im", "ur", "u"): chat turns say them as often
FIRST_PERSON = frozenset("i i'm i've i'd i'll me my mine myself we we're we've our ours us im ive".split())
SECOND_PERSON = frozenset("you you're you've you'd you'll your yours yourself u ur urs ure youre youve ya"
                          .split())


def swap_name(question: str, speaker: str, other: str) -> str:
    """The question with the speaker's first name (or full name) replaced by the other's first name.

    >>> swap_name("What did Ines bake for Ines's party?", "Ines Duarte", "Tomas Lind")
    "What did Tomas bake for Tomas's party?"
    """
    names = sorted({speaker, speaker.split(" ")[0]}, key=len, reverse=True)
    pattern = "|".join(re.escape(n) for n in names)
    return re.sub(rf"(?<![^\W_])(?:{pattern})(?![^\W_])", other.split(" ")[0], question, flags=re.I)


def _vote(speaker: str, hits: list[Hit]) -> tuple[float, list[int]]:
    """The rank-weighted vote (`OWNER_RANK_WEIGHTS`) of the best hits on whom they speak of."""
    votes = [_voice(speaker, h.text, h.speaker) for h in hits[: len(OWNER_RANK_WEIGHTS)]]
    weights = OWNER_RANK_WEIGHTS[: len(votes)]
    return (sum(v * w for v, w in zip(votes, weights, strict=True)) / sum(weights) if votes else 0.0), votes


def swap_decides(speaker: str, asked: list[Hit], result: Grounding, exempt: str | None) -> bool:
    """Whether the swapped question's turns can change the verdict (`swapped_owner`): they can
    withdraw an owner check's abstention, or abstain when nothing exempts the question and its
    own best turns do not clearly belong to the asked speaker. Otherwise the swapped retrieval,
    a second search, is skipped."""
    if not asked:
        return False
    return not result.grounded or (exempt is None and _vote(speaker, asked)[0] <= SWAP_ASKED_VOTE)


def swapped_owner(
    speaker: str, other: str, asked: list[Hit], swapped: list[Hit] | None, result: Grounding, *,
    exempt: str | None = None,
) -> None:
    """Ask the question of the other speaker too, and compare.

    The question fits the other speaker better when the swapped question's best turns are theirs
    about themselves (vote ≥ `SWAP_OWNER_VOTE`), the asked question's best turns do not clearly
    belong to the asked speaker (vote ≤ `SWAP_ASKED_VOTE`) and the swapped question scores at
    least `SWAP_SCORE_SHARE + SWAP_SHARE_SLOPE × vote` of the asked one: abstain. Conversely an
    abstention by the owner checks above (`result` already ungrounded) is withdrawn when the
    swapped question finds no turns of the other speaker about themselves (vote ≤ `SWAP_KEEP_VOTE`):
    what is asked is not theirs either. With an `exempt` reason (an inference question, which what
    the other speaker said may well inform; the asked speaker's own turns matching the question's
    rarer words better than the other's, `_ownership`) it never abstains. The turns are in the
    trace; the evidence stays the question's own (the swapped turns answer another question).
    ``swapped`` None: not retrieved, since they could not change the verdict (`swap_decides`)."""
    if not asked:
        return
    mine, my_votes = _vote(speaker, asked)
    if swapped is None:
        result.ownership = {**(result.ownership or {}), "swapped": {
            "other": other, "asked_votes": my_votes, "exempt": exempt,
            "skipped": "the swapped question cannot change the verdict"}}
        return
    if not swapped:
        return
    theirs, their_votes = _vote(other, swapped)
    share = swapped[0].score / asked[0].score if asked[0].score > 0 else 0.0
    result.ownership = {**(result.ownership or {}), "swapped": {
        "other": other, "asked_votes": my_votes, "swapped_votes": their_votes, "score_share": round(share, 3),
        "swapped_turns": [h.source_ref for h in swapped[: len(OWNER_RANK_WEIGHTS)]], "exempt": exempt}}
    if not result.grounded:
        if theirs <= SWAP_KEEP_VOTE:
            result.grounded, result.evidence = True, []
            result.reason = (f"the owner check was withdrawn: asked about {other}, the question finds no "
                             f"turn of {other}'s about themselves either")
        return
    needed = SWAP_SCORE_SHARE + SWAP_SHARE_SLOPE * mine
    if exempt is None and theirs >= SWAP_OWNER_VOTE and mine <= SWAP_ASKED_VOTE and share >= needed:
        result.grounded = False
        refs = ", ".join(str(h.source_ref) for h in swapped[: len(OWNER_RANK_WEIGHTS)])
        result.reason = f"asked of {other}, not {speaker}, the question finds {other}'s own turns ({refs})"


def _voice(speaker: str, text: str, said_by: str | None) -> int:
    """Whom a turn speaks of, seen from the asked speaker: +1 them ("I …" in their turn, "you …"
    said to them), -1 the other one ("I …" in the other's turn, or the asked speaker's question to
    "you"), 0 unclear."""
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)?", text.lower().replace("\u2019", "'"))
    first, second = sum(w in FIRST_PERSON for w in words), sum(w in SECOND_PERSON for w in words)
    if (said_by or "").lower().split(" ")[:1] == speaker.lower().split(" ")[:1]:
        return 1 if first >= second else (-1 if "?" in text else 0)
    return -1 if first > second else (1 if second > first else 0)


def best_turns_owner(speaker: str, evidence: list[Evidence], result: Grounding) -> None:
    """The question asks about one speaker, but the turns retrieval ranks best for it are the other
    speaker's about themselves, or the asked one asking the other ("what's your best memory?"):
    what is asked belongs to the other one. Weighed by rank over the best three turns."""
    turns = [e for e in evidence if e.kind != "fact" and e.speaker][:len(OWNER_RANK_WEIGHTS)]
    if not turns:
        return
    votes = [_voice(speaker, e.text, e.speaker) for e in turns]
    weights = OWNER_RANK_WEIGHTS[: len(votes)]
    score = sum(v * w for v, w in zip(votes, weights, strict=True)) / sum(weights)
    result.ownership = {**(result.ownership or {}), "best_turns": [e.source_ref for e in turns],
                        "best_turn_votes": votes}
    if votes[0] < 0 and score <= OWNER_BEST_TURNS:
        result.grounded = False
        result.reason = (f"the turns that answer best ({', '.join(str(e.source_ref) for e in turns)}) "
                         f"are about the speaker other than {speaker}")
        result.evidence = turns
