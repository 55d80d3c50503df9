"""The evidence backfill: a short evidence list is topped up with more turns about the question.

Every read here starts from a key (an entity's, or the group's TkgGroup anchor), so its cost
follows the group, not the store: a search of the store-wide full-text index grows with every
other group's turns (see BENCHMARKS.md, growth to 100,000 episodes).

Example::

    >>> [e.source_ref  # doctest: +SKIP
    ...  for e in group_turns(ctx, parse("When did Noor move to Dublin?"), "noor")][:1]
    ['n14']
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING, Any

from planners.payloads import Payload
from planners.question import Question
from tkg.models import Evidence, Fact
from tkg.text import content_terms, stemmed_words

from .group_turns import turns_with_terms
from .result import ProcedureResult, evidence_from_hits
from .retrieval import retrieve
from .synthesis import dedupe

if TYPE_CHECKING:
    from tkg.context import Context

BACKFILL_TO = 10  # evidence items an answer should carry when retrieval can supply them


def backfill(
    ctx: Context, q: Question, group: str, payload: Payload, as_of: datetime | None,
    result: ProcedureResult, runtime: list[dict[str, Any]],
) -> ProcedureResult:  # fmt: skip
    """A short evidence list is topped up with more turns about the question.

    A graph answer ("Lisbon", from one edge) names one or two source turns, and a time-anchored
    answer the one turn it read the date from. The user (and an LLM phrasing the answer) also
    needs the conversation around the question, so below `BACKFILL_TO` items more turns follow
    the procedure's own, which keep their place at the front:

    * a graph answer (a slot's edge, a walked chain) gets the turns that mention its entities or
      that they said, best matching the question's words first (`entity_turns`): read from the
      entities' keys and the group's speakers, not a search of the whole store, which costs more
      the more the store holds;
    * a count or a date that facts gave gets the group's turns ranked by BM25 for the question's
      words (`group_turns`): their facts are few and loose, so the entity turns would miss the
      evidence, and a group's own turns cost the same however many other groups share the store;
    * any other answer gets the turns fused retrieval ranks.

    BENCHMARKS.md has what each choice measured.
    """
    want = min(payload.depth, BACKFILL_TO)
    if not result.evidence or len(result.evidence) >= want:
        runtime.append({"name": "evidence_backfill", "fired": False,
                        "reason": f"{len(result.evidence)} evidence item(s)", "effect": "none"})  # fmt: skip
        return result
    trace = result.trace
    if result.facts and (
        trace.get("procedure") in ("graph_latest", "graph_chain") or trace.get("answer_from") == "graph"
    ):
        extra = dedupe(result.evidence + entity_turns(ctx, q, group, result.facts))[
            len(result.evidence) : want
        ]
        how = "that mention or were said by the answer's entities"
    elif trace.get("from_graph"):  # a count or date from edges
        extra = dedupe(result.evidence + group_turns(ctx, q, group, as_of=as_of))[len(result.evidence) : want]
        how = "of the group BM25 ranked"
    else:
        got = retrieve(ctx, q.query, group, payload, as_of=as_of)
        extra = dedupe(result.evidence + evidence_from_hits(got.hits, group))[len(result.evidence) :]
        how = "retrieval ranked"
    runtime.append(
        {"name": "evidence_backfill", "fired": True, "reason": f"only {len(result.evidence)} evidence "
                                                               "item(s)",
         "effect": f"appended {len(extra)} turn(s) {how} after them"}
    )  # fmt: skip
    return ProcedureResult(
        result.answer, result.evidence + extra, result.facts, result.abstained, result.trace
    )


def entity_turns(
    ctx: Context, q: Question, group: str, facts: list[Fact], *, per_entity: int = 20
) -> list[Evidence]:
    """Turns that mention the facts' entities or that they said (subjects first, at most three),
    those sharing the most content words with the question first, then the newest.

    The store ranks each entity's turns by the question's words as substrings and returns
    ``per_entity``; they are ranked again here by whole stemmed words. Turns *said by* an entity
    are asked for only when it speaks in the group (a place never does).

    >>> [e.source_ref  # doctest: +SKIP
    ...  for e in entity_turns(ctx, parse("Where does Priya live?"), "priya-marco", facts)][:2]
    ['D6:2', 'D5:7']
    """
    named = {u: n for f in facts for u, n in ((f.subject_uuid, f.subject), (f.object_uuid, f.object)) if u}
    wanted = q.terms
    params = {"group_id": group, "terms": sorted(wanted) or [""], "limit": per_entity}
    speakers = ctx.speakers(group)
    seen: dict[str, tuple[int, int, float, Evidence]] = {}
    for i, (uuid, name) in enumerate(list(named.items())[:3]):
        rows = ctx.store.named("graph.entity_turns", {**params, "entity_uuid": uuid})
        if name in speakers:
            rows += ctx.store.named("graph.spoken_turns", {**params, "speaker": name})
        for r in rows:
            if r["uuid"] in seen:
                continue
            overlap = len(content_terms(r["text"] or "") & wanted)
            ev = turn_evidence(r, overlap / (1 + len(wanted)), group)
            newest = -r["valid_at"].timestamp() if r["valid_at"] else 0.0
            seen[r["uuid"]] = (-overlap, i, newest, ev)
    return [ev for *_, ev in sorted(seen.values(), key=lambda x: x[:3])]


def group_turns(ctx: Context, q: Question, group: str, *, as_of: datetime | None = None, k: int = BACKFILL_TO,
                k1: float = 1.2, b: float = 0.2, limit: int = 2000) -> list[Evidence]:
    """The group's turns ranked by BM25 for the question's content words (stemmed), best first.

    As the full-text index does, a turn is read as "speaker: text" (a question naming the speaker
    matches their turns) and length matters little (``b`` = 0.2: `Tuning.bm25_b`). The store
    returns the turns containing any of the words (as substrings, from the group's anchor); here
    words are matched whole after stemming. Document frequencies are the group's own, so a word
    every turn of this conversation uses counts for little; ``limit`` bounds the rows read for a
    very long conversation (the frequencies are then those of the rows read).
    """
    wanted = sorted(q.terms)
    if not wanted:
        return []
    rows = turns_with_terms(ctx, group, wanted, limit)
    if as_of is not None:
        rows = [r for r in rows if r["valid_at"] is None or r["valid_at"] <= as_of]
    if not rows:
        return []
    total = max(len(rows), sum(ctx.speakers(group).values()))
    words = {r["uuid"]: stemmed_words(f"{r['speaker'] or ''}: {r['text'] or ''}") for r in rows}
    df = {t: sum(1 for ws in words.values() if t in ws) for t in wanted}
    idf = {t: math.log(1 + (total - n + 0.5) / (n + 0.5)) for t, n in df.items() if n}
    avg = sum(len(ws) for ws in words.values()) / len(words) or 1.0
    scored: list[tuple[float, float, dict[str, Any]]] = []
    for r in rows:
        ws = words[r["uuid"]]
        score = sum(idf[t] * (tf := ws.count(t)) * (k1 + 1) / (tf + k1 * (1 - b + b * len(ws) / avg))
                    for t in idf if t in ws)
        if score > 0:
            scored.append((score, r["valid_at"].timestamp() if r["valid_at"] else 0.0, r))
    scored.sort(key=lambda x: (-x[0], -x[1], x[2]["uuid"]))
    return [turn_evidence(r, score, group) for score, _, r in scored[:k]]


def turn_evidence(row: dict[str, Any], score: float, group: str) -> Evidence:
    """A turn row of graph.entity_turns, graph.spoken_turns or graph.turns_with_terms as evidence."""
    return Evidence(
        source_ref=row["source_ref"],
        episode=row["uuid"],
        text=row["text"] or "",
        valid_at=row["valid_at"],
        score=round(score, 6),
        group=group,
        speaker=row["speaker"] or "",
    )
