"""Counting and listing over fact histories: "how many cities has Priya lived in?".

The graph keeps every version of a slot, so "which pets has she had" is the distinct objects
of `has_pet` over all time — each with its interval (first valid_at to last invalid_at) and the
turns that said it. Versions a correction emptied (invalid_at <= valid_at) never held and are
not counted. With `as_of`, only values that had begun by then count. When the graph has no
such history, plain fused retrieval (`lookup`) answers and the trace says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from planners.cues import recency_cue
from planners.lexicon import Lexicon
from planners.question import Question, QuestionSlot
from tkg.models import Fact
from tkg.text import normalize_name

from .coverage import HEAD, covers
from .lookup import lookup
from .result import ProcedureResult
from .slots import analyse, lexicon_for
from .synthesis import fact_evidence, format_day
from .walker import STRICT_QUALIFIERS

if TYPE_CHECKING:
    from planners.payloads import Payload
    from tkg.context import Context

# A relation and the ones that answer the same list question ("which bands has he liked"
# is also answered by his favourite bands).
RELATED: dict[str, tuple[str, ...]] = {"likes": ("likes", "favorite"), "favorite": ("favorite", "likes")}
_FAR_FUTURE = datetime(2200, 1, 1, tzinfo=UTC)


@dataclass
class Value:
    """One distinct object of the counted relation, with when it held and who said so."""

    subject: str
    name: str
    facts: list[Fact] = field(default_factory=list)

    @property
    def start(self) -> datetime | None:
        return min((f.valid_at for f in self.facts if f.valid_at), default=None)

    @property
    def end(self) -> datetime | None:
        """None while any version is still open."""
        if any(f.invalid_at is None for f in self.facts):
            return None
        return max(f.invalid_at for f in self.facts if f.invalid_at)

    def interval(self) -> str:
        if self.end is None:
            return f"since {format_day(self.start)}"
        return f"{format_day(self.start)} – {format_day(self.end)}"


def head_predicate(question: str, lexicon: Lexicon) -> tuple[str, str] | None:
    """(predicate, qualifier) named by the noun after "how many"/"which": "pets" → has_pet."""
    m = HEAD.search(question)
    if m is None:
        return None
    word = m.group(1).lower()
    for form in (
        word,
        word[:-3] + "y" if word.endswith("ies") else word,
        word[:-2] if word.endswith("es") else word,
        word[:-1],
    ):
        entry = lexicon.nouns.get(form)
        if entry is not None and not entry.inverse:
            return entry.predicate, entry.qualifier
    return None


def distinct_values(facts: list[Fact], qualifier: str = "") -> list[Value]:
    """Group versions by (subject, object); drop emptied versions; oldest value first."""
    kept = [
        f
        for f in facts
        if not (f.invalid_at is not None and f.valid_at is not None and f.invalid_at <= f.valid_at)
    ]
    if qualifier:
        want = qualifier.lower()

        def fits(f: Fact) -> bool:
            return f.qualifier.lower().startswith(want) or want in f.qualifier.lower().split()

        strict = [f for f in kept if f.predicate in STRICT_QUALIFIERS and fits(f)]
        loose = [f for f in kept if f.predicate not in STRICT_QUALIFIERS]
        # a hint for loose predicates: the fitting ones when any fit, else all unless a strict value answered
        kept = strict + ([f for f in loose if fits(f)] or ([] if strict else loose))
    values: dict[tuple[str, str], Value] = {}
    for f in kept:
        key = (f.subject, normalize_name(f.object))
        values.setdefault(key, Value(f.subject, f.object)).facts.append(f)
    return sorted(values.values(), key=lambda v: (v.start or _FAR_FUTURE, v.name))


def aggregate(
    ctx: Context, q: Question, group: str, payload: Payload, *, as_of: datetime | None = None
) -> ProcedureResult:
    """Count or list the distinct values of a relation over the subject's whole history ("How
    many cities has Priya lived in?" → "3: Bristol (12 March 2023 – 4 June 2023); Leeds (...); ...")."""
    slot = analyse(ctx, q, group)
    trace: dict[str, Any] = {"procedure": "aggregation", "question": slot.to_trace(), "fallbacks": []}
    predicate, qualifier = _relation(q, slot, lexicon_for(ctx.registry))
    trace["relation"] = {"predicate": predicate, "qualifier": qualifier}
    if predicate is None:
        return _fallback(ctx, q, group, payload, as_of, trace, "no relation to count in the question")
    predicates = list(RELATED.get(predicate, (predicate,)))
    if slot.subject is not None:
        rows = ctx.store.named(
            "aggregate.history",
            {"group_id": group, "predicates": predicates, "subject_uuids": [slot.subject.uuid]},
        )
        trace["subjects"] = [slot.subject.name]
    else:
        rows = ctx.store.named("aggregate.history_all", {"group_id": group, "predicates": predicates})
        trace["subjects"] = "all (no subject named)"
    facts = [Fact.from_row(r, group) for r in rows]
    if as_of is not None:
        facts = [f for f in facts if f.valid_at is not None and f.valid_at <= as_of]
    values = distinct_values(facts, qualifier)
    if held_now(q.text):  # "how many pets does she have now": the ones still held, not all ever
        values = [v for v in values if v.end is None or (as_of is not None and v.end > as_of)]
        trace["held_now"] = True
    trace["versions"] = len(facts)
    trace["values"] = [
        {"subject": v.subject, "value": v.name, "interval": v.interval(), "versions": len(v.facts)}
        for v in values
    ]
    if not values:
        return _fallback(ctx, q, group, payload, as_of, trace, f"no {predicate} history in the graph")
    subjects = [slot.subject.name] if slot.subject is not None else []
    if not covers(q, subjects, predicate, [f for v in values for f in v.facts], ctx.registry):
        return _fallback(ctx, q, group, payload, as_of, trace,
                         f"the {predicate} values do not say what the question asks about")
    listing = "; ".join(f"{v.name} ({v.interval()})" for v in values)
    counting = bool(re.search(r"\bhow many\b|\bnumber of\b|\bcount\b", q.text, re.I))
    answer = f"{len(values)}: {listing}" if counting else listing
    firsts = [v.facts[0] for v in values]
    trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
    return ProcedureResult(
        answer, fact_evidence(ctx, group, firsts), [f for v in values for f in v.facts], False, trace
    )


