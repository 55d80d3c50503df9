"""Direct retrieval: full-text and vector search over turns, sentences and facts, fused per turn.

What it does for one question, all scoped to one group:

1. the question becomes plain words for BM25 and a declarative sentence to embed (`query_text`);
2. each index the payload names is searched both ways — ``chunk`` (whole turns), ``sentence``
   (single sentences of longer turns) and ``fact`` (extracted fact sentences) — giving up to six
   ranked lists (``chunk_text``, ``chunk_vector``, ``sentence_text``, ...);
3. sentences and facts are mapped back to the turn that said them, and the lists are fused per
   turn (`fusion`: reciprocal-rank or calibrated-score, as the payload says);
4. turns by a person the question names get a boost, turns either side of the best hits join
   with a decayed score (answers are often in the reply), and the result is cut to the payload's
   depth.

The stores' indexes are shared by all groups, so each search over-fetches (``k_fetch``) and keeps
this group's rows; when too few survive and the index had more to give, it asks again with a
larger ``k_fetch`` (at most `Tuning.max_retries` times, never above `Tuning.k_fetch_max`).

Example::

    >>> from procedures.retrieval import retrieve  # doctest: +SKIP
    >>> r = retrieve(mem.ctx, "Where did Priya move?", "priya-marco", payload)  # doctest: +SKIP
    >>> r.hits[0].source_ref, r.hits[0].via  # doctest: +SKIP
    ('D2:4', ('sentence_text', 'chunk_vector', 'chunk_text'))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from planners.payloads import Payload
from tkg.memory import Context, row_to_fact
from tkg.models import Fact, as_utc
from tkg.stores.base import Row

from .fusion import Candidate, Fused, Normaliser, fuse
from .query_text import QueryText, parse_question

LISTS: dict[str, tuple[str, str]] = {
    "chunk": ("chunk_text", "chunk_vector"),
    "sentence": ("sentence_text", "sentence_vector"),
    "fact": ("fact_text", "fact_vector"),
}
_KIND = {"turn": "chunk", "sentence": "sentence"}
# (store, op, group) -> share of an index's rows the group filter kept last time; sizes the next
# first fetch so a small tenant in a big store does not pay a retry on every question.
_YIELD: dict[tuple[str, str, str], float] = {}
_YIELD_MAX = 10_000


@dataclass(frozen=True)
class Tuning:
    """Retrieval knobs that are not part of a payload; the defaults are the measured best."""

    per_list: int = 40  # candidates kept per ranked list (after the group filter)
    k_fetch_factor: int = 4  # first over-fetch: per_list * factor rows from the shared index
    k_fetch_max: int = 4096
    max_retries: int = 3
    learn_share: bool = True  # size the first fetch from the share the group kept last time
    normaliser: Normaliser = "z"  # how "score" fusion calibrates each list
    rrf_k: int = 60
    text_weight: float = 1.0  # BM25 lists; multiplies the payload's per-index weight
    vector_weight: float = 1.0  # dense lists
    speaker_boost: float = 0.0  # extra share of score for turns said by a person the question names
    neighbour_decay: float = 0.5  # a neighbour d turns away scores decay**d of its hit
    dense_text: Literal["question", "declarative"] = "question"
    window: int = 3  # turns fused beyond depth, so boosts and filters can reorder them


@dataclass
class Hit:
    """One turn (episode), the unit evidence is judged at."""

    episode_uuid: str
    source_ref: str | None  # e.g. LoCoMo dia_id "D3:12"
    text: str  # the turn's text
    speaker: str
    valid_at: datetime | None
    score: float
    via: tuple[str, ...]  # lists that found it: "chunk_text", "sentence_vector", "neighbour", ...
    matched: str = ""  # the sentence or fact that matched, when narrower than the turn
    fact_uuid: str | None = None


@dataclass
class Retrieval:
    hits: list[Hit]  # distinct turns, best first, at most payload.depth
    counts: dict[str, int]  # candidates per list before fusion
    timings_ms: dict[str, float]
    facts: list[Fact] = field(default_factory=list)  # the facts the fact lists found, best first
    trace: dict[str, Any] = field(default_factory=dict)  # query words, fusion, over-fetch retries


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

    ``time_range`` keeps turns said in ``[start, end)`` or whose words refer to a time that
    overlaps it; ``speaker`` keeps only turns that person said (neighbours included); ``as_of``
    keeps only what had been said by then (and facts recorded by then).
    """
    tune = tuning or Tuning()
    clock = _Clock()
    started = time.perf_counter()
    q = parse_question(question)
    names = _lists(payload)
    rng = (as_utc(time_range[0]), as_utc(time_range[1])) if time_range else None
    cutoff = as_utc(as_of)
    keep = _row_filter(rng, speaker, cutoff)
    trace: dict[str, Any] = {"words": list(q.words), "dense": _dense_text(q, tune), "lists": names,
                             "fusion": payload.fusion, "retries": {}, "fallbacks": []}
    lists: dict[str, list[Candidate]] = {}
    vector: list[float] | None = None
    if any(n.endswith("_vector") for n in names):
        vector = clock.time("embed", lambda: ctx.embedder.embed_one(_dense_text(q, tune)))
    if not q.fts and any(n.endswith("_text") for n in names):
        trace["fallbacks"].append("no words for full text: dense lists only")
    base = {"group_id": group}
    kinds = [k for k in ("chunk", "sentence") if k in payload.indexes]
    for mode in ("text", "vector"):
        wanted = [f"{k}_{mode}" for k in kinds if f"{k}_{mode}" in names]
        if not wanted or (mode == "text" and not q.fts):
            continue
        params = {**base, "text": q.fts} if mode == "text" else {**base, "vector": vector}
        rows = clock.time(f"chunk_{mode}", lambda p=params, m=mode, w=wanted: _search(
            ctx, f"retrieval.chunk_{m}", p, tune, trace, w, keep))
        for name in wanted:
            lists[name] = [_chunk_candidate(r) for r in rows if f"{_KIND[r['kind']]}_{mode}" == name]
    fact_rows: dict[str, Row] = {}
    if "fact" in payload.indexes:
        found: dict[str, list[Row]] = {}
        for mode in ("text", "vector"):
            name = f"fact_{mode}"
            if name not in names or (mode == "text" and not q.fts):
                continue
            params = {**base, "text": q.fts} if mode == "text" else {**base, "vector": vector}
            found[name] = clock.time(name, lambda p=params, m=mode, n=name: _search(
                ctx, f"retrieval.fact_{m}", p, tune, trace, [n], None))
        uuids = list(dict.fromkeys(r["uuid"] for rows in found.values() for r in rows))
        if uuids:
            for r in clock.time("fact_sources", lambda: ctx.store.named(
                    "retrieval.fact_sources", {**base, "uuids": uuids})):
                if rng is None or _fact_in_range(r, rng):
                    fact_rows[r["uuid"]] = r
        for name, rows in found.items():
            lists[name] = [c for r in rows if r["uuid"] in fact_rows for c in _fact_candidates(r, fact_rows[r["uuid"]])]
    counts = {name: len(cands) for name, cands in lists.items()}
    cosines = [c.score for n, cands in lists.items() if n.endswith("_vector") for c in cands[:1]]
    trace["best_cosine"] = round(max(cosines), 4) if cosines else None
    fused = clock.time("fusion", lambda: _fuse(lists, payload, tune))
    hits, turns = clock.time("turns", lambda: _to_hits(
        ctx, group, fused[: payload.depth * tune.window], speaker, cutoff))
    if tune.speaker_boost and q.names:
        _boost_speakers(hits, q.names, tune.speaker_boost)
    hits.sort(key=lambda h: -h.score)
    hits = hits[: payload.depth]
    if payload.neighbours and hits:
        added = clock.time("neighbours", lambda: _add_neighbours(
            ctx, group, hits, turns, payload.neighbours, tune.neighbour_decay, keep))
        counts["neighbour"] = added
        hits.sort(key=lambda h: -h.score)
        hits = hits[: payload.depth]
    counts["fused"] = len(fused)
    clock.ms["total"] = round((time.perf_counter() - started) * 1000, 2)
    if keep is not None:  # with filters, only facts behind turns that passed them
        passed = set(turns) - {h for h in turns if not _turn_passes(turns[h], speaker, cutoff)}
        fact_rows = {u: r for u, r in fact_rows.items() if set(r.get("episodes") or []) & passed}
    facts = [row_to_fact(fact_rows[u], group) for u in _fact_order(lists) if u in fact_rows]
    return Retrieval(hits=hits, counts=counts, timings_ms=clock.ms, facts=facts, trace=trace)


