"""What every answer procedure returns: an answer, the evidence behind it, and what it did.

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
from typing import TYPE_CHECKING, Any

from tkg.models import Evidence, Fact

if TYPE_CHECKING:
    from .retrieval import Hit


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
