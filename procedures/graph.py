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
from datetime import datetime
from typing import TYPE_CHECKING, Any

from planners.hop_planner import Hop, find_mentions
from planners.question import Question, QuestionSlot
from tkg.text import content_terms, split_sentences, stems_of

from .lookup import lookup
from .result import ProcedureResult, evidence_from_hits
from .retrieval import retrieve
from .slots import analyse, current_slot, latest_answer, resolve_anchor, slot_history, walk_answer
from .synthesis import best_sentence, dedupe, fact_evidence, newest_first, scored_sentence
from .walker import walk

if TYPE_CHECKING:
    from planners.payloads import Payload
    from tkg.context import Context
    from tkg.entities import EntityIndex

_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def relation_chain(
    ctx: Context, q: Question, group: str, payload: Payload, *, as_of: datetime | None = None
) -> ProcedureResult:
    """Answer a multi-relation question by walking the graph, with retrieval fallbacks
    ("Where is Priya's manager from?" → "Lagos")."""
    started = time.perf_counter()
    index = ctx.entities(group)
    slot = analyse(ctx, q, group)
    trace: dict[str, Any] = {
        "procedure": "graph_chain",
        "question": slot.to_trace(),
        "fallbacks": [],
        "timings_ms": {},
    }
    bridge: list[str] = []
    plan = slot.plan
    remaining: list[Hop] = list(plan.hops[1:]) if plan is not None else []
    if plan is not None:
        when = as_of or (resolve_anchor(ctx, group, plan.as_of_text) if plan.as_of_text else None)
        walked = walk(
            ctx,
            group,
            plan,
            as_of=when,
            fanout=payload.fanout,
            max_hops=max(1, payload.hop_limit),
            index=index,
        )
        trace["walk"] = walked.to_trace()
        trace["timings_ms"]["walk"] = _ms(started)
        if walked.complete:
            facts = walked.facts
            trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
            return ProcedureResult(
                answer=walk_answer(walked),
                evidence=fact_evidence(ctx, group, facts),
                facts=facts,
                abstained=False,
                trace=trace,
            )
        trace["fallbacks"].append({"from": "walk", "to": "iterative_retrieval", "reason": walked.reason})
        bridge = [b.name for b in walked.bridge]
        if bridge and walked.stopped_at is not None:
            remaining = list(plan.hops[walked.stopped_at :])
    else:
        trace["fallbacks"].append(
            {"from": "plan", "to": "iterative_retrieval", "reason": "no hop plan for the question"}
        )
    t = time.perf_counter()
    result = iterative_retrieval(ctx, q, group, payload, index, slot, bridge, remaining)
    trace["timings_ms"]["iterative_retrieval"] = _ms(t)
    trace["iterative"] = result.trace
    if not result.abstained and result.evidence:
        trace["answered_by"] = "iterative_retrieval"
        return ProcedureResult(result.answer, result.evidence, result.facts, False, trace)
    trace["fallbacks"].append(
        {"from": "iterative_retrieval", "to": "lookup", "reason": result.trace.get("reason", "no answer")}
    )
    t = time.perf_counter()
    looked = lookup(ctx, q, group, payload, as_of=as_of)
    trace["timings_ms"]["lookup"] = _ms(t)
    trace["lookup"] = looked.trace
    trace["answered_by"] = "lookup"
    return ProcedureResult(looked.answer, looked.evidence, looked.facts, looked.abstained, trace)