# --- lists ---------------------------------------------------------------------------------------


def _lists(payload: Payload) -> list[str]:
    out: list[str] = []
    for index in payload.indexes:
        text, vector = LISTS[index]
        if payload.fusion != "dense":
            out.append(text)
        if payload.fusion != "bm25":
            out.append(vector)
    return out


def _dense_text(q: QueryText, tune: Tuning) -> str:
    return q.dense if tune.dense_text == "declarative" else q.question


def _search(
    ctx: Context, op: str, params: Mapping[str, Any], tune: Tuning, trace: dict[str, Any],
    wanted: list[str], keep: Callable[[Row], bool] | None,
) -> list[Row]:
    """One index search with adaptive over-fetch; rows of this group that pass ``keep``.

    The first ``k_fetch`` is ``per_list * k_fetch_factor``, or more when an earlier search of
    the same index for the same group kept only a small share of what the index returned.
    """
    key = (getattr(ctx.store, "url", ""), op, str(params.get("group_id")))
    k_fetch = tune.per_list * tune.k_fetch_factor
    share = _YIELD.get(key) if tune.learn_share else None
    if share:
        k_fetch = max(k_fetch, min(tune.k_fetch_max, int(tune.per_list / share * 1.25)))
    retries = 0
    while True:
        result = ctx.store.named(op, {**params, "k_fetch": k_fetch, "efs": max(k_fetch, 200)})
        raw = int(result[0]["raw"]) if result else 0
        rows = [r for r in (result[0]["hits"] if result else None) or [] if r is not None and _list_of(r, op) in wanted]
        if keep is not None:
            rows = [r for r in rows if keep(r)]
        # Over-fetch again only for what the group filter took away: the index had more to give
        # (raw == k_fetch) and fewer than per_list of this group's rows survived.
        if len(rows) >= tune.per_list or raw < k_fetch or k_fetch >= tune.k_fetch_max or retries >= tune.max_retries:
            break
        k_fetch = min(k_fetch * 4, tune.k_fetch_max)
        retries += 1
    if tune.learn_share and raw >= k_fetch:  # the index was cut off by k_fetch: what share of it was ours?
        if len(_YIELD) > _YIELD_MAX:
            _YIELD.clear()
        _YIELD[key] = max(len(rows), 1) / raw
    if retries:
        trace["retries"][op] = {"retries": retries, "k_fetch": k_fetch}
    rows.sort(key=lambda r: -float(r["score"]))
    per: dict[str, int] = {}
    out = []
    for r in rows:
        name = _list_of(r, op)
        per[name] = per.get(name, 0) + 1
        if per[name] <= tune.per_list:
            out.append(r)
    return out


