"""Direct retrieval: full-text and vector search over turns, sentences and facts, fused per turn.

What it does for one question, all scoped to one group:

1. the question becomes plain words for BM25 (`query_text`: no engine syntax survives, and a
   calendar date it names is set aside as a boost) and the question itself is embedded;
2. each index the payload names is searched both ways — ``chunk`` (whole turns), ``sentence``
   (single sentences of longer turns) and ``fact`` (extracted fact sentences) — giving up to six
   ranked lists (``chunk_text``, ``chunk_vector``, ``sentence_text``, ...) from one full-text and
   one vector query (`retrieval.text`, `retrieval.vector`);
3. sentences and facts are mapped back to the turn that said them, and the lists are fused per
   turn (`fusion`: calibrated-score or reciprocal-rank, as the payload says);
4. turns by a person the question names, and turns said on the date it names, are boosted; a
   turn gains part of its neighbours' scores (a dialogue answers across turns) and the turns
   next to the best hits join at a decayed score (the answer is often the reply); the result is
   cut to the payload's depth.

Indexes are shared by all groups, so each search over-fetches (``k_fetch``) and keeps this group's
rows; when too few survive and the index had more to give, it asks again with a larger
``k_fetch`` (at most `Tuning.max_retries` times, never above `Tuning.k_fetch_max`), and it
remembers the share it kept so the next question's first fetch is sized right.

Example::

    >>> from procedures.retrieval import retrieve  # doctest: +SKIP
    >>> r = retrieve(mem.ctx, "Where did Priya move?", "priya-marco", payload)  # doctest: +SKIP
    >>> r.hits[0].source_ref, r.hits[0].via  # doctest: +SKIP
    ('D2:4', ('sentence_text', 'chunk_vector', 'chunk_text'))
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from planners.payloads import Payload
from tkg.memory import Context, row_to_fact
from tkg.models import Fact, as_utc
from tkg.stores.base import Row

from .fusion import Candidate, Fused, Method, Normaliser, boost, context_scores, fuse
from .query_text import QueryText, parse_question
from .result import Hit, Retrieval

__all__ = ["Hit", "Retrieval", "Tuning", "retrieve"]

LISTS: dict[str, tuple[str, str]] = {
    "chunk": ("chunk_text", "chunk_vector"),
    "sentence": ("sentence_text", "sentence_vector"),
    "fact": ("fact_text", "fact_vector"),
}
_INDEX_OF_KIND = {"turn": "chunk", "sentence": "sentence", "fact": "fact"}
# (store, op, group) -> share of an index's rows the group filter kept last time; sizes the next
# first fetch so a small tenant in a big store does not pay a retry on every question.
_SHARE: dict[tuple[str, str, str], float] = {}
_SHARE_MAX = 10_000

Filter = Callable[[Row], bool]


@dataclass(frozen=True)
class Tuning:
    """Retrieval knobs that are not part of a payload. Defaults: the best measured on LoCoMo dev
    (tools/dev_locomo_eval.py; evidence-turn Hit@10 / MRR, see the report in the docstring there)."""

    per_list: int = 40  # candidates kept per ranked list (after the group filter)
    k_fetch_factor: int = 4  # first over-fetch: per_list * factor rows from the shared index
    k_fetch_max: int = 4096
    max_retries: int = 3
    learn_share: bool = True  # size the first fetch from the share the group kept last time
    normaliser: Normaliser = "z"  # how "score" fusion calibrates each list (z beat minmax)
    pool: bool = False  # calibrate against all lists of a modality pooled (measured: no gain)
    rrf_k: int = 60
    bm25_k1: float = 1.2  # Kuzu only: Lucene's are fixed per index
    bm25_b: float = 0.2  # turn BM25 Hit@10: b=0.75 0.643, 0.3 0.676, 0.2 0.688
    text_weight: float = 1.0  # BM25 lists; multiplies the payload's per-index weight
    vector_weight: float = 1.0  # dense lists
    speaker_boost: float = 0.3  # extra share for turns said by a person the question names
    date_boost: float = 2.0  # extra share for turns said on / about the calendar date it names
    date_slack_days: float = 1.0
    neighbour_decay: float = 0.5  # a neighbour d turns away joins at decay**d of its hit's score
    context_weight: float = 0.3  # share of a neighbouring hit's score a hit gains
    context_radius: int | None = 2  # turns either side that lend score; None: payload.neighbours
    dense_text: Literal["question", "declarative"] = "question"  # declarative measured worse
    window: int = 3  # depth * window fused turns are read, so boosts and context can reorder


class _Clock:
    def __init__(self) -> None:
        self.ms: dict[str, float] = {}

    def time(self, name: str, fn: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        try:
            return fn()
        finally:
            self.ms[name] = round(self.ms.get(name, 0.0) + (time.perf_counter() - start) * 1000, 2)


def retrieve(
    ctx: Context,
    question: str,
    group: str,
    payload: Payload,
    *,
    time_range: tuple[datetime, datetime] | None = None,
    speaker: str | None = None,
    as_of: datetime | None = None,
    tuning: Tuning | None = None,
) -> Retrieval:
    """The payload's depth of distinct turns that best answer ``question`` in ``group``.

    ``time_range`` keeps turns said in ``[start, end)`` or whose words refer to a time overlapping
    it (and facts that began in it); ``speaker`` keeps only turns that person said (neighbours
    included); ``as_of`` keeps only what had been said by then.
    """
    tune = tuning or Tuning()
    clock = _Clock()
    started = time.perf_counter()
    q = parse_question(question)
    names = _lists(payload)
    rng = (as_utc(time_range[0]), as_utc(time_range[1])) if time_range else None
    cutoff = as_utc(as_of)
    keep = _row_filter(rng, speaker, cutoff)
    trace: dict[str, Any] = {"words": list(q.words), "lists": names, "fusion": payload.fusion,
                             "retries": {}, "fallbacks": []}
    lists = _gather(ctx, q, group, names, tune, keep, rng, clock, trace)
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
    hits, turns = clock.time("turns", lambda: _to_hits(ctx, group, fused[: payload.depth * tune.window], speaker, cutoff))
    counts["fused"] = len(fused)
    if (payload.neighbours or tune.context_radius) and hits:
        hits, counts["neighbour"] = clock.time("neighbours", lambda: _with_context(
            ctx, group, hits, turns, payload.depth, payload.neighbours, tune, keep))
    hits = hits[: payload.depth]
    facts = clock.time("facts", lambda: _facts(ctx, group, hits))
    clock.ms["total"] = round((time.perf_counter() - started) * 1000, 2)
    return Retrieval(hits=hits, counts=counts, timings_ms=clock.ms, facts=facts, trace=trace)


# --- searching ---------------------------------------------------------------------------------------


def _lists(payload: Payload) -> list[str]:
    """The ranked lists a payload asks for, e.g. ['chunk_text', 'chunk_vector', ...]."""
    out: list[str] = []
    for index in payload.indexes:
        text, vector = LISTS[index]
        if payload.fusion != "dense":
            out.append(text)
        if payload.fusion != "bm25":
            out.append(vector)
    return out


def _gather(
    ctx: Context, q: QueryText, group: str, names: list[str], tune: Tuning, keep: Filter | None,
    rng: tuple[datetime | None, datetime | None] | None, clock: _Clock, trace: dict[str, Any],
) -> dict[str, list[Candidate]]:
    """One full-text and one vector search, rows split into lists (facts under their turn)."""
    lists: dict[str, list[Candidate]] = {}
    searches: dict[str, Callable[[], list[Row]]] = {}
    for mode in ("text", "vector"):
        wanted = [n for n in names if n.endswith("_" + mode)]
        if not wanted:
            continue
        if mode == "text" and not q.fts:
            trace["fallbacks"].append("no words for full text: dense lists only")
            continue
        searches[mode] = _searcher(ctx, q, group, mode, wanted, tune, keep, clock, trace)
    # The full-text search runs while the question is embedded and the vector index searched:
    # one question on one core each, about a third off the wall time.
    pending = _pool().submit(searches.pop("text")) if len(searches) == 2 else None
    results = {mode: run() for mode, run in searches.items()}
    if pending is not None:
        results["text"] = pending.result()
    for mode, rows in results.items():
        for name in (n for n in names if n.endswith("_" + mode)):
            mine = [r for r in rows if _list_of(r, mode) == name]
            if name.startswith("fact_"):
                lists[name] = [_fact_candidate(r) for r in mine if rng is None or _fact_in_range(r, rng)]
            else:
                lists[name] = [_chunk_candidate(r) for r in mine]
    return lists


def _searcher(
    ctx: Context, q: QueryText, group: str, mode: str, wanted: list[str], tune: Tuning, keep: Filter | None,
    clock: _Clock, trace: dict[str, Any],
) -> Callable[[], list[Row]]:
    """The search of one modality as a thunk (embedding included), timed under its mode's name."""

    def run() -> list[Row]:
        if mode == "text":
            params: dict[str, Any] = {"text": q.fts, "bm25_k1": tune.bm25_k1, "bm25_b": tune.bm25_b}
        else:
            question = q.dense if tune.dense_text == "declarative" else q.question
            params = {"vector": clock.time("embed", lambda: ctx.embedder.embed_one(question))}
        return clock.time(mode, lambda: _search(ctx, f"retrieval.{mode}", {"group_id": group, **params},
                                                tune, trace, wanted, keep))

    return run


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tkg-retrieval")
        return _POOL