def iterative_retrieval(
    ctx: Context,
    q: Question,
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
    trace: dict[str, Any] = {}
    first = retrieve(ctx, q.query, group, payload)
    trace["first"] = {"hits": len(first.hits), "counts": first.counts}
    source = "walk"
    if not bridge:
        source = "evidence"
        bridge = bridge_entities(q, first.hits[:5], index, exclude=slot.mentions)
    trace.update(bridge=bridge, bridge_from=source)
    if not bridge:
        return ProcedureResult("", [], [], True, {**trace, "reason": "no bridge entity in the top evidence"})
    focus = hop_phrases(ctx, remaining) if remaining else [_unconsumed(q, slot, bridge[0], first.hits[:5])]
    query = " ".join(dict.fromkeys([bridge[0], *focus])).strip()
    second = retrieve(ctx, query, group, payload)
    trace["second"] = {"query": query, "hits": len(second.hits), "counts": second.counts}
    key = bridge[0].split()[0].lower()
    named = [h for h in second.hits if key in h.text.lower()]
    top = (named or second.hits)[:3]
    if not top:
        return ProcedureResult("", [], [], True, {**trace, "reason": "the second retrieval found nothing"})
    # the sentence that says most of the hop's own words (the rest of the question besides the
    # subject and the bridge), from the top hits naming the bridge and then the top hits at all; one
    # that says none of them is no answer ("Hi.")
    hop = content_terms(" ".join(focus))
    pool = list({h.episode_uuid: h for h in top + second.hits[:3]}.values())
    said = [(scored_sentence(hop, h.text), -i, h) for i, h in enumerate(pool)]
    (score, answer), _, _ = max(said, key=lambda s: (s[0][0], s[1]))
    bridging = [h for h in first.hits[:3] if key in h.text.lower()][:1]
    evidence = dedupe(evidence_from_hits(top, group) + evidence_from_hits(bridging, group))
    if score <= 0:  # the same evidence, as related turns
        return ProcedureResult("", evidence, [], True,
                               {**trace, "reason": "no sentence of the second retrieval says the hop"})
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


def bridge_entities(q: Question, hits: list[Any], index: EntityIndex, *, exclude: list[str]) -> list[str]:
    """Group entities named mid-sentence in the top hits that the question does not name."""
    names, aliases = list(q.entity_names), q.aliases
    skip = {e.lower() for e in exclude}
    out: list[str] = []
    for hit in hits:
        for m in find_mentions(hit.text, names, aliases):
            canonical = m.canonical
            ent = index.find(canonical)
            if canonical.lower() in skip or ent is None or ent.type in ("literal", "date"):
                continue
            single = " " not in canonical
            if single and (
                _SENTENCE_START.search(hit.text[: m.start])
                or m.surface != canonical.split()[0]
                and m.surface[:1].islower()
            ):
                continue  # "Yes," or "Still" opening a sentence is not a name
            if canonical not in out:
                out.append(canonical)
    return out


def _unconsumed(q: Question, slot: QuestionSlot, bridge: str, hits: list[Any]) -> str:
    """The question's words that the bridging sentence did not already answer: "what does the
    friend Noor hiked with play" minus "I went hiking with my friend Tariq" leaves "play"."""
    said = ""
    for hit in hits:
        sentences = [s for s in split_sentences(hit.text) if bridge.split()[0].lower() in s.lower()]
        if sentences:
            said = sentences[0]
            break
    left = q.terms - stems_of([said, *slot.mentions])
    return " ".join(sorted(left)) or q.text


def latest_version(
    ctx: Context, q: Question, group: str, payload: Payload, *, as_of: datetime | None = None
) -> ProcedureResult:
    """The open edge of the question's (subject, predicate) slot, else the newest supporting chunk
    ("Where does Priya live now?" → "Lisbon")."""
    index = ctx.entities(group)
    slot = analyse(ctx, q, group)
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
        trace["slot"] = {
            "subject": slot.subject.name,
            "predicate": slot.predicate,
            "current": [f.object for f in current],
        }
        if current:
            history = slot_history(ctx, group, slot)
            older = [f for f in history if f.uuid not in {c.uuid for c in current}][-2:]
            evidence = fact_evidence(ctx, group, current) + fact_evidence(ctx, group, older[::-1], score=0.5)
            trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
            return ProcedureResult(
                latest_answer(q.text, slot, current), evidence, current + older, False, trace
            )
        trace["fallbacks"].append(
            {"from": "slot", "to": "newest_chunks", "reason": "the graph has no open edge for the slot"}
        )
    else:
        trace["fallbacks"].append(
            {"from": "slot", "to": "newest_chunks", "reason": "no (subject, predicate) in the question"}
        )
    return newest_chunks(ctx, q, group, payload, trace)


def newest_chunks(
    ctx: Context, q: Question, group: str, payload: Payload, trace: dict[str, Any], *, top: int = 5
) -> ProcedureResult:
    """The best-scoring hits, in order of support; the newest of the first few answers."""
    got = retrieve(ctx, q.query, group, payload)
    trace["retrieval"] = {"hits": len(got.hits), "counts": got.counts, "timings_ms": got.timings_ms}
    evidence = evidence_from_hits(got.hits, group)
    if not evidence:
        return ProcedureResult("", [], [], True, {**trace, "reason": "retrieval found nothing"})
    newest = newest_first(evidence[:top])[0]  # the answer: the newest of the best few
    trace["answered_by"] = "newest_chunks"
    trace["answer_from"] = newest.source_ref
    return ProcedureResult(best_sentence(q, newest.text), evidence, [], False, trace)
