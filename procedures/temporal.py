"""Time-anchored answers: values at a time, "when" questions, before/after, date-range search.

Three kinds of question, tried in this order:
* **when** ("When did Priya move to Leeds?"): the valid time of the edge that made it true, else
  the resolved time of the best-matching turn's sentence (times were resolved at ingest:
  "yesterday" said on 8 May 2023 is 7 May 2023), formatted at its granularity ("7 May 2023",
  "May 2023");
* **at a time** ("Where did Priya live in July 2023?", or `as_of`): edges whose valid interval
  overlaps the window; a chain question walks edges valid in the middle of it;
* **before/after an entity** ("Where did Priya live before Leeds?"): the neighbouring version in
  the slot's history.
Otherwise: retrieval restricted to the window, evidence in chronological order.
Relative words in the question are anchored at the group's latest turn (else now).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from planners.question import Question, QuestionSlot
from tkg.models import Fact
from tkg.text import content_terms
from tkg.time_spans import part_name
from tkg.timeparse import TimeRef, find_times

from .coverage import covers
from .group_turns import before_history
from .result import ProcedureResult, evidence_from_hits
from .retrieval import retrieve
from .slots import (
    FAR_PAST,
    Window,
    analyse,
    group_time,
    resolve_anchor,
    resolve_window,
    slot_history,
    walk_answer,
)
from .synthesis import best_sentence, fact_evidence, format_day, format_ref, interval_text
from .walker import edge_order, walk

if TYPE_CHECKING:
    from planners.payloads import Payload
    from tkg.context import Context

_WHEN = re.compile(
    r"^\s*(?:when\b|what (?:date|day|year|month|time)\b|how long ago\b|in (?:what|which) (?:year|month)\b)",
    re.I,
)


def granularity(start: datetime, end: datetime | None) -> str:
    """The granularity of an interval resolved at ingest (the store keeps only its ends)."""
    days = (end - start).days if end else 1
    if days <= 1:
        return "day"
    if days == 2 and start.weekday() == 5:
        return "weekend"
    if days == 7:
        return "week"
    if 28 <= days <= 31 and start.day == 1:
        return "month"
    if 89 <= days <= 92:
        return "season"
    if days in (365, 366) and start.month == 1 and start.day == 1:
        return "year"
    return "part" if end and part_name(start, end) else "range"


def said_when(resolved: str, time_text: str | None, said_at: datetime | None) -> str:
    """The resolved time with the words it came from: 'May 2023 ("last month", said on 10 June 2023)'."""
    if not time_text or said_at is None:
        return resolved
    return f'{resolved} ("{time_text}", said on {format_day(said_at)})'


def fact_time(fact: Fact, said_at: datetime | None) -> str | None:
    """When a fact became true, at the granularity its turn said it ("last month" → "May 2023"),
    resolving the fact's time words against the time the turn was said; None without them."""
    if fact.valid_at is None or not fact.time_text or said_at is None:
        return None
    refs = find_times(fact.time_text, said_at)
    if refs and refs[0].start == fact.valid_at:
        return said_when(format_ref(refs[0]), fact.time_text, said_at)
    return None


def turn_time(
    ctx: Context, group: str, wanted: frozenset[str], episode_uuid: str, *, require_overlap: bool = False
) -> tuple[str, str] | None:
    """The resolved time of the turn's sentence that best matches the question (its ``wanted``
    content terms, `Question.terms`): (answer, how).

    With `require_overlap` the sentence must share a content word with the question, so an
    unrelated "next week" in the same turn cannot date the fact.
    """
    chunks = ctx.store.named("temporal.episode_chunks", {"group_id": group, "episode_uuids": [episode_uuid]})
    best: tuple[int, dict[str, Any]] | None = None
    for c in chunks:
        if c["time_start"] is None:
            continue
        shared = len(content_terms(c["text"]) & wanted)
        if require_overlap and not shared:
            continue
        overlap = shared + (1 if c["kind"] == "sentence" else 0)
        if best is None or overlap > best[0]:
            best = (overlap, c)
    if best is None:
        return None
    c = best[1]
    ref = TimeRef(
        c["time_text"] or "", c["time_start"], c["time_end"], granularity(c["time_start"], c["time_end"])
    )
    return said_when(
        format_ref(ref), c["time_text"], c["valid_at"]
    ), f"resolved time {c['time_text']!r} of the turn"


