"""Long-form answers: the story of a topic, or a chronological overview of the group's whole history.

A summary question with a topic ("What happened with Hannah's job offer?", "How did Kofi's work life
change?") is answered by the turns about that topic (`procedures.story`); one with only a time ("What
happened with Noor in May 2023?") by the time-anchored procedure. One without either, or whose topic
no turn words ("What has Priya been up to?") is not answered by the top-k chunks —
those cluster in whichever session matches best. Instead the group's time span is split into
strata (more for a deeper payload); one wide search is bucketed into them, each stratum it
leaves empty is searched on its own, and the best evidence of every stratum is kept; the main
entity's fact history joins as well. Then
*bullets, then expand*: evidence is chosen greedily for coverage of distinct periods and
entities and put in time order as dated bullets (the offline answer); with a provider, the
orchestrator turns exactly those bullets into prose.
"""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from planners.hop_planner import find_mentions
from planners.question import Question
from tkg.models import Evidence, Fact

from .group_turns import group_span
from .result import ProcedureResult, evidence_from_hits
from .retrieval import retrieve
from .slots import analyse
from .story import story, story_subject
from .synthesis import best_sentence, dedupe, fact_evidence, format_day
from .temporal import temporal
from .topic import says_something, topic_words

if TYPE_CHECKING:
    from planners.payloads import Payload
    from tkg.context import Context

MIN_STRATA, MAX_STRATA = 3, 12
PER_STRATUM = 3  # candidates kept per stratum before selection
WIDE_FACTOR = 3  # the first, unfiltered search fetches this many times the payload's depth


