"""The slot a question asks about, grounded in one group: subject, predicate, qualifier, object,
and the slot's current value and history read from the graph.

The graph, lookup, temporal and aggregation procedures all read a question's slot this way.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from planners.lexicon import ExtraPhrase, Lexicon, build_lexicon
from planners.question import Question, QuestionSlot, parse
from tkg.models import Fact

from .synthesis import format_day
from .walker import WalkResult, edge_order, qualifier_filter

if TYPE_CHECKING:
    from tkg.context import Context
    from tkg.predicates import PredicateRegistry

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
        rows = ctx.store.named("graph.edges_between", {"group_id": group, "pair": [slot.subject.uuid, slot.obj.uuid]})
        if rows:
            newest = min((Fact.from_row(r, group) for r in rows), key=edge_order)
            slot.predicate = newest.predicate
            slot.notes.append(f"predicate from the edge {slot.subject.name} → {slot.obj.name}")
    return slot


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