def temporal(
    ctx: Context, q: Question, group: str, payload: Payload, *, as_of: datetime | None = None
) -> ProcedureResult:
    """Answer a time-anchored question ("When did Priya move to Leeds?" → "4 June 2023"); the
    module docstring gives the order of attempts."""
    index = ctx.entities(group)
    slot = analyse(ctx, q, group)
    now = group_time(ctx, group)
    anchor = q.anchor
    window: Window | None = None
    if as_of is not None:
        window = (as_of, as_of + timedelta(microseconds=1))
    elif anchor is not None:
        window = resolve_window(anchor.text, now)
    trace: dict[str, Any] = {
        "procedure": "temporal", "question": slot.to_trace(), "reference_time": now.isoformat(),
        "anchor": anchor.text if anchor else None,
        "window": [w.isoformat() for w in window] if window else None,
        "fallbacks": [],
    }  # fmt: skip
    if _WHEN.search(q.text) and q.asked.kind == "date":  # "what time did she run": a race time, no day
        got = _when_from_graph(ctx, q, group, slot, trace)
        if got is not None:
            return got
        return _when_from_chunks(ctx, q, group, payload, trace)
    if slot.plan is not None and (len(slot.plan.hops) > 1 or slot.plan.hops[0].inverse):
        point = as_of or (resolve_anchor(ctx, group, anchor.text) if anchor else None)
        walked = walk(
            ctx,
            group,
            slot.plan,
            as_of=point,
            fanout=payload.fanout,
            max_hops=max(1, payload.hop_limit),
            index=index,
        )
        trace["walk"] = walked.to_trace()
        if walked.complete:
            trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
            return ProcedureResult(
                walk_answer(walked), fact_evidence(ctx, group, walked.facts), walked.facts, False, trace
            )
        trace["fallbacks"].append({"from": "walk", "to": "chunks", "reason": walked.reason})
    if (
        slot.subject is not None
        and slot.predicate
        and anchor is None
        and as_of is None
        and slot.obj is not None
    ):
        got = _neighbour_version(ctx, q, group, slot, trace)
        if got is not None:
            return got
    if slot.subject is not None and slot.predicate and window is not None:
        rows = ctx.store.named(
            "temporal.facts_overlapping",
            {"group_id": group, "subject_uuids": [slot.subject.uuid], "predicate": slot.predicate,
             "range_start": window[0], "range_end": window[1]},
        )  # fmt: skip
        facts = [Fact.from_row(r, group) for r in rows]
        trace["facts_in_window"] = [f.object for f in facts]
        if facts and covers(q, [slot.subject.name], slot.predicate, facts, ctx.registry):
            answer = (
                facts[0].object
                if len(facts) == 1
                else "; ".join(f"{f.object} ({interval_text(f)})" for f in facts)
            )
            trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
            return ProcedureResult(answer, fact_evidence(ctx, group, facts), facts, False, trace)
        reason = (
            "the edges do not say what the question asks about"
            if facts
            else "no edge of the slot overlaps the window"
        )
        trace["fallbacks"].append({"from": "facts", "to": "chunks", "reason": reason})
    return _chunks_in_window(ctx, q, group, payload, window, trace)


def _when_from_graph(
    ctx: Context, q: Question, group: str, slot: QuestionSlot, trace: dict[str, Any]
) -> ProcedureResult | None:
    if slot.subject is None or not slot.predicate:
        return None
    history = slot_history(ctx, group, slot)
    if slot.obj is not None:
        history = [f for f in history if f.object_uuid == slot.obj.uuid]
    elif len({f.object_uuid for f in history}) != 1:
        history = []  # several values and none named: the chunks decide
    trace["when_facts"] = [f.object for f in history]
    if not history:
        trace["fallbacks"].append({"from": "facts", "to": "chunks", "reason": "no edge says when"})
        return None
    if not covers(q, [slot.subject.name], slot.predicate, history, ctx.registry):
        # "When did Jon start going to the gym?" is not answered by Jon's one visit (Paris)
        trace["fallbacks"].append(
            {"from": "facts", "to": "chunks", "reason": "the edge does not say what the question asks about"}
        )
        return None
    first = min(history, key=lambda f: (f.valid_at is None, f.valid_at or FAR_PAST))
    evidence = fact_evidence(ctx, group, [first])
    said = evidence[0].valid_at if evidence else None
    answer, how = fact_time(first, said), "the edge's time words"
    if answer is None and evidence:
        found = turn_time(ctx, group, q.terms, evidence[0].episode, require_overlap=True)
        answer, how = found if found else (None, "")
    if answer is None:
        answer, how = format_day(first.valid_at), "the edge's valid_at"
    trace["answered_by"] = how
    trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
    return ProcedureResult(answer, evidence, [first], False, trace)


