"""The answer orchestrator: route → procedure → runtime gates → synthesis → `Answer`.

`Memory.ask` calls :func:`answer_question`. The router picks the mode and payload; the
payload's procedure answers; then runtime gates may revise the result:

* **empty retrieval** — the procedure found no evidence: retry with
  `empty_retrieval_fallback(payload)` (deeper, every index, no graph walk) through `lookup`;
* **evidence backfill** — fewer than `BACKFILL_TO` evidence items (a graph answer names one or
  two source turns): the turns direct retrieval ranks for the question follow them;
* **abstention** — the payload asks for grounding and the question's main entity or attribute
  has no support in the group (`procedures.abstain.ground`): the answer is
  "No information available", with what was looked at as evidence.

The trace is the route's (`Route.to_dict()`) plus the procedure's own steps, every runtime
gate with whether it fired and why, timings per stage and candidate counts. An unknown group
abstains without an exception; its trace says the group is empty.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from planners.gates import abstention_gate, empty_retrieval_fallback
from planners.payloads import Payload, load_payloads
from planners.router import route
from tkg.models import NO_INFORMATION, Answer, Evidence, Fact

from .abstain import ground
from .result import ProcedureResult, evidence_from_hits
from .synthesis import content_terms, dedupe, synthesize

if TYPE_CHECKING:
    from tkg.memory import Context

Procedure = Callable[..., ProcedureResult]
BACKFILL_TO = 10  # evidence items an answer should carry when retrieval can supply them


def procedures() -> dict[str, Procedure]:
    """Procedure name (as payloads name them) → function(ctx, question, group, payload, *, as_of)."""
    from .aggregation import aggregate
    from .graph import latest_version, relation_chain
    from .longform import long_form
    from .lookup import lookup
    from .temporal import temporal

    return {
        "lookup": lookup,
        "graph_chain": relation_chain,
        "graph_latest": latest_version,
        "temporal": temporal,
        "long_form": long_form,
        "aggregation": aggregate,
    }


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def answer_question(
    ctx: Context, question: str, *, group: str, mode: str | None = None, as_of: datetime | None = None
) -> Answer:
    """Answer `question` from `group`'s memory, with evidence and the full routing trace.

    >>> a = answer_question(mem.ctx, "Where does Priya live?", group="priya-marco")  # doctest: +SKIP
    >>> a.answer, a.procedure, a.evidence[0].source_ref  # doctest: +SKIP
    ('Lisbon', 'graph_latest', 'D6:2')
    """
    started = time.perf_counter()
    timings: dict[str, float] = {}
    t = time.perf_counter()
    payloads = load_payloads(ctx.payloads_path) if ctx.payloads_path else None
    r = route(question, mode=mode, as_of=as_of, payloads=payloads)
    timings["route"] = _ms(t)
    trace: dict[str, Any] = r.to_dict()
    trace["route_timings_ms"] = trace.pop("timings_ms")
    empty = not ctx.store.named("group.exists", {"group_id": group})
    trace["group"] = {"name": group, "empty": empty}
    runtime: list[dict[str, Any]] = []
    trace["runtime_gates"] = runtime
    if empty:
        runtime.append({"name": "empty_group", "fired": True, "reason": f"group {group!r} holds no turns", "effect": "abstain"})
        timings["total"] = _ms(started)
        trace.update(timings_ms=timings, candidates={"evidence": 0, "facts": 0})
        return Answer(question, NO_INFORMATION, True, r.mode, r.procedure, [], trace, group)

    ctx = ctx.asking()
    t = time.perf_counter()
    result = procedures()[r.procedure](ctx, question, group, r.payload, as_of=r.as_of)
    timings["procedure"] = _ms(t)
    trace["steps"] = result.trace

    t = time.perf_counter()
    result = _empty_retrieval_gate(ctx, question, group, r.payload, r.as_of, result, runtime)
    timings["empty_retrieval_gate"] = _ms(t)

    t = time.perf_counter()
    result = _backfill(ctx, question, group, r.payload, r.as_of, result, runtime)
    timings["evidence_backfill"] = _ms(t)

    t = time.perf_counter()
    grounding = (
        ground(ctx, question, group, ownership=not result.trace.get("from_graph"))
        if r.payload.abstention == "entity"
        else None
    )
    abstain = grounding is not None and abstention_gate(grounding.grounded, r.payload)
    runtime.append(
        {"name": "abstention", "fired": abstain,
         "reason": grounding.reason if grounding else f"payload {r.payload.name!r} never abstains",
         "effect": "answer → No information available" if abstain else "none"}
    )  # fmt: skip
    if grounding is not None:
        trace["grounding"] = grounding.to_trace()
    timings["abstention_gate"] = _ms(t)

    evidence = dedupe((grounding.evidence if abstain and grounding else []) + result.evidence)
    if abstain:
        answer, abstained = NO_INFORMATION, True
    elif result.abstained or not result.answer:
        answer, abstained = NO_INFORMATION, True
        trace["abstained_by"] = "procedure"
    else:
        t = time.perf_counter()
        syn = synthesize(ctx, question, evidence, result.answer, long_form=r.procedure == "long_form")
        timings["synthesis"] = _ms(t)
        answer, abstained, evidence = syn.answer, syn.abstained, syn.evidence
        trace["synthesis"] = syn.trace
    timings["total"] = _ms(started)
    trace["timings_ms"] = timings
    trace["candidates"] = _candidates(result, evidence)
    return Answer(question, answer, abstained, r.mode, r.procedure, evidence, trace, group, list(result.facts))


def _empty_retrieval_gate(
    ctx: Context, question: str, group: str, payload: Payload, as_of: datetime | None,
    result: ProcedureResult, runtime: list[dict[str, Any]],
) -> ProcedureResult:  # fmt: skip
    if result.evidence:
        runtime.append({"name": "empty_retrieval", "fired": False, "reason": f"{len(result.evidence)} evidence item(s)", "effect": "none"})
        return result
    from .lookup import lookup

    wider = empty_retrieval_fallback(payload)
    retried = lookup(ctx, question, group, wider, as_of=as_of)
    runtime.append(
        {"name": "empty_retrieval", "fired": True, "reason": "the procedure returned no evidence",
         "effect": f"retried lookup with payload {wider.name!r} (depth {wider.depth}, every index, no graph)",
         "retry_evidence": len(retried.evidence)}
    )  # fmt: skip
    if not retried.evidence:
        return result
    trace = dict(result.trace)
    trace["empty_retrieval_retry"] = retried.trace
    return ProcedureResult(retried.answer, retried.evidence, retried.facts, retried.abstained, trace)


def _backfill(
    ctx: Context, question: str, group: str, payload: Payload, as_of: datetime | None,
    result: ProcedureResult, runtime: list[dict[str, Any]],
) -> ProcedureResult:  # fmt: skip
    """A short evidence list is topped up with more turns about the question.

    A graph answer ("Lisbon", from one edge) names one or two source turns, and a time-anchored
    answer the one turn it read the date from. The user (and an LLM phrasing the answer) also
    needs the conversation around the question, so below `BACKFILL_TO` items more turns follow
    the procedure's own, which keep their place at the front:

    * a graph answer (a slot's edge, a walked chain) gets the turns that mention its entities or
      that they said, best matching the question's words first (`entity_turns`): read from the
      entities' keys and the group's speakers, not a search of the whole store (a full-text
      backfill cost 35 ms a question at 10,000 episodes on Kuzu, the fused one 82 ms);
    * a count or a date that facts gave gets the turns full-text search ranks for the question
      (no embedding): giving those the entity turns instead lost 0.04 evidence Hit@10 on LoCoMo
      dev (0.807 → 0.764 at ece630b; their facts are few and loose);
    * any other answer gets the turns fused retrieval ranks (on LoCoMo's time-anchored
      questions: Hit@10 0.791 → 0.870).
    """
    want = min(payload.depth, BACKFILL_TO)
    if not result.evidence or len(result.evidence) >= want:
        runtime.append({"name": "evidence_backfill", "fired": False,
                        "reason": f"{len(result.evidence)} evidence item(s)", "effect": "none"})  # fmt: skip
        return result
    trace = result.trace
    if result.facts and (trace.get("procedure") in ("graph_latest", "graph_chain") or trace.get("answer_from") == "graph"):
        extra = dedupe(result.evidence + entity_turns(ctx, question, group, result.facts))[len(result.evidence) : want]
        how = "that mention or were said by the answer's entities"
    else:
        from .retrieval import retrieve

        cheap = bool(trace.get("from_graph"))  # a count or date from edges: full-text search, no embedding
        got = retrieve(ctx, question, group, replace(payload, fusion="bm25") if cheap else payload, as_of=as_of)
        extra = dedupe(result.evidence + evidence_from_hits(got.hits, group))[len(result.evidence) :]
        how = "full-text search ranked" if cheap else "retrieval ranked"
    runtime.append(
        {"name": "evidence_backfill", "fired": True, "reason": f"only {len(result.evidence)} evidence item(s)",
         "effect": f"appended {len(extra)} turn(s) {how} after them"}
    )  # fmt: skip
    return ProcedureResult(result.answer, result.evidence + extra, result.facts, result.abstained, result.trace)


def entity_turns(ctx: Context, question: str, group: str, facts: list[Fact], *, per_entity: int = 500) -> list[Evidence]:
    """Turns that mention the facts' entities or that they said (subjects first, at most three),
    those sharing the most content words with the question first, then the newest.

    >>> [e.source_ref for e in entity_turns(ctx, "Where does Priya live?", "priya-marco", facts)][:2]  # doctest: +SKIP
    ['D6:2', 'D5:7']
    """
    named = {u: n for f in facts for u, n in ((f.subject_uuid, f.subject), (f.object_uuid, f.object)) if u}
    wanted = content_terms(question)
    seen: dict[str, tuple[int, int, float, Evidence]] = {}
    for i, (uuid, name) in enumerate(list(named.items())[:3]):
        rows = ctx.store.named("graph.entity_turns", {"group_id": group, "entity_uuid": uuid, "limit": per_entity})
        rows += ctx.store.named("graph.spoken_turns", {"group_id": group, "speaker": name, "limit": per_entity})
        for r in rows:
            if r["uuid"] in seen:
                continue
            overlap = len(content_terms(r["text"] or "") & wanted)
            ev = Evidence(source_ref=r["source_ref"], episode=r["uuid"], text=r["text"] or "", valid_at=r["valid_at"],
                          score=round(overlap / (1 + len(wanted)), 6), group=group, speaker=r["speaker"] or "")
            newest = -r["valid_at"].timestamp() if r["valid_at"] else 0.0
            seen[r["uuid"]] = (-overlap, i, newest, ev)
    return [ev for *_, ev in sorted(seen.values(), key=lambda x: x[:3])]


def _candidates(result: ProcedureResult, evidence: list[Any]) -> dict[str, Any]:
    """Candidate counts for the trace: what retrieval saw per list, and what was kept."""
    out: dict[str, Any] = {"evidence": len(evidence), "facts": len(result.facts)}
    for key in ("retrieval", "iterative", "lookup"):
        sub = result.trace.get(key)
        if isinstance(sub, dict) and isinstance(sub.get("counts"), dict):
            out[f"{key}_counts"] = sub["counts"]
    counts = result.trace.get("counts")
    if isinstance(counts, dict):
        out["lookup_counts"] = counts
    return out