def _search(
    ctx: Context, op: str, params: Mapping[str, Any], tune: Tuning, trace: dict[str, Any],
    wanted: list[str], keep: Filter | None,
) -> list[Row]:
    """One index search with adaptive over-fetch: this group's rows for the wanted lists,
    at most ``per_list`` per list, best first. Fact rows skip ``keep`` (checked on the fact)."""
    mode = op.rsplit(".", 1)[1]
    key = (str(getattr(ctx.store, "url", "")), op, str(params.get("group_id")))
    k_fetch = tune.per_list * tune.k_fetch_factor
    share = _SHARE.get(key) if tune.learn_share else None
    if share:
        k_fetch = max(k_fetch, min(tune.k_fetch_max, int(tune.per_list / share * 1.25)))
    retries = 0
    while True:
        result = ctx.store.named(op, {**params, "k_fetch": k_fetch, "efs": max(k_fetch, 200)})
        raw = int(result[0]["raw"] or 0) if result else 0
        rows = [r for r in (result[0]["hits"] if result else None) or []
                if r is not None and _list_of(r, mode) in wanted and (keep is None or r["kind"] == "fact" or keep(r))]
        if tune.learn_share and raw >= k_fetch:  # cut off by k_fetch: what share of it was ours?
            if len(_SHARE) > _SHARE_MAX:
                _SHARE.clear()
            _SHARE[key] = max(len(rows), 1) / raw
        # Over-fetch again only for what the group filter took away: the index had more to give
        # (raw == k_fetch) and fewer than per_list of this group's rows survived.
        if len(rows) >= tune.per_list or raw < k_fetch or k_fetch >= tune.k_fetch_max or retries >= tune.max_retries:
            break
        k_fetch = min(k_fetch * 4, tune.k_fetch_max)
        retries += 1
    if retries:
        trace["retries"][op] = {"retries": retries, "k_fetch": k_fetch}
    rows.sort(key=lambda r: -float(r["score"]))
    per: dict[str, int] = {}
    out = []
    for r in rows:
        name = _list_of(r, mode)
        per[name] = per.get(name, 0) + 1
        if per[name] <= tune.per_list:
            out.append(r)
    return out


