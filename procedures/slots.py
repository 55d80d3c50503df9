"""The slot a question asks about, grounded in one group: subject, predicate, qualifier, object,
and the slot's current value and history read from the graph.

The graph, lookup, temporal and aggregation procedures all read a question's slot this way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from planners import cues
from planners.gates import relation_markers
from planners.hop_planner import Hop, HopPlan, find_mentions, plan_hops
from planners.lexicon import ExtraPhrase, Lexicon, build_lexicon
from planners.mentions import planning_names
from tkg.models import Fact
from tkg.text import tokenize

from .synthesis import format_day
from .walker import WalkResult, edge_order, qualifier_filter

if TYPE_CHECKING:
    from tkg.context import Context
    from tkg.ingest.resolve import EntityIndex, ResolvedEntity
    from tkg.predicates import PredicateRegistry

_YES_NO = frozenset({"is", "are", "was", "were", "does", "do", "did", "has", "have"})


@lru_cache(maxsize=8)
def lexicon_for(registry: PredicateRegistry) -> Lexicon:
    """The planner's lexicon plus the registry's question phrases (built-ins win)."""
    return build_lexicon([ExtraPhrase(ph, pred, inv) for ph, pred, inv in registry.lexicon()])


@dataclass
class QuestionSlot:
    """What a question asks about, grounded in the group: subject, relation, maybe an object."""

    mentions: list[str]
    plan: HopPlan | None
    subject: ResolvedEntity | None = None
    predicate: str | None = None
    qualifier: str = ""
    obj: ResolvedEntity | None = None
    notes: list[str] = field(default_factory=list)

    def hop(self) -> Hop:
        return Hop(self.predicate or "", False, self.qualifier)

    def to_trace(self) -> dict[str, Any]:
        return {
            "mentions": self.mentions,
            "plan": _plan_trace(self.plan),
            "subject": self.subject.name if self.subject else None,
            "predicate": self.predicate,
            "qualifier": self.qualifier,
            "object": self.obj.name if self.obj else None,
            "notes": self.notes,
        }


def _plan_trace(plan: HopPlan | None) -> dict[str, Any] | None:
    if plan is None:
        return None
    return {"seed": plan.seed, "hops": [(h.predicate, h.inverse, h.qualifier) for h in plan.hops],
            "target": plan.target, "as_of_text": plan.as_of_text}  # fmt: skip


def analyse(ctx: Context, question: str, group: str, index: EntityIndex) -> QuestionSlot:
    """Subject, predicate and object of `question` from the hop planner, else from the lexicon.

    >>> analyse(ctx, "Is Priya still in Leeds?", "g", idx).obj.name  # doctest: +SKIP
    'Leeds'
    """
    names, aliases = planning_names(question, index)
    lexicon = lexicon_for(ctx.registry)
    plan = plan_hops(question, names, aliases=aliases, lexicon=lexicon)
    mentions = [m.canonical for m in find_mentions(question, names, aliases)]
    mentions = list(dict.fromkeys(mentions))
    slot = QuestionSlot(mentions, plan)
    if plan is not None:
        slot.subject = index.find(plan.seed, "person")
        if len(plan.hops) == 1 and not plan.hops[0].inverse:
            slot.predicate, slot.qualifier = plan.hops[0].predicate, plan.hops[0].qualifier
        others = [m for m in mentions if m != plan.seed]
        slot.obj = index.find(others[0]) if others else None
        return slot
    ents = [e for e in (index.find(m, "person") for m in mentions) if e is not None]
    people = [e for e in ents if e.type in ("person", "pet")]
    pool = people or ents
    slot.subject = pool[0] if pool else None
    rest = [e for e in ents if slot.subject is None or e.uuid != slot.subject.uuid]
    slot.obj = rest[0] if rest else None
    anchor = cues.find_time_anchor(question)
    text = question if anchor is None else question[: anchor.start] + question[anchor.end :]
    words = tokenize(text)
    for pos, kind, phrase in relation_markers(words, lexicon):
        entry = lexicon.match(words, pos, kind)  # type: ignore[arg-type]
        if entry is not None and not entry[0].inverse:
            slot.predicate, slot.qualifier = entry[0].predicate, entry[0].qualifier
            slot.notes.append(f"predicate from the phrase {phrase!r}")
            break
    if slot.predicate is None and slot.subject is not None and slot.obj is not None:
        rows = ctx.store.named("graph.edges_between", {"group_id": group, "pair": [slot.subject.uuid, slot.obj.uuid]})
        if rows:
            newest = min((Fact.from_row(r, group) for r in rows), key=edge_order)
            slot.predicate = newest.predicate
            slot.notes.append(f"predicate from the edge {slot.subject.name} → {slot.obj.name}")
    return slot


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
