"""Graph answers: relation chains (`graph_chain`) and the current value of a slot (`graph_latest`).

A chain question ("Where is Priya's manager from?") is planned into hops and walked over
existing edges. When there is no plan, or a hop finds no edge, the procedure falls back to
*iterative retrieval* — retrieve, take the bridge entity from the evidence (or from where the
walk stopped), retrieve again with it — and then to plain fused retrieval (`lookup`). Every
fallback is recorded in the trace with its reason.

A latest-version question reads the open edge of the (subject, predicate) slot; when the
graph has no such slot, the newest of the best-matching chunks answers.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from planners import cues
from planners.gates import relation_markers
from planners.hop_planner import Hop, HopPlan, find_mentions, plan_hops
from planners.lexicon import ExtraPhrase, Lexicon, build_lexicon
from planners.walker import WalkResult, edge_order, planning_names, qualifier_filter, walk
from tkg.models import Fact
from tkg.text import split_sentences

from .result import ProcedureResult, evidence_from_hits
from .synthesis import best_sentence, content_terms, dedupe, fact_evidence, format_day, newest_first

if TYPE_CHECKING:
    from planners.payloads import Payload
    from tkg.context import Context
    from tkg.ingest.resolve import EntityIndex, ResolvedEntity
    from tkg.predicates import PredicateRegistry

_YES_NO = frozenset({"is", "are", "was", "were", "does", "do", "did", "has", "have"})
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")


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
    words = cues.tokenize(text)
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


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def walk_answer(walked: WalkResult) -> str:
    """The answer a complete walk gives: the count, the time, or the values."""
    if walked.plan.target == "count":
        return str(len(walked.reached))
    if walked.plan.target == "time":
        return ", ".join(format_day(r.path[-1].valid_at) for r in walked.reached)
    return ", ".join(walked.values)


def relation_chain(
    ctx: Context, question: str, group: str, payload: Payload, *, as_of: datetime | None = None
) -> ProcedureResult:
    """Answer a multi-relation question by walking the graph, with retrieval fallbacks.

    >>> relation_chain(ctx, "Where is Priya's manager from?", "priya-marco", payload).answer  # doctest: +SKIP
    'Lagos'
    """
    from .temporal import resolve_anchor

    started = time.perf_counter()
    index = ctx.entities(group)
    slot = analyse(ctx, question, group, index)
    trace: dict[str, Any] = {"procedure": "graph_chain", "question": slot.to_trace(), "fallbacks": [], "timings_ms": {}}
    bridge: list[str] = []
    plan = slot.plan
    remaining: list[Hop] = list(plan.hops[1:]) if plan is not None else []
    if plan is not None:
        when = as_of or (resolve_anchor(ctx, group, plan.as_of_text) if plan.as_of_text else None)
        walked = walk(ctx, group, plan, as_of=when, fanout=payload.fanout, max_hops=max(1, payload.hop_limit), index=index)
        trace["walk"] = walked.to_trace()
        trace["timings_ms"]["walk"] = _ms(started)
        if walked.complete:
            facts = walked.facts
            trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
            return ProcedureResult(
                answer=walk_answer(walked), evidence=fact_evidence(ctx, group, facts), facts=facts, abstained=False, trace=trace
            )
        trace["fallbacks"].append({"from": "walk", "to": "iterative_retrieval", "reason": walked.reason})
        bridge = [b.name for b in walked.bridge]
        if bridge and walked.stopped_at is not None:
            remaining = list(plan.hops[walked.stopped_at :])
    else:
        trace["fallbacks"].append({"from": "plan", "to": "iterative_retrieval", "reason": "no hop plan for the question"})
    t = time.perf_counter()
    result = iterative_retrieval(ctx, question, group, payload, index, slot, bridge, remaining)
    trace["timings_ms"]["iterative_retrieval"] = _ms(t)
    trace["iterative"] = result.trace
    if not result.abstained and result.evidence:
        trace["answered_by"] = "iterative_retrieval"
        return ProcedureResult(result.answer, result.evidence, result.facts, False, trace)
    trace["fallbacks"].append({"from": "iterative_retrieval", "to": "lookup", "reason": result.trace.get("reason", "no answer")})
    from .lookup import lookup

    t = time.perf_counter()
    looked = lookup(ctx, question, group, payload, as_of=as_of)
    trace["timings_ms"]["lookup"] = _ms(t)
    trace["lookup"] = looked.trace
    trace["answered_by"] = "lookup"
    return ProcedureResult(looked.answer, looked.evidence, looked.facts, looked.abstained, trace)


def iterative_retrieval(
    ctx: Context,
    question: str,
    group: str,
    payload: Payload,
    index: EntityIndex,
    slot: QuestionSlot,
    bridge: list[str],
    remaining: list[Hop],
) -> ProcedureResult:
    """Retrieve, find the bridge entity, retrieve again with it; answer from the second round.

    The second query is the bridge's name plus how the remaining hops are said (the registry's
    phrases for their predicates), or the rest of the question when there is no plan.
    """
    from .retrieval import retrieve

    trace: dict[str, Any] = {}
    first = retrieve(ctx, question, group, payload)
    trace["first"] = {"hits": len(first.hits), "counts": first.counts}
    source = "walk"
    if not bridge:
        source = "evidence"
        bridge = bridge_entities(question, first.hits[:5], index, exclude=slot.mentions)
    trace.update(bridge=bridge, bridge_from=source)
    if not bridge:
        return ProcedureResult("", [], [], True, {**trace, "reason": "no bridge entity in the top evidence"})
    focus = hop_phrases(ctx, remaining) if remaining else [_unconsumed(question, slot, bridge[0], first.hits[:5])]
    query = " ".join(dict.fromkeys([bridge[0], *focus])).strip()
    second = retrieve(ctx, query, group, payload)
    trace["second"] = {"query": query, "hits": len(second.hits), "counts": second.counts}
    key = bridge[0].split()[0].lower()
    named = [h for h in second.hits if key in h.text.lower()]
    top = (named or second.hits)[:3]
    if not top:
        return ProcedureResult("", [], [], True, {**trace, "reason": "the second retrieval found nothing"})
    answer = best_sentence(" ".join(focus), top[0].text)
    bridging = [h for h in first.hits[:3] if key in h.text.lower()][:1]
    evidence = dedupe(evidence_from_hits(top, group) + evidence_from_hits(bridging, group))
    return ProcedureResult(answer, evidence, [], False, trace)


def hop_phrases(ctx: Context, hops: list[Hop]) -> list[str]:
    """How text says the remaining hops: each predicate's question phrases and verbs."""
    out: list[str] = []
    for hop in hops:
        if hop.predicate in ctx.registry:
            pred = ctx.registry.get(hop.predicate)
            out.extend([*pred.phrases[:6], *pred.verbs[:4]])
        else:
            out.append(hop.predicate.replace("_", " "))
    return list(dict.fromkeys(out))