def strata(first: datetime, last: datetime, depth: int) -> list[tuple[datetime, datetime]]:
    """`depth // 5` equal slices of [first, last] (3 to 12), the last one closed at `last`.

    >>> from datetime import UTC
    >>> len(strata(datetime(2023, 1, 1, tzinfo=UTC), datetime(2024, 1, 1, tzinfo=UTC), 40))
    8
    """
    n = max(MIN_STRATA, min(MAX_STRATA, depth // 5))
    if last <= first:
        return [(first, first + timedelta(seconds=1))]
    step = (last - first) / n
    cuts = [first + step * i for i in range(n)] + [last + timedelta(seconds=1)]
    return list(zip(cuts, cuts[1:], strict=False))


def long_form(
    ctx: Context, q: Question, group: str, payload: Payload, *, as_of: datetime | None = None
) -> ProcedureResult:
    """The story of the question's topic (`procedures.story`), or without one a chronological,
    coverage-first overview of what the group says about the question.

    >>> print(long_form(ctx, "What has Priya been up to?", "priya-marco", payload).answer)  # doctest: +SKIP
    - 12 March 2023 — Priya: I'm still living in Bristol and working as a nurse at Northwind, mostly nights.
    ...
    """
    span = group_span(ctx, group)[0]
    trace: dict[str, Any] = {"procedure": "long_form", "turns": span["turns"]}
    if not span["turns"]:
        return ProcedureResult("", [], [], True, {**trace, "reason": "the group has no turns"})
    subject = story_subject(q, ctx.speakers(group))
    words = topic_words(q.text, subject.aliases if subject else ())
    if words:
        told = story(ctx, q, group, payload, subject, words, as_of=as_of)
        if not told.abstained or told.trace.get("worded"):
            return told
        # no turn says a word of the topic ("What attributes describe John?"): answered as without one
        trace["story"] = {"topic": list(words), "reason": told.trace.get("reason")}
    if q.anchor is not None:  # "what happened with Noor in May?": what was said then, not a whole history
        return temporal(ctx, q, group, payload, as_of=as_of)
    last = min(span["last"], as_of) if as_of is not None else span["last"]
    slices = strata(span["first"], last, payload.depth)
    per = max(PER_STRATUM, math.ceil(payload.depth / len(slices)))
    sub = replace(payload, depth=per)
    # one wide search first; only strata it leaves empty get a search of their own
    wide = retrieve(ctx, q.query, group, replace(payload, depth=payload.depth * WIDE_FACTOR))
    candidates: list[list[Evidence]] = []
    counts: list[int] = []
    targeted = 0
    for lo, hi in slices:
        inside = [h for h in wide.hits if h.valid_at is not None and lo <= h.valid_at < hi]
        if not inside:
            targeted += 1
            got = retrieve(ctx, q.query, group, sub, time_range=(lo, hi))
            inside = [h for h in got.hits if h.valid_at is not None and lo <= h.valid_at < hi]
        counts.append(len(inside))
        candidates.append(evidence_from_hits(inside[:PER_STRATUM], group))
    trace["searches"] = {"wide": 1, "per_stratum": targeted}
    slot = analyse(ctx, q, group)
    facts = []
    if slot.subject is not None:
        rows = ctx.store.named(
            "fact.history", {"group_id": group, "subject_uuids": [slot.subject.uuid], "predicate": ""}
        )
        facts = [Fact.from_row(r, group) for r in rows]
        if as_of is not None:
            facts = [f for f in facts if f.valid_at is not None and f.valid_at <= as_of]
        for ev in fact_evidence(ctx, group, facts, score=0.5):
            k = next((i for i, (lo, hi) in enumerate(slices) if ev.valid_at and lo <= ev.valid_at < hi), None)
            if k is not None:
                candidates[k].append(ev)
    names, aliases = list(q.entity_names), q.aliases
    chosen, covered = select(candidates, names, aliases, target=max(len(slices), payload.depth // 3))
    timeline = sorted(chosen, key=lambda e: e.valid_at or span["first"])
    bullets = [
        f"- {format_day(e.valid_at)} — "
        f"{e.speaker + ': ' if e.speaker else ''}{best_sentence(q, e.text, informative=True)}"
        for e in timeline
    ]
    trace.update(
        strata=[{"from": lo.isoformat(), "to": hi.isoformat(), "hits": c}
                for (lo, hi), c in zip(slices, counts, strict=True)],
        strata_covered=sum(1 for c in candidates if c), facts=len(facts), selected=len(chosen),
        entities_covered=sorted(covered), subject=slot.subject.name if slot.subject else None,
    )  # fmt: skip
    if not chosen:
        return ProcedureResult("", [], [], True, {**trace, "reason": "no evidence in any stratum"})
    # The bullets are chronological; the evidence is ranked: the bullets' turns in the order the
    # wide search ranked them, then the rest of that search (context the bullets did not use).
    rank = {h.episode_uuid: i for i, h in enumerate(wide.hits)}
    ranked = sorted(chosen, key=lambda e: rank.get(e.episode, len(rank)))
    evidence = dedupe(ranked + evidence_from_hits(wide.hits[: payload.depth], group))
    return ProcedureResult("\n".join(bullets), evidence, facts, False, trace)


def select(
    candidates: list[list[Evidence]], names: list[str], aliases: dict[str, str], *, target: int
) -> tuple[list[Evidence], set[str]]:
    """Greedy coverage: the best item of every stratum first, then items naming new entities."""
    pool = [dedupe(sorted(c, key=lambda e: (-e.score, e.episode))) for c in candidates]
    chosen: list[Evidence] = []
    covered: set[str] = set()
    seen: set[tuple[str, str]] = set()

    mentioned: dict[str, set[str]] = {}

    def mentions(e: Evidence) -> set[str]:
        if e.text not in mentioned:
            mentioned[e.text] = {m.canonical for m in find_mentions(e.text, names, aliases)}
        return mentioned[e.text]

    def take(e: Evidence) -> None:
        chosen.append(e)
        seen.add((e.episode, e.text))
        covered.update(mentions(e))

    pool = [[e for e in items if says_something(e.text)] or items for items in pool]  # no "lol ok" bullets
    for items in pool:
        if items:
            take(items[0])
    rest = [e for items in pool for e in items[1:] if (e.episode, e.text) not in seen]
    while rest and len(chosen) < target:
        gains = [(len(mentions(e) - covered), e.score, -i) for i, e in enumerate(rest)]
        best = max(range(len(rest)), key=lambda i: gains[i])
        if gains[best][0] == 0 and len(chosen) >= len(pool):
            break
        take(rest.pop(best))
    return chosen, covered