_PRESENT_HAVE = re.compile(r"\b(?:do|does)\s+(?:\S+\s+){1,4}?(?:have|own|keep)\b", re.I)


def held_now(question: str) -> bool:
    """Whether the question counts what is held at one moment ("how many pets does Priya have
    (now)?", "which cars does she currently own?") rather than everything there ever was ("how
    many cities has Priya lived in?", "which pets has she had?").

    >>> held_now("How many pets does Priya have?"), held_now("Which pets has Priya had?")
    (True, False)
    """
    return bool(recency_cue(question) or _PRESENT_HAVE.search(question))


def _relation(q: Question, slot: QuestionSlot, lexicon: Lexicon) -> tuple[str | None, str]:
    if slot.predicate:
        return slot.predicate, slot.qualifier
    if slot.plan is not None:
        hop = slot.plan.hops[-1]
        if not hop.inverse:
            return hop.predicate, hop.qualifier
    head = head_predicate(q.text, lexicon)
    return (head[0], head[1]) if head else (None, "")


def _fallback(
    ctx: Context,
    q: Question,
    group: str,
    payload: Payload,
    as_of: datetime | None,
    trace: dict[str, Any],
    reason: str,
) -> ProcedureResult:
    trace["fallbacks"].append({"from": "graph", "to": "lookup", "reason": reason})
    looked = lookup(ctx, q, group, payload, as_of=as_of)
    trace["lookup"] = looked.trace
    trace["answered_by"] = "lookup"
    return ProcedureResult(looked.answer, looked.evidence, looked.facts, looked.abstained, trace)
