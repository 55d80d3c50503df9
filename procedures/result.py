"""What procedures return: retrieved turns (`Hit`, `Retrieval`) and answers (`ProcedureResult`).

The orchestrator (`procedures/answer.py`) turns a `ProcedureResult` into the public
`tkg.models.Answer`; procedures never build `Answer` themselves, so routing, mode and
procedure names are filled in one place.

Example::

    >>> r = ProcedureResult(answer="No information available", abstained=True)
    >>> r.abstained, r.evidence
    (True, [])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tkg.models import Evidence, Fact


@dataclass
class Hit:
    """One turn (episode), the unit evidence is judged at."""

    episode_uuid: str
    source_ref: str | None  # e.g. LoCoMo dia_id "D3:12"
    text: str  # the turn's text
    speaker: str
    valid_at: datetime | None
    score: float
    via: tuple[str, ...]  # lists that found it, heaviest first: "chunk_text", "neighbour", ...
    matched: str = ""  # the sentence or fact that matched, when narrower than the turn
    fact_uuid: str | None = None


@dataclass
class Retrieval:
    hits: list[Hit]  # distinct turns, best first, at most payload.depth
    counts: dict[str, int]  # candidates per list before fusion; "fused", "neighbour"
    timings_ms: dict[str, float]
    facts: list[Fact] = field(default_factory=list)  # the facts behind the hits a fact matched
    trace: dict[str, Any] = field(default_factory=dict)  # words, fusion, retries, boosts, fallbacks


@dataclass
class ProcedureResult:
    answer: str
    evidence: list[Evidence] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    abstained: bool = False
    trace: dict[str, Any] = field(default_factory=dict)  # indexes, counts, fusion, timings, fallbacks


def evidence_from_hits(hits: Iterable[Hit], group: str) -> list[Evidence]:
    """Evidence for each hit, in order. ``kind`` says what matched: a fact, a sentence or the turn.

    The text is always the whole turn (what the evidence points at); a narrower match is in the
    trace of the procedure that used it.
    """
    out = []
    for h in hits:
        kind = "fact" if h.fact_uuid else ("sentence" if h.matched else "turn")
        out.append(Evidence(
            source_ref=h.source_ref, episode=h.episode_uuid, text=h.text, valid_at=h.valid_at,
            score=round(float(h.score), 6), group=group, speaker=h.speaker, kind=kind, fact=h.fact_uuid,
        ))
    return out