def _when_from_chunks(
    ctx: Context, q: Question, group: str, payload: Payload, trace: dict[str, Any]
) -> ProcedureResult:
    got = retrieve(ctx, q.query, group, payload)
    trace["retrieval"] = {"hits": len(got.hits), "counts": got.counts}
    hits = got.hits[:3]
    if not hits:
        return ProcedureResult("", [], [], True, {**trace, "reason": "retrieval found nothing"})
    found = turn_time(ctx, group, q.terms, hits[0].episode_uuid)
    if found is not None:
        answer, trace["answered_by"] = found
    else:
        answer, trace["answered_by"] = format_day(hits[0].valid_at), "time of the best turn"
    return ProcedureResult(answer, evidence_from_hits(hits, group), [], False, trace)


def _neighbour_version(
    ctx: Context, q: Question, group: str, slot: QuestionSlot, trace: dict[str, Any]
) -> ProcedureResult | None:
    """"Where did Priya live before Leeds?": the version next to the named one in the slot."""
    m = re.search(r"\b(before|after)\b", q.text, re.I)
    if m is None or slot.obj is None:
        return None
    history = sorted(slot_history(ctx, group, slot), key=lambda f: edge_order(f)[0], reverse=True)
    history = [
        f for f in history if not (f.invalid_at is not None and f.valid_at and f.invalid_at <= f.valid_at)
    ]
    idx = next((i for i, f in enumerate(history) if f.object_uuid == slot.obj.uuid), None)
    if idx is None:
        return None
    j = idx - 1 if m.group(1).lower() == "before" else idx + 1
    trace["neighbour"] = {
        "of": slot.obj.name,
        "direction": m.group(1).lower(),
        "history": [f.object for f in history],
    }
    if not 0 <= j < len(history):
        return None
    facts = [history[j], history[idx]]
    trace["answered_by"] = "slot history"
    trace["from_graph"] = True  # the answer rests on edges, not on retrieved text
    return ProcedureResult(
        f"{history[j].object} ({interval_text(history[j])})",
        fact_evidence(ctx, group, facts),
        facts,
        False,
        trace,
    )


def in_window(ctx: Context, group: str, hits: list[Any], window: Window) -> list[Any]:
    """Hits said inside the window, or with a time expression (resolved at ingest) that overlaps it."""
    lo, hi = window
    rows = ctx.store.named(
        "temporal.episode_chunks", {"group_id": group, "episode_uuids": [h.episode_uuid for h in hits]}
    )
    refers = {
        r["episode_uuid"] for r in rows
        if r["time_start"] is not None and r["time_start"] < hi and (r["time_end"] or r["time_start"]) > lo
    }  # fmt: skip
    return [h for h in hits if (h.valid_at is not None and lo <= h.valid_at < hi) or h.episode_uuid in refers]


def _chunks_in_window(
    ctx: Context, q: Question, group: str, payload: Payload, window: Window | None, trace: dict[str, Any]
) -> ProcedureResult:
    if before_history(ctx, group, window):  # no turn was said in it: the turns about it rank as they are
        trace["fallbacks"].append({"from": "window", "to": "unfiltered", "reason": "before the first turn"})
        window = None
    got = retrieve(ctx, q.query, group, payload, time_range=window)
    trace["retrieval"] = {"hits": len(got.hits), "counts": got.counts, "time_range": trace["window"]}
    if not got.hits and window is not None:
        trace["fallbacks"].append({"from": "window", "to": "unfiltered", "reason": "nothing in the window"})
        got = retrieve(ctx, q.query, group, payload)
    hits = got.hits
    if window is not None and hits:
        inside = in_window(ctx, group, hits, window)
        trace["retrieval"]["in_window"] = len(inside)
        # the window's turns lead; the rest keep their place after them (the window may be off)
        hits = inside + [h for h in hits if h not in inside]
    if not hits:
        return ProcedureResult("", [], [], True, {**trace, "reason": "retrieval found nothing"})
    answer = best_sentence(q, hits[0].text)
    trace["answered_by"] = "best chunk in the window" if window else "best chunk"
    # Evidence stays in order of support; the chronology is the answer's business (the trace
    # lists the same turns by time).
    trace["chronology"] = [
        h.source_ref for h in sorted(hits, key=lambda h: (h.valid_at is None, h.valid_at or FAR_PAST))
    ]
    return ProcedureResult(answer, evidence_from_hits(hits, group), [], False, trace)