def _list_of(row: Row, op: str) -> str:
    mode = op.rsplit("_", 1)[1]
    if op.startswith("retrieval.fact_"):
        return f"fact_{mode}"
    return f"{_KIND.get(str(row.get('kind')), 'chunk')}_{mode}"


def _chunk_candidate(r: Row) -> Candidate:
    if r["kind"] == "turn":
        return Candidate(r["episode_uuid"], float(r["score"]))
    return Candidate(r["episode_uuid"], float(r["score"]), matched=r["text"])


def _fact_candidates(hit: Row, fact: Row) -> list[Candidate]:
    episodes = list(fact.get("episodes") or [])
    return [Candidate(e, float(hit["score"]), matched=fact.get("fact") or hit["fact"], fact_uuid=fact["uuid"])
            for e in dict.fromkeys(episodes)]


def _fact_order(lists: Mapping[str, list[Candidate]]) -> list[str]:
    pairs = [(c.score, i, c.fact_uuid) for n in ("fact_vector", "fact_text") for i, c in enumerate(lists.get(n, []))]
    ranked = sorted(pairs, key=lambda p: (p[1], -p[0]))  # interleave the two lists by rank
    return list(dict.fromkeys(u for _, _, u in ranked if u))


def _fuse(lists: Mapping[str, list[Candidate]], payload: Payload, tune: Tuning) -> list[Fused]:
    weights: dict[str, float] = {}
    for index in payload.indexes:
        text, vector = LISTS[index]
        weights[text] = payload.weight(index) * tune.text_weight
        weights[vector] = payload.weight(index) * tune.vector_weight
    method = "rrf" if payload.fusion == "rrf" else "score"  # bm25/dense: one modality, scores fused
    return fuse(lists, weights, method, normaliser=tune.normaliser, rrf_k=tune.rrf_k)