def _list_of(row: Row, mode: str) -> str:
    return f"{_INDEX_OF_KIND.get(str(row.get('kind')), 'chunk')}_{mode}"


def _chunk_candidate(r: Row) -> Candidate:
    start, end = r.get("time_start"), r.get("time_end") or r.get("time_start")
    return Candidate(
        r["episode_uuid"], float(r["score"]), matched="" if r["kind"] == "turn" else r["text"],
        speaker=str(r.get("speaker") or ""), said=r.get("valid_at"), about=(start, end) if start and end else None,
    )


def _fact_candidate(r: Row) -> Candidate:
    """A fact found by an index, under the turn that first said it."""
    return Candidate(r["episode_uuid"], float(r["score"]), matched=r["text"], fact_uuid=r["uuid"], said=r.get("valid_at"))


def _facts(ctx: Context, group: str, hits: list[Hit]) -> list[Fact]:
    """The facts behind the hits (those a fact list matched), in hit order."""
    uuids = list(dict.fromkeys(h.fact_uuid for h in hits if h.fact_uuid))
    if not uuids:
        return []
    rows = {r["uuid"]: r for r in ctx.store.named("retrieval.fact_sources", {"group_id": group, "uuids": uuids})}
    return [row_to_fact(rows[u], group) for u in uuids if u in rows]


