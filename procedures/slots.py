"""A parsed question grounded in one group: the slot it asks about (subject, predicate, qualifier,
object) with the slot's current value and history read from the graph, and the time its relative
words are read against (the group's latest turn) with the window or point a time anchor ("July
2023", "before 2022", "last summer") denotes.

The graph, lookup, temporal, aggregation and reading procedures all ground a question this way.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

from planners.lexicon import ExtraPhrase, Lexicon, build_lexicon
from planners.question import Question, QuestionSlot, parse
from tkg.models import Fact, utcnow
from tkg.timeparse import find_times

from .group_turns import group_span
from .synthesis import format_day
from .walker import WalkResult, edge_order, qualifier_filter

if TYPE_CHECKING:
    from tkg.context import Context
    from tkg.predicates import PredicateRegistry
    from tkg.stores.base import Row

Window = tuple[datetime, datetime]
FAR_PAST = datetime(1900, 1, 1, tzinfo=UTC)
FAR_FUTURE = datetime(2200, 1, 1, tzinfo=UTC)
_YES_NO = frozenset({"is", "are", "was", "were", "does", "do", "did", "has", "have"})


@lru_cache(maxsize=8)
def lexicon_for(registry: PredicateRegistry) -> Lexicon:
    """The planner's lexicon plus the registry's question phrases (built-ins win)."""
    return build_lexicon([ExtraPhrase(ph, pred, inv) for ph, pred, inv in registry.lexicon()])


def analyse(ctx: Context, q: Question, group: str) -> QuestionSlot:
    """The question's slot as parsed (`Question.slot`); when the text names a subject and an
    object but no relation, the relation of the newest edge between them.

    >>> analyse(ctx, route("Is Priya still in Leeds?", index=idx).question, "g").obj.name  # doctest: +SKIP
    'Leeds'
    """
    slot = replace(q.slot, mentions=list(q.slot.mentions), notes=list(q.slot.notes))
    if slot.plan is None and slot.predicate is None and slot.subject is not None and slot.obj is not None:
        rows = edges_between(ctx, group, slot.subject.uuid, slot.obj.uuid)
        if rows:
            newest = min((Fact.from_row(r, group) for r in rows), key=edge_order)
            slot.predicate = newest.predicate
            slot.notes.append(f"predicate from the edge {slot.subject.name} → {slot.obj.name}")
    return slot


def edges_between(ctx: Context, group: str, a: str, b: str) -> list[Row]:
    """Every version of every edge between entities ``a`` and ``b`` (``graph.edges_between``), kept
    while the group's write stamp stays (tkg/group_cache.py): the same pair is asked about again and
    again, and each read is two statements. Read only, never changed by the caller."""
    return ctx.cache.get(group, f"edges_between {a} {b}", ctx.stamp(group), lambda: ctx.store.named(
        "graph.edges_between", {"group_id": group, "pair": [a, b]}))


def question_in(ctx: Context, text: str, group: str) -> Question:
    """``text`` parsed against the group's entities and the registry's phrases, as the router
    parses it (for callers that run one procedure without routing)."""
    return parse(text, index=ctx.entities(group), lexicon=lexicon_for(ctx.registry))


def walk_answer(walked: WalkResult) -> str:
    """The answer a complete walk gives: the count, the time, or the values."""
    if walked.plan.target == "count":
        return str(len(walked.reached))
    if walked.plan.target == "time":
        return ", ".join(format_day(r.path[-1].valid_at) for r in walked.reached)
    return ", ".join(walked.values)


def current_slot(ctx: Context, group: str, slot: QuestionSlot, as_of: datetime | None) -> list[Fact]:
    assert slot.subject is not None and slot.predicate
    params = {"group_id": group, "subject_uuids": [slot.subject.uuid], "predicate": slot.predicate}
    rows = (
        ctx.store.named("fact.state_current", params)
        if as_of is None
        else ctx.store.named("fact.state_as_of", {**params, "as_of": as_of})
    )
    facts = qualifier_filter(slot.hop(), [Fact.from_row(r, group) for r in rows])
    return sorted(facts, key=edge_order)


def slot_history(ctx: Context, group: str, slot: QuestionSlot) -> list[Fact]:
    assert slot.subject is not None and slot.predicate
    rows = ctx.store.named(
        "fact.history", {"group_id": group, "subject_uuids": [slot.subject.uuid], "predicate": slot.predicate}
    )
    return qualifier_filter(slot.hop(), [Fact.from_row(r, group) for r in rows])


def latest_answer(question: str, slot: QuestionSlot, current: list[Fact]) -> str:
    """The newest open value (older open values of a multi-valued slot follow as "also")."""
    values = list(dict.fromkeys(f.object for f in current))
    value = values[0] + (f" (also: {', '.join(values[1:])})" if len(values) > 1 else "")
    first = question.strip().split(" ", 1)[0].lower()
    if first in _YES_NO and slot.obj is not None:
        if any(f.object_uuid == slot.obj.uuid for f in current):
            return f"Yes, {slot.obj.name}"
        return f"No, {value} now"
    return value


def group_time(ctx: Context, group: str) -> datetime:
    """The time of the group's latest turn (what "now" means for its relative words), else now."""
    rows = group_span(ctx, group)
    last = rows[0]["last"] if rows else None
    return last if isinstance(last, datetime) else utcnow()


def resolve_window(text: str, anchor: datetime) -> Window | None:
    """The interval a time anchor denotes; "before"/"after"/"since"/"until" open one side.

    >>> from datetime import UTC
    >>> [d.date().isoformat() for d in resolve_window("July 2023", datetime(2024, 1, 1, tzinfo=UTC))]
    ['2023-07-01', '2023-08-01']
    """
    words = text.strip()
    lead = words.split(" ", 1)[0].lower()
    core = (
        words.split(" ", 1)[1]
        if lead in ("before", "after", "since", "until", "till") and " " in words
        else words
    )
    refs = find_times(core, anchor)
    if not refs:  # a bare "2019", "march" or "the summer" reads as a time only after "in"
        refs = find_times(f"in {core}", anchor)
    if not refs:
        return None
    start, end = refs[0].start, refs[0].end
    if lead in ("before", "until", "till"):
        return (FAR_PAST, start)
    if lead == "after":
        return (end, FAR_FUTURE)
    if lead == "since":
        return (start, FAR_FUTURE)
    return (start, end)


def resolve_anchor(ctx: Context, group: str, text: str | None) -> datetime | None:
    """A point for a time anchor: the middle of its window (or the open side's edge)."""
    if not text:
        return None
    window = resolve_window(text, group_time(ctx, group))
    if window is None:
        return None
    lo, hi = window
    if lo == FAR_PAST:
        return hi - timedelta(seconds=1)
    if hi == FAR_FUTURE:
        return lo
    return lo + (hi - lo) / 2


def employer_at(ctx: Context, group: str, name: str, at: datetime | None) -> str | None:
    """Where ``name`` works by the graph, now or at ``at``: a job title is said with its employer
    ("senior writer at Quillfern"), as people ask after a job."""
    ent = ctx.entities(group).find(name, "person")
    if ent is None:
        return None
    params = {"group_id": group, "subject_uuids": [ent.uuid], "predicate": "works_at"}
    rows = ctx.store.named("fact.state_current", params) if at is None else ctx.store.named(
        "fact.state_as_of", {**params, "as_of": at})
    facts = sorted((Fact.from_row(r, group) for r in rows), key=edge_order)
    return facts[0].object if facts else None
