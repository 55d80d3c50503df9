"""One parsed question: everything the procedures read from the question's text, computed once.

The router parses the question (`parse`) and hands the `Question` down; no procedure parses
the raw string again. Pure: the group's `EntityIndex` and the registry's `Lexicon` come in as
data (the procedures read them), so nothing here touches a store.

    text       the question as asked
    tokens     `tkg.text.tokenize` (contractions opened, possessives split off)
    terms      stemmed content words (`tkg.text.content_terms`)
    query      what the indexes see (`planners.query_text`: full-text words, dense text, names, a date)
    named      capitalised words that may name someone or something (`query_text.names_in`)
    asked      the kind of value asked for (`planners.asked`)
    anchor     the time anchor it names ("in March 2023", "before 2022"), unresolved
    gates      the query gates (cues) and whether each fired
    entity_names, aliases   the group's names and aliases worth planning with (`planners.mentions`)
    mentions   canonical names of the group's entities it mentions, left to right
    plan       the hop plan, if the grammar parses it
    slot       subject, predicate, qualifier and object as far as the text alone says

Example::

    >>> q = parse("How many cities has Marta lived in since 2019?")
    >>> q.asked.kind, q.anchor.text, sorted(q.terms)
    ('number', 'since 2019', ['2019', 'citi', 'live', 'marta', 'since'])
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from tkg.text import content_terms, tokenize

from . import cues
from .asked import Asked, asked_for
from .gates import GateResult, relation_markers, run_query_gates
from .hop_planner import Hop, HopPlan, find_mentions, plan_hops
from .lexicon import DEFAULT_LEXICON, Lexicon
from .mentions import planning_names
from .query_text import QueryText, names_in, parse_question

if TYPE_CHECKING:
    from tkg.entities import EntityIndex, ResolvedEntity


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


@dataclass(frozen=True)
class Question:
    """A question parsed once (see the module doc)."""

    text: str
    tokens: tuple[str, ...]
    terms: frozenset[str]
    query: QueryText
    named: tuple[str, ...]
    asked: Asked
    anchor: cues.TimeAnchor | None
    gates: tuple[GateResult, ...]
    entity_names: tuple[str, ...] = ()
    aliases: dict[str, str] = field(default_factory=dict)
    mentions: tuple[str, ...] = ()
    plan: HopPlan | None = None
    slot: QuestionSlot = field(default_factory=lambda: QuestionSlot([], None))


def parse(text: str, *, index: EntityIndex | None = None, lexicon: Lexicon | None = None) -> Question:
    """Parse ``text`` once; with the group's ``index``, its mentions, hop plan and slot too."""
    lexicon = lexicon or DEFAULT_LEXICON
    anchor = cues.find_time_anchor(text)
    q = Question(
        text,
        tuple(tokenize(text)),
        frozenset(content_terms(text)),
        parse_question(text),
        names_in(text),
        asked_for(text),
        anchor,
        tuple(run_query_gates(text)),
    )
    if index is None:
        return q
    names, aliases = planning_names(text, index)
    plan = plan_hops(text, names, aliases=aliases, lexicon=lexicon)
    mentions = list(dict.fromkeys(m.canonical for m in find_mentions(text, names, aliases)))
    slot = _slot(text, anchor, index, lexicon, mentions, plan)
    return replace(
        q, entity_names=tuple(names), aliases=aliases, mentions=tuple(mentions), plan=plan, slot=slot
    )


def _slot(
    text: str,
    anchor: cues.TimeAnchor | None,
    index: EntityIndex,
    lexicon: Lexicon,
    mentions: list[str],
    plan: HopPlan | None,
) -> QuestionSlot:
    """Subject, predicate and object from the hop plan, else from the mentions and the lexicon."""
    slot = QuestionSlot(list(mentions), plan)
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
    words = tokenize(text if anchor is None else anchor.cut(text))
    for pos, kind, phrase in relation_markers(words, lexicon):
        entry = lexicon.match(words, pos, kind)  # type: ignore[arg-type]
        if entry is not None and not entry[0].inverse:
            slot.predicate, slot.qualifier = entry[0].predicate, entry[0].qualifier
            slot.notes.append(f"predicate from the phrase {phrase!r}")
            break
    return slot