def _fuse(lists: Mapping[str, list[Candidate]], payload: Payload, tune: Tuning) -> list[Fused]:
    weights: dict[str, float] = {}
    for index in payload.indexes:
        text, vector = LISTS[index]
        weights[text] = payload.weight(index) * tune.text_weight
        weights[vector] = payload.weight(index) * tune.vector_weight
    method: Method = "rrf" if payload.fusion == "rrf" else "score"  # bm25/dense: one modality, scores fused
    pools = {name: name.rsplit("_", 1)[1] for name in lists} if tune.pool else None
    return fuse(lists, weights, method, normaliser=tune.normaliser, rrf_k=tune.rrf_k, pools=pools)


# --- filters -----------------------------------------------------------------------------------------


def _row_filter(
    rng: tuple[datetime | None, datetime | None] | None, speaker: str | None, cutoff: datetime | None,
) -> Filter | None:
    if rng is None and not speaker and cutoff is None:
        return None
    who = speaker.casefold() if speaker else None

    def keep(row: Row) -> bool:
        if who is not None and str(row.get("speaker") or "").casefold() != who:
            return False
        if cutoff is not None and (row.get("valid_at") is None or row["valid_at"] > cutoff):
            return False
        if rng is None:
            return True
        start, end = rng
        said = row.get("valid_at")
        if said is not None and _within(said, start, end):
            return True
        t0, t1 = row.get("time_start"), row.get("time_end") or row.get("time_start")
        if t0 is None or t1 is None:
            return False
        return (end is None or t0 < end) and (start is None or t1 > start)

    return keep


def _within(t: datetime, start: datetime | None, end: datetime | None) -> bool:
    return (start is None or t >= start) and (end is None or t < end)


def _fact_in_range(fact: Row, rng: tuple[datetime | None, datetime | None]) -> bool:
    """A fact that began in the range (said then, or said of then): a fact merely still true
    in it (a home of ten years) says nothing about the range."""
    start = fact.get("valid_at")
    return start is not None and _within(start, *rng)


def _turn_passes(row: Row, speaker: str | None, cutoff: datetime | None) -> bool:
    check = _row_filter(None, speaker, cutoff)
    return check is None or check(row)


# --- turns -------------------------------------------------------------------------------------------


def _to_hits(
    ctx: Context, group: str, fused: list[Fused], speaker: str | None, cutoff: datetime | None,
) -> tuple[list[Hit], dict[str, Row]]:
    """Hits for the fused turns, with each turn's own row (text, seq, session) by uuid.

    Chunk rows were filtered at search; a turn found only through facts is checked here against
    the speaker and ``as_of`` filters (a fact's time range was checked on the fact).
    """
    uuids = [f.episode_uuid for f in fused]
    turns = {r["uuid"]: r for r in ctx.store.named("retrieval.turns", {"group_id": group, "uuids": uuids})} if uuids else {}
    hits: list[Hit] = []
    for f in fused:
        row = turns.get(f.episode_uuid)
        if row is None:
            continue  # a fact pointing at a turn that is gone
        if all(v.startswith("fact_") for v in f.via) and not _turn_passes(row, speaker, cutoff):
            continue
        hits.append(_hit(row, f.score, tuple(f.via), f.matched, f.fact_uuid))
    return hits, turns


def _hit(row: Row, score: float, via: tuple[str, ...], matched: str = "", fact_uuid: str | None = None) -> Hit:
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
        hits.sort(key=lambda h: -h.score)
    top = hits[:depth]
    top_places = {place.get(h.episode_uuid) for h in top}
    wanted = {(p[0], p[1] + d) for h in top if (p := place.get(h.episode_uuid)) for d in range(-n, n + 1) if d}
    missing = sorted({seq for session, seq in wanted if (session, seq) not in at})
    rows = ctx.store.named("retrieval.turns_by_seq", {"group_id": group, "seqs": missing}) if missing else []
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
            elif spot in found and (found[spot]["uuid"] not in joined or joined[found[spot]["uuid"]].score < score):
                joined[found[spot]["uuid"]] = _hit(found[spot], score, ("neighbour",))
    return sorted([*hits, *joined.values()], key=lambda h: -h.score), len(joined)