# --- filters ---------------------------------------------------------------------------------------


def _row_filter(
    rng: tuple[datetime | None, datetime | None] | None, speaker: str | None, cutoff: datetime | None,
) -> Callable[[Row], bool] | None:
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
        return t0 is not None and (end is None or t0 < end) and (start is None or t1 > start)

    return keep


def _within(t: datetime, start: datetime | None, end: datetime | None) -> bool:
    return (start is None or t >= start) and (end is None or t < end)


def _fact_in_range(fact: Row, rng: tuple[datetime | None, datetime | None]) -> bool:
    """A fact that began in the range (said then, or said of then): a fact merely still true
    in it (a home of ten years) says nothing about the range."""
    start = fact.get("valid_at")
    return start is not None and _within(start, *rng)


# --- turns -----------------------------------------------------------------------------------------


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


def _turn_passes(row: Row, speaker: str | None, cutoff: datetime | None) -> bool:
    check = _row_filter(None, speaker, cutoff)
    return check is None or check(row)


def _hit(row: Row, score: float, via: tuple[str, ...], matched: str = "", fact_uuid: str | None = None) -> Hit:
    return Hit(
        episode_uuid=str(row["uuid"]), source_ref=_str(row.get("source_ref")), text=str(row.get("text") or ""),
        speaker=str(row.get("speaker") or ""), valid_at=row.get("valid_at"), score=score, via=via,
        matched=matched, fact_uuid=fact_uuid,
    )


def _boost_speakers(hits: list[Hit], names: Iterable[str], boost: float) -> None:
    wanted = {n.casefold() for n in names}
    for h in hits:
        first = h.speaker.casefold().split(" ")[0] if h.speaker else ""
        if h.speaker.casefold() in wanted or first in wanted:
            h.score *= 1.0 + boost


def _add_neighbours(
    ctx: Context, group: str, hits: list[Hit], turns: Mapping[str, Row], n: int, decay: float,
    keep: Callable[[Row], bool] | None,
) -> int:
    """Add the turns within ``n`` of each hit (same session) at ``decay**distance`` of its score."""
    centres = [turns[h.episode_uuid] for h in hits if h.episode_uuid in turns]
    have = {h.episode_uuid for h in hits}
    seqs = sorted({int(r["seq"]) + d for r in centres for d in range(-n, n + 1) if d} - {int(r["seq"]) for r in centres})
    if not seqs:
        return 0
    by_seq = {int(r["seq"]): r for r in ctx.store.named("retrieval.turns_by_seq", {"group_id": group, "seqs": seqs})}
    best: dict[str, tuple[float, Row]] = {}
    for h in hits:
        centre = turns.get(h.episode_uuid)
        if centre is None:
            continue
        for d in range(-n, n + 1):
            row = by_seq.get(int(centre["seq"]) + d)
            if not d or row is None or row["uuid"] in have or row.get("session") != centre.get("session"):
                continue
            if keep is not None and not keep(row):
                continue
            score = h.score * decay ** abs(d)
            if row["uuid"] not in best or score > best[row["uuid"]][0]:
                best[row["uuid"]] = (score, row)
    hits.extend(_hit(row, score, ("neighbour",)) for score, row in best.values())
    return len(best)


def _str(value: Any) -> str | None:
    return None if value is None else str(value)