def bridge_entities(question: str, hits: list[Any], index: EntityIndex, *, exclude: list[str]) -> list[str]:
    """Group entities named mid-sentence in the top hits that the question does not name."""
    names, aliases = planning_names(question, index)
    skip = {e.lower() for e in exclude}
    out: list[str] = []
    for hit in hits:
        for m in find_mentions(hit.text, names, aliases):
            canonical = m.canonical
            ent = index.find(canonical)
            if canonical.lower() in skip or ent is None or ent.type in ("literal", "date"):
                continue
            single = " " not in canonical
            if single and (_SENTENCE_START.search(hit.text[: m.start]) or m.surface != canonical.split()[0] and m.surface[:1].islower()):
                continue  # "Yes," or "Still" opening a sentence is not a name
            if canonical not in out:
                out.append(canonical)
    return out


def _unconsumed(question: str, slot: QuestionSlot, bridge: str, hits: list[Any]) -> str:
    """The question's words that the bridging sentence did not already answer: "what does the
    friend Noor hiked with play" minus "I went hiking with my friend Tariq" leaves "play"."""
    said = ""
    for hit in hits:
        sentences = [s for s in split_sentences(hit.text) if bridge.split()[0].lower() in s.lower()]
        if sentences:
            said = sentences[0]
            break
    left = content_terms(question, drop=[said, *slot.mentions])
    return " ".join(sorted(left)) or question


def latest_version(
    ctx: Context, question: str, group: str, payload: Payload, *, as_of: datetime | None = None
) -> ProcedureResult:
    """The open edge of the question's (subject, predicate) slot, else the newest supporting chunk.

    >>> latest_version(ctx, "Where does Priya live now?", "priya-marco", payload).answer  # doctest: +SKIP
    'Lisbon'
    """
    index = ctx.entities(group)
    slot = analyse(ctx, question, group, index)
    trace: dict[str, Any] = {"procedure": "graph_latest", "question": slot.to_trace(), "fallbacks": []}
    if slot.plan is not None and (len(slot.plan.hops) > 1 or slot.plan.hops[0].inverse):
        walked = walk(ctx, group, slot.plan, as_of=as_of, fanout=payload.fanout, index=index)
        trace["walk"] = walked.to_trace()
        if walked.complete:
            facts = walked.facts
            trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
            return ProcedureResult(walk_answer(walked), fact_evidence(ctx, group, facts), facts, False, trace)
    if slot.subject is not None and slot.predicate:
        current = current_slot(ctx, group, slot, as_of)
        trace["slot"] = {"subject": slot.subject.name, "predicate": slot.predicate, "current": [f.object for f in current]}
        if current:
            history = slot_history(ctx, group, slot)
            older = [f for f in history if f.uuid not in {c.uuid for c in current}][-2:]
            evidence = fact_evidence(ctx, group, current) + fact_evidence(ctx, group, older[::-1], score=0.5)
            trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
            return ProcedureResult(latest_answer(question, slot, current), evidence, current + older, False, trace)
        trace["fallbacks"].append({"from": "slot", "to": "newest_chunks", "reason": "the graph has no open edge for the slot"})
    else:
        trace["fallbacks"].append({"from": "slot", "to": "newest_chunks", "reason": "no (subject, predicate) in the question"})
    return newest_chunks(ctx, question, group, payload, trace)


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


def newest_chunks(
    ctx: Context, question: str, group: str, payload: Payload, trace: dict[str, Any], *, top: int = 5
) -> ProcedureResult:
    """The best-scoring hits, in order of support; the newest of the first few answers."""
    from .retrieval import retrieve

    got = retrieve(ctx, question, group, payload)
    trace["retrieval"] = {"hits": len(got.hits), "counts": got.counts, "timings_ms": got.timings_ms}
    evidence = evidence_from_hits(got.hits, group)
    if not evidence:
        return ProcedureResult("", [], [], True, {**trace, "reason": "retrieval found nothing"})
    newest = newest_first(evidence[:top])[0]  # the answer: the newest of the best few
    trace["answered_by"] = "newest_chunks"
    trace["answer_from"] = newest.source_ref
    return ProcedureResult(best_sentence(question, newest.text), evidence, [], False, trace)
