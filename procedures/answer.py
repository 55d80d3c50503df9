"""The answer orchestrator: route → procedure → runtime gates → synthesis → `Answer`.

`Memory.ask` calls :func:`answer_question`. The router picks the mode and payload; the
payload's procedure answers; then runtime gates may revise the result:

* **empty retrieval** — the procedure found no evidence: retry with
  `empty_retrieval_fallback(payload)` (deeper, every index, no graph walk) through `lookup`;
* **evidence backfill** — fewer than `BACKFILL_TO` evidence items (a graph answer names one or
  two source turns): more turns about the question follow them (`procedures.backfill`);
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
from datetime import datetime
from typing import TYPE_CHECKING, Any

from planners.gates import abstention_gate, empty_retrieval_fallback
from planners.payloads import Payload, load_payloads
from planners.question import Question
from planners.router import route
from tkg.mode_model import offline_classifier
from tkg.models import NO_INFORMATION, Answer
from tkg.nlp import parsing_ahead
from tkg.text import content_terms

from .abstain import ground
from .aggregation import aggregate
from .backfill import backfill
from .graph import latest_version, relation_chain
from .longform import long_form
from .lookup import lookup
from .model_answer import revise
from .reading import read
from .result import ProcedureResult
from .sentence_value import repeats_question
from .slots import analyse, lexicon_for
from .stated import asked_back
from .support import only_intended
from .synthesis import dedupe, synthesize
from .temporal import temporal

if TYPE_CHECKING:
    from tkg.context import Context

Procedure = Callable[..., ProcedureResult]


# procedure name (as payloads name them) → function(ctx, question, group, payload, *, as_of)
PROCEDURES: dict[str, Procedure] = {
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

    The question's spaCy parse, which the reader needs, is made on the parse worker's core while
    this one routes it and retrieves its evidence (`tkg.nlp.parsing_ahead`).
    """
    with parsing_ahead(question):
        return _answer(ctx, question, group=group, mode=mode, as_of=as_of)


