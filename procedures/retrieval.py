"""Direct retrieval: full-text and vector search over turns, sentences and facts, fused per turn.

This module holds the pipeline and what happens after the search (`retrieve`, fusion, turns,
neighbours); the index search itself, with its adaptive over-fetch and the row
filters, is in `procedures.search`. What it does for one question, all scoped to one group:

1. the question becomes plain words for BM25 (`query_text`: no engine syntax survives, and a
   calendar date it names is set aside as a boost) and the question itself is embedded;
2. each index the payload names is searched both ways — ``chunk`` (whole turns), ``sentence``
   (single sentences of longer turns) and ``fact`` (extracted fact sentences) — giving up to six
   ranked lists (``chunk_text``, ``chunk_vector``, ``sentence_text``, ...) from one full-text and
   one vector query (`retrieval.text`, `retrieval.vector`; see `procedures.search`);
3. sentences and facts are mapped back to the turn that said them, and the lists are fused per
   turn (`fusion`: calibrated-score or reciprocal-rank, as the payload says);
4. turns by a person the question names, and turns said on the date it names, are boosted; a
   turn gains part of its neighbours' scores (a dialogue answers across turns) and the turns
   next to the best hits join at a decayed score (the answer is often the reply); the result is
   cut to the payload's depth.

Example::

    >>> from procedures.retrieval import retrieve  # doctest: +SKIP
    >>> r = retrieve(mem.ctx, "Where did Priya move?", "priya-marco", payload)  # doctest: +SKIP
    >>> r.hits[0].source_ref, r.hits[0].via  # doctest: +SKIP
    ('D2:4', ('sentence_text', 'chunk_vector', 'chunk_text'))
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from planners.payloads import Payload
from planners.query_text import QueryText, parse_question, with_date_words
from tkg.context import Context
from tkg.models import Fact, as_utc
from tkg.stores.base import Row

from .fusion import Candidate, Fused, Method, Tuning, boost, context_scores, fuse
from .group_turns import before_history, turns_by_seq, turns_by_uuid
from .result import Hit, Retrieval
from .search import LISTS, Clock, Filter, gather, list_names, row_filter, turn_passes

__all__ = ["Hit", "Retrieval", "retrieve"]


def retrieve(
    ctx: Context,
    query: str | QueryText,
    group: str,
    payload: Payload,
    *,
    time_range: tuple[datetime, datetime] | None = None,
    speaker: str | None = None,
    as_of: datetime | None = None,
    tuning: Tuning | None = None,
) -> Retrieval:
    """The payload's depth of distinct turns that best answer ``query`` in ``group``: a parsed
    question's `QueryText` (`Question.query`), or any text (parsed here).

    ``time_range`` keeps turns said in ``[start, end)`` or whose words refer to a time overlapping
    it (and facts that began in it); ``speaker`` keeps only turns that person said (neighbours
    included); ``as_of`` keeps only what had been said by then. Within one question (`Context.asking`)
    the same arguments retrieve once.
    """
    text = query.question if isinstance(query, QueryText) else query
    key = repr((text, group, payload, time_range, speaker, as_of, tuning))
    return ctx.once(
        ("retrieval", key),
        lambda: _retrieve(
            ctx,
            query if isinstance(query, QueryText) else parse_question(text),
            group, payload, time_range, speaker, as_of, tuning,
        ),
    )


def _retrieve(
    ctx: Context, q: QueryText, group: str, payload: Payload, time_range: tuple[datetime, datetime] | None,
    speaker: str | None, as_of: datetime | None, tuning: Tuning | None,
) -> Retrieval:  # fmt: skip
    if q.when and before_history(ctx, group, q.when):  # nothing was said then: its words, no boost
        q = with_date_words(q)
    tune = tuning or Tuning()
    clock = Clock()
    started = time.perf_counter()
    names = list_names(payload)
    rng = (as_utc(time_range[0]), as_utc(time_range[1])) if time_range else None
    cutoff = as_utc(as_of)
    keep = row_filter(rng, speaker, cutoff)
    trace: dict[str, Any] = {"words": list(q.words), "lists": names, "fusion": payload.fusion,
                             "retries": {}, "fallbacks": []}
    lists = gather(ctx, q, group, names, tune, keep, rng, clock, trace)
    counts = {name: len(cands) for name, cands in lists.items()}
    cosines = [c.score for n, cands in lists.items() if n.endswith("_vector") for c in cands[:1]]
    trace["best_cosine"] = round(max(cosines), 4) if cosines else None

    def fused_and_boosted() -> list[Fused]:
        fused = _fuse(lists, payload, tune)
        trace["boosted"] = boost(fused, names=q.names, speaker_boost=tune.speaker_boost, when=q.when,
                                 date_boost=tune.date_boost, slack=timedelta(days=tune.date_slack_days))
        return fused

    fused = clock.time("fusion", fused_and_boosted)
    if q.when:
        trace["when"] = [q.when[0].isoformat(), q.when[1].isoformat(), q.when_text]
    hits, turns = clock.time(
        "turns", lambda: _to_hits(ctx, group, fused[: payload.depth * tune.window], speaker, cutoff)
    )
    counts["fused"] = len(fused)
    if (payload.neighbours or tune.context_radius) and hits:
        hits, counts["neighbour"] = clock.time("neighbours", lambda: _with_context(
            ctx, group, hits, turns, payload.depth, payload.neighbours, tune, keep))
    hits = hits[: payload.depth]
    facts = clock.time("facts", lambda: _facts(ctx, group, hits))
    clock.ms["total"] = round((time.perf_counter() - started) * 1000, 2)
    return Retrieval(hits=hits, counts=counts, timings_ms=clock.ms, facts=facts, trace=trace)


# --- fusion and facts ------------------------------------------------------------------------------


def _fuse(lists: Mapping[str, list[Candidate]], payload: Payload, tune: Tuning) -> list[Fused]:
    weights: dict[str, float] = {}
    for index in payload.indexes:
        text, vector = LISTS[index]
        weights[text] = payload.weight(index) * tune.text_weight
        weights[vector] = payload.weight(index) * tune.vector_weight
    method: Method = "rrf" if payload.fusion == "rrf" else "score"  # bm25/dense: one modality, scores fused
    pools = {name: name.rsplit("_", 1)[1] for name in lists} if tune.pool else None
    return fuse(lists, weights, method, normaliser=tune.normaliser, rrf_k=tune.rrf_k, pools=pools)


def _facts(ctx: Context, group: str, hits: list[Hit]) -> list[Fact]:
    """The facts behind the hits (those a fact list matched), in hit order."""
    uuids = list(dict.fromkeys(h.fact_uuid for h in hits if h.fact_uuid))
    if not uuids:
        return []
    rows = {
        r["uuid"]: r for r in ctx.store.named("retrieval.fact_sources", {"group_id": group, "uuids": uuids})
    }
    return [Fact.from_row(rows[u], group) for u in uuids if u in rows]


# --- turns -------------------------------------------------------------------------------------------


def _to_hits(
    ctx: Context, group: str, fused: list[Fused], speaker: str | None, cutoff: datetime | None,
) -> tuple[list[Hit], dict[str, Row]]:
    """Hits for the fused turns, with each turn's own row (text, seq, session) by uuid.

    Chunk rows were filtered at search; a turn found only through facts is checked here against
    the speaker and ``as_of`` filters (a fact's time range was checked on the fact).
    """
    uuids = [f.episode_uuid for f in fused]
    turns = (
        {r["uuid"]: r for r in turns_by_uuid(ctx, group, uuids)}
        if uuids
        else {}
    )
    hits: list[Hit] = []
    for f in fused:
        row = turns.get(f.episode_uuid)
        if row is None:
            continue  # a fact pointing at a turn that is gone
        if all(v.startswith("fact_") for v in f.via) and not turn_passes(row, speaker, cutoff):
            continue
        hits.append(_hit(row, f.score, tuple(f.via), f.matched, f.fact_uuid))
    return hits, turns


def _hit(
    row: Row, score: float, via: tuple[str, ...], matched: str = "", fact_uuid: str | None = None
) -> Hit:
    source_ref = row.get("source_ref")
    return Hit(
        episode_uuid=str(row["uuid"]), source_ref=None if source_ref is None else str(source_ref),
        text=str(row.get("text") or ""), speaker=str(row.get("speaker") or ""), valid_at=row.get("valid_at"),
        score=score, via=via, matched=matched, fact_uuid=fact_uuid,
    )


def _with_context(
    ctx: Context, group: str, hits: list[Hit], turns: Mapping[str, Row], depth: int, n: int, tune: Tuning,
    keep: Filter | None,
) -> tuple[list[Hit], int]:
    """Turns in context: a dialogue answers across neighbouring turns, so

    * each hit gains ``context_weight * decay**(d-1) * score`` of every hit ``d`` turns away in the
      same session, ``d <= context_radius`` (a run of relevant turns outranks a lone lucky match);
    * the turns within ``n`` (the payload's ``neighbours``) of the best ``depth`` hits join, or
      rise, at ``decay**d`` of the hit's score (the answer is often the reply, which shares no
      word with the question).

    Returns the hits re-ranked and how many turns joined as neighbours.
    """
    place = {h.episode_uuid: (turns[h.episode_uuid].get("session"), int(turns[h.episode_uuid]["seq"]))
             for h in hits if h.episode_uuid in turns}
    at = {p: h for h in hits if (p := place.get(h.episode_uuid)) is not None}
    radius = n if tune.context_radius is None else tune.context_radius
    if tune.context_weight and radius:
        scores = context_scores(place, {h.episode_uuid: h.score for h in hits}, radius=radius,
                                weight=tune.context_weight, decay=tune.neighbour_decay)
        for h in hits:
            h.score = scores.get(h.episode_uuid, h.score)
        hits.sort(key=lambda h: (-h.score, h.episode_uuid))
    top = hits[:depth]
    top_places = {place.get(h.episode_uuid) for h in top}
    wanted = {
        (p[0], p[1] + d) for h in top if (p := place.get(h.episode_uuid)) for d in range(-n, n + 1) if d
    }
    missing = sorted({seq for session, seq in wanted if (session, seq) not in at})
    rows = turns_by_seq(ctx, group, missing) if missing else []
    found = {(r.get("session"), int(r["seq"])): r for r in rows if keep is None or keep(r)}
    joined: dict[str, Hit] = {}
    for h in top:
        if (p := place.get(h.episode_uuid)) is None:
            continue
        for d in range(-n, n + 1):
            spot = (p[0], p[1] + d)
            if not d or spot in top_places:
                continue
            score = h.score * tune.neighbour_decay ** abs(d)
            if spot in at:  # fused already, below the cut: rise to the neighbour score if higher
                at[spot].score = max(at[spot].score, score)
            elif spot in found and (
                found[spot]["uuid"] not in joined or joined[found[spot]["uuid"]].score < score
            ):
                joined[found[spot]["uuid"]] = _hit(found[spot], score, ("neighbour",))
    return sorted([*hits, *joined.values()], key=lambda h: (-h.score, h.episode_uuid)), len(joined)
