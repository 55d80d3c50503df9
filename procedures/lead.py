"""Which turns lead a reading's evidence, and why (the trace's ``evidence_lead``).

The evidence keeps the procedure's ranking (what retrieval found best for the question), with the
turns that state the answer following. One kind of answer rests on something that ranking does not
know: a value of a well-typed kind chosen by time ("now": the latest said; "as of": the latest said
by then). Retrieval orders by relevance, so the turns that made the value the latest can rank
anywhere. There the value's own statements lead: the best-supported one, then the newest of those
that dated the choice, then the newest turn of the subject's that names the value again in other
words ("still Milan, just a bigger place"), which the reader did not read as a statement. A place,
an organisation or a role named again by the subject restates where they are; a person's name or a
number named again does not, so for those only the reader's statements lead.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from tkg.models import Evidence

from .about import Subject
from .reader import norm
from .synthesis import dedupe

if TYPE_CHECKING:
    from .reader import Candidate

RESTATED = frozenset({"place", "organisation", "role"})  # kinds a turn naming the value again restates
_EARLIEST = datetime(1900, 1, 1).astimezone()


def dated_lead(kind: str, how: dict[str, Any], cands: list[Candidate], chosen: list[Candidate],
               turns: list[Evidence], subject: Subject, until: datetime | None, trace: dict[str, Any], *,
               most: int = 2) -> list[Evidence]:
    """The turns that lead when the choice ``how`` (`reader.choose`'s trace) was made by time (it
    names the turns that dated it, ``dated_by``): the chosen candidates' turns, the ``most`` newest
    that dated it, and for a `RESTATED` ``kind`` the newest of ``turns`` said by ``until`` that the
    subject says or is named in and that name a chosen value. None for a choice not made by time.
    ``trace`` names them and says why."""
    if "dated_by" not in how:
        return []
    by_ref = {c.evidence.source_ref: c.evidence for c in reversed(cands)}  # the first candidate of a turn
    dated = newest_first([by_ref[r] for r in how["dated_by"] if r in by_ref])
    lead = dedupe([c.evidence for c in chosen] + dated[:most])
    again = newest_first([e for e in turns if kind in RESTATED and e.valid_at
                          and (until is None or e.valid_at <= until) and e not in lead
                          and (subject.named_in(e.text) or (e.speaker or "").lower() in subject.aliases)
                          and any(names(e.text, c.value) for c in chosen)])
    lead = dedupe(lead + again[:1])
    trace["evidence_lead"] = {"turns": [e.source_ref for e in lead], "why": (
        f"{how.get('chosen_by')}: its best-supported statement, its newest, the subject naming it again")}
    return lead


def newest_first(evidence: list[Evidence]) -> list[Evidence]:
    return sorted(dedupe(evidence), key=lambda e: e.valid_at or _EARLIEST, reverse=True)


def names(text: str, value: str) -> bool:
    """``text`` names ``value`` as whole words, whatever its case, accents and punctuation."""
    return f" {norm(value)} " in f" {norm(text)} " if norm(value) else False
