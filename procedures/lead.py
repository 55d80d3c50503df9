"""Which turns lead a reading's evidence, and why (the trace's ``evidence_lead``).

The evidence keeps the procedure's ranking (what retrieval found best for the question), with the
turns that state the answer following. A value of a well-typed kind leads with its own turns in two
cases, when something measurable vouches for them:

* it was chosen by time ("now": the latest said; "as of": the latest said by then). Retrieval orders
  by relevance and knows nothing of when, so the turns that made the value the latest can rank
  anywhere: the best-supported statement leads, then the newest of those that dated the choice,
  then the newest turn of the subject's that names the value again in other words ("still Milan,
  just a bigger place"), which the reader did not read as a statement. A place, an organisation or
  a role named again by the subject restates where they are; a person's name or a number does not;
* an edge of the graph states it (the fact's turn, quoted when it was extracted);
* the reader read it from a turn the procedure ranked below its first few, or not at all (a turn
  going on about someone named just before, "she's a paediatrician"): an answer shows where it was
  read first.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from tkg.models import Evidence

from .about import Subject
from .reader import FAR_FUTURE, norm
from .slots import FAR_PAST
from .synthesis import dedupe

if TYPE_CHECKING:
    from .reader import Candidate

RESTATED = frozenset({"place", "organisation", "role"})  # kinds a turn naming the value again restates
RANKED_TOP = 3  # a value read from one of the procedure's first turns keeps the procedure's ranking


def leading(kind: str | None, how: dict[str, Any], cands: list[Candidate], chosen: list[Candidate],
            turns: list[Evidence], subject: Subject | None, window: tuple[datetime, datetime] | None,
            trace: dict[str, Any], *, ranked: list[Evidence] | None = None, most: int = 2) -> list[Evidence]:
    """The turns that lead the evidence of the ``chosen`` value of a well-typed ``kind`` (None: an
    untyped value or a list, which keep the procedure's ranking). Chosen by time (``how``, the trace
    of `choice.choose`, names the turns that dated it): the chosen candidates' turns, the ``most``
    newest that dated it, and for a `RESTATED` kind the newest of ``turns`` said by the ``window``'s
    end that the subject says or is named in and that name the value (none after an "after X"
    window: the first value said then answers). Else a chosen candidate from a graph edge: its
    turn. Else the turns the value was read from, when none is among the first `RANKED_TOP` the
    procedure ``ranked``: a value read from a turn far down the list is shown with it first.
    ``trace`` names them and says why."""
    if kind is None:
        return []
    until = window[1] if window is not None else None
    if "dated_by" in how:
        by_ref = {c.evidence.source_ref: c.evidence for c in reversed(cands)}  # a turn's first candidate
        lead = dedupe([c.evidence for c in chosen] + newest_first([by_ref[r] for r in how["dated_by"]
                                                                   if r in by_ref])[:most])
        after = until is not None and until >= FAR_FUTURE  # "after X": the first value said then answers
        if kind in RESTATED and subject is not None and not after:
            held = {e.source_ref for e in lead}
            lead += [e for e in restating(turns, subject, chosen, until) if e.source_ref not in held][:1]
        why = f"{how.get('chosen_by')}: the turns that say it, best supported, then newest"
    else:
        lead = dedupe(c.evidence for c in chosen if c.source == "graph")
        why = "an edge of the graph states it"
        read_from = dedupe(c.evidence for c in chosen)
        first = {e.source_ref for e in (ranked or [])[:RANKED_TOP]}
        if not lead and ranked is not None and not {e.source_ref for e in read_from} & first:
            lead, why = read_from, "the turn the value was read from is not among the procedure's first"
    if lead:
        trace["evidence_lead"] = {"turns": [e.source_ref for e in lead], "why": why}
    return lead


def restating(turns: list[Evidence], subject: Subject, chosen: list[Candidate],
              until: datetime | None) -> list[Evidence]:
    """The ``turns`` said by ``until`` that the subject says or is named in and that name a chosen
    value, newest first."""
    return newest_first([e for e in turns if e.valid_at and (until is None or e.valid_at <= until)
                         and (subject.named_in(e.text) or (e.speaker or "").lower() in subject.aliases)
                         and any(names(e.text, c.value) for c in chosen)])


def newest_first(evidence: list[Evidence]) -> list[Evidence]:
    return sorted(dedupe(evidence), key=lambda e: e.valid_at or FAR_PAST, reverse=True)


def names(text: str, value: str) -> bool:
    """``text`` names ``value`` as whole words, whatever its case, accents and punctuation."""
    return f" {norm(value)} " in f" {norm(text)} " if norm(value) else False