def _answer(
    ctx: Context, question: str, *, group: str, mode: str | None = None, as_of: datetime | None = None
) -> Answer:
    started = time.perf_counter()
    timings: dict[str, float] = {}
    t = time.perf_counter()
    payloads = load_payloads(ctx.payloads_path) if ctx.payloads_path else None
    ctx = ctx.asking()
    r = route(question, mode=mode, as_of=as_of, payloads=payloads, index=ctx.entities(group),
              lexicon=lexicon_for(ctx.registry),
              classifier=None if mode is not None or as_of is not None else offline_classifier())
    q = r.question  # parsed once; every step below reads it
    timings["route"] = _ms(t)
    trace: dict[str, Any] = r.to_dict()
    trace["route_timings_ms"] = trace.pop("timings_ms")
    empty = not ctx.speakers(group)  # the group's speakers, read once here, also serve grounding and backfill
    trace["group"] = {"name": group, "empty": empty}
    runtime: list[dict[str, Any]] = []
    trace["runtime_gates"] = runtime
    if empty:
        runtime.append(
            {
                "name": "empty_group",
                "fired": True,
                "reason": f"group {group!r} holds no turns",
                "effect": "abstain",
            }
        )
        timings["total"] = _ms(started)
        trace.update(timings_ms=timings, candidates={"evidence": 0, "facts": 0})
        return Answer(question, NO_INFORMATION, True, r.mode, r.procedure, [], trace, group)

    t = time.perf_counter()
    result = PROCEDURES[r.procedure](ctx, q, group, r.payload, as_of=r.as_of)
    timings["procedure"] = _ms(t)
    trace["steps"] = result.trace

    t = time.perf_counter()
    result = _empty_retrieval_gate(ctx, q, group, r.payload, r.as_of, result, runtime)
    timings["empty_retrieval_gate"] = _ms(t)

    t = time.perf_counter()
    result = backfill(ctx, q, group, r.payload, r.as_of, result, runtime)
    timings["evidence_backfill"] = _ms(t)

    t = time.perf_counter()
    predicate = (
        (result.trace.get("question") or {}).get("predicate")
        if isinstance(result.trace.get("question"), dict)
        else None
    )
    if predicate is None:
        predicate = analyse(ctx, q, group).predicate
    reading = read(ctx, q, group, mode=r.mode, as_of=r.as_of, result=result, predicate=predicate)
    if reading is not None:
        trace["reading"] = reading.trace
    timings["reading"] = _ms(t)

    t = time.perf_counter()
    grounding = (
        # a typed value the reader found in a clause about the subject settles whose attribute it is
        ground(ctx, q, group, ownership=not result.trace.get("from_graph") and (
            reading is None or reading.abstained or not reading.typed),
            # a summary's turns are chosen to cover the group's history, not ranked by fit: they cast no vote
            evidence=None if r.procedure == "long_form" else result.evidence,
            payload=None if result.trace.get("from_graph") else r.payload,
            said_own=reading.own if reading is not None and not reading.abstained else None,
            valued=reading is not None and not reading.abstained)
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
    elif reading is not None and reading.abstained:
        answer, abstained, evidence = NO_INFORMATION, True, reading.support
        trace["abstained_by"] = "reader"
    elif reading is not None:
        t = time.perf_counter()
        syn = synthesize(ctx, question, reading.support, reading.answer, long_form=False)
        timings["synthesis"] = _ms(t)
        answer, abstained, evidence = syn.answer, syn.abstained, syn.evidence
        trace["synthesis"] = syn.trace
    elif result.abstained or not result.answer:
        answer, abstained = NO_INFORMATION, True
        trace["abstained_by"] = "procedure"
    else:
        t = time.perf_counter()
        syn = synthesize(ctx, question, evidence, result.answer, long_form=r.procedure == "long_form")
        timings["synthesis"] = _ms(t)
        answer, abstained, evidence = syn.answer, syn.abstained, syn.evidence
        trace["synthesis"] = syn.trace
    typed = reading is not None and not reading.abstained and reading.typed
    unsupported = None if abstained or typed or r.procedure in ("long_form", "aggregation") \
        else only_intended(q, answer, evidence)
    if unsupported is not None:  # a sentence that only intends what the question asks as done
        answer, abstained, trace["abstained_by"], trace["unsupported"] = NO_INFORMATION, True, "support", \
            unsupported
    elif reading is None and not abstained and r.procedure not in ("long_form", "aggregation") \
            and len(content_terms(answer)) == 1 and repeats_question(answer, q):
        # "Lisbon." for "what did they eat in Lisbon?" says nothing (a longer sentence in the question's
        # words may be the turn that goes on to answer it: LoCoMo's "It was my way of dealing with stress.")
        answer, abstained, trace["abstained_by"] = NO_INFORMATION, True, "echo"
    main = grounding.main if grounding is not None and not abstained else None
    asker = asked_back(answer, evidence, main) if main else None
    if asker is not None:  # the asked person's own question to the other one states nothing about them
        answer, abstained, trace["abstained_by"] = NO_INFORMATION, True, "asked_back"
        trace["asked_back"] = asker.source_ref
    timings["total"] = _ms(started)
    trace["timings_ms"] = timings
    trace["candidates"] = _candidates(result, evidence)
    offline = Answer(
        question, answer, abstained, r.mode, r.procedure, evidence, trace, group, list(result.facts)
    )
    return (
        revise(ctx, offline) if ctx.models.models else offline
    )  # the model stages, when set (model_answer.py)


def _empty_retrieval_gate(
    ctx: Context, q: Question, group: str, payload: Payload, as_of: datetime | None,
    result: ProcedureResult, runtime: list[dict[str, Any]],
) -> ProcedureResult:  # fmt: skip
    if result.evidence:
        runtime.append(
            {
                "name": "empty_retrieval",
                "fired": False,
                "reason": f"{len(result.evidence)} evidence item(s)",
                "effect": "none",
            }
        )
        return result
    wider = empty_retrieval_fallback(payload)
    retried = lookup(ctx, q, group, wider, as_of=as_of)
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
