"""Index search for `retrieval`: the ranked lists of one question, with over-fetch and row filters.

The chunk, sentence and fact indexes are searched with one full-text and one vector query
(`retrieval.text`, `retrieval.vector`), the full-text one on a small shared thread pool while the
question is embedded; the rows come back split into up to six ranked lists (``chunk_text``,
``chunk_vector``, ``sentence_text``, ...), facts as candidates of the turn that said them.

A group small enough to keep in memory (`procedures.group_vectors`: one read per write stamp) is
searched there both ways, exactly and without a store call: its vectors by a matrix product, its
full text by BM25 over the same rows (`procedures.group_text`).

The store's indexes are shared by all groups, so each search of them over-fetches (``k_fetch``)
and keeps this group's rows; when too few survive and the index had more to give, it asks again with a larger
``k_fetch`` (at most `Tuning.max_retries` times, never above `Tuning.k_fetch_max`), and it
remembers the share it kept so the next question's first fetch is sized right.

The time, speaker and ``as_of`` filters live here too because the search applies them to index
rows; `retrieval` reuses them for facts' turns and for neighbours.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from planners.payloads import Payload
from planners.query_text import QueryText
from tkg.context import Context
from tkg.stores.base import Row

from .fusion import Candidate, Tuning
from .group_text import GroupText, group_text, text_scores
from .group_vectors import GroupVectors, group_vectors

__all__ = ["LISTS", "Clock", "Filter", "gather", "list_names", "row_filter", "turn_passes"]

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


def forget_shares() -> None:
    """Drop every learned group share (the next searches start from ``per_list * k_fetch_factor``)."""
    _SHARE.clear()

Filter = Callable[[Row], bool]


class Clock:
    """Wall time per stage in ms, summed over calls (a `Retrieval`'s ``timings_ms``)."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = {}

    def time(self, name: str, fn: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        try:
            return fn()
        finally:
            self.ms[name] = round(self.ms.get(name, 0.0) + (time.perf_counter() - start) * 1000, 2)


# --- searching ---------------------------------------------------------------------------------------


def list_names(payload: Payload) -> list[str]:
    """The ranked lists a payload asks for, e.g. ['chunk_text', 'chunk_vector', ...]."""
    out: list[str] = []
    for index in payload.indexes:
        text, vector = LISTS[index]
        if payload.fusion != "dense":
            out.append(text)
        if payload.fusion != "bm25":
            out.append(vector)
    return out


def gather(
    ctx: Context, q: QueryText, group: str, names: list[str], tune: Tuning, keep: Filter | None,
    rng: tuple[datetime | None, datetime | None] | None, clock: Clock, trace: dict[str, Any],
) -> dict[str, list[Candidate]]:
    """One full-text and one vector search, rows split into lists (facts under their turn)."""
    lists: dict[str, list[Candidate]] = {}
    searches: dict[str, Callable[[], list[Row]]] = {}
    kept = _kept(ctx, group, tune, clock)
    for mode in ("text", "vector"):
        wanted = [n for n in names if n.endswith("_" + mode)]
        if not wanted:
            continue
        if mode == "text" and not q.fts:
            trace["fallbacks"].append("no words for full text: dense lists only")
            continue
        searches[mode] = _searcher(ctx, q, group, mode, wanted, tune, keep, kept, clock, trace)
    # A full-text search that goes to the store runs while the question is embedded and the
    # vector index searched: one question on one core each, about a third off the wall time.
    to_store = len(searches) == 2 and kept.text is None
    pending = _pool().submit(searches.pop("text")) if to_store else None
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


@dataclass(frozen=True)
class _Kept:
    """What the group keeps in memory for this search (None: the store's index serves that mode)."""

    vectors: GroupVectors | None
    text: GroupText | None


def _kept(ctx: Context, group: str, tune: Tuning, clock: Clock) -> _Kept:
    """The group's kept vectors and full-text index, read here, before any search starts, so two
    searches never read them at once."""
    if not (tune.exact_vectors or tune.exact_text):
        return _Kept(None, None)
    vectors = clock.time("vector", lambda: group_vectors(ctx, group))
    text = clock.time("text", lambda: group_text(ctx, group, vectors)) if tune.exact_text else None
    return _Kept(vectors if tune.exact_vectors else None, text)


def _searcher(
    ctx: Context, q: QueryText, group: str, mode: str, wanted: list[str], tune: Tuning, keep: Filter | None,
    kept: _Kept, clock: Clock, trace: dict[str, Any],
) -> Callable[[], list[Row]]:
    """The search of one modality as a thunk (embedding included), timed under its mode's name."""

    def run() -> list[Row]:
        op = f"retrieval.{mode}"
        if mode == "text":
            if kept.text is not None and kept.vectors is not None:
                index, rows = kept.text, kept.vectors
                return clock.time(mode, lambda: _in_memory(
                    op, rows, text_scores(index, q.fts, k1=tune.bm25_k1, b=tune.bm25_b), tune, trace,
                    wanted, keep))
            params: dict[str, Any] = {"text": q.fts, "bm25_k1": tune.bm25_k1, "bm25_b": tune.bm25_b}
        else:
            question = q.dense if tune.dense_text == "declarative" else q.question
            vector = clock.time("embed", lambda: ctx.embed_query(question))
            if kept.vectors is not None:
                exact = kept.vectors
                return clock.time(mode, lambda: _in_memory(op, exact, exact.scores(vector), tune, trace,
                                                           wanted, keep))
            params = {"vector": vector}
        return clock.time(mode, lambda: _search(ctx, op, {"group_id": group, **params}, tune, trace, wanted,
                                                keep))

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
        rows = [
            r
            for r in (result[0]["hits"] if result else None) or []
            if r is not None
            and _list_of(r, mode) in wanted
            and (keep is None or r["kind"] == "fact" or keep(r))
        ]
        if tune.learn_share and raw >= k_fetch:  # cut off by k_fetch: what share of it was ours?
            if len(_SHARE) > _SHARE_MAX:
                _SHARE.clear()
            _SHARE[key] = max(len(rows), 1) / raw
        # Over-fetch again only for what the group filter took away: the index had more to give
        # (raw == k_fetch) and fewer than per_list of this group's rows survived.
        if (
            len(rows) >= tune.per_list
            or raw < k_fetch
            or k_fetch >= tune.k_fetch_max
            or retries >= tune.max_retries
        ):
            break
        k_fetch = min(k_fetch * 4, tune.k_fetch_max)
        retries += 1
    if retries:
        trace["retries"][op] = {"retries": retries, "k_fetch": k_fetch}
    rows.sort(key=lambda r: (-float(r["score"]), str(r["uuid"])))
    return _per_list(rows, mode, tune)


def _in_memory(
    op: str, kept: GroupVectors, scores: np.ndarray, tune: Tuning, trace: dict[str, Any], wanted: list[str],
    keep: Filter | None,
) -> list[Row]:
    """Every row of a small group scored in memory (procedures/group_vectors.py, group_text.py):
    each wanted list's best ``per_list`` rows that pass the filters, best first; a row that scored 0
    (no query word in it) is no full-text hit."""
    trace.setdefault("exact", {})[op] = len(kept)
    mode = op.rsplit(".", 1)[1]
    out: list[Row] = []
    for name in wanted:  # each list's best rows that pass the filters: only those are read
        kinds = {k for k, index in _INDEX_OF_KIND.items() if f"{index}_{mode}" == name}
        taken = 0
        for i in kept.order(scores, kinds) if tune.per_list > 0 else ():
            score = float(scores[i])
            if mode == "text" and not score > 0:
                break
            row = kept.rows[i]  # copied with its score only when it passes
            if keep is None or row["kind"] == "fact" or keep(row):
                out.append({**row, "score": score})
                taken += 1
                if taken >= tune.per_list:
                    break
    return sorted(out, key=lambda r: (-float(r["score"]), str(r["uuid"])))


def _per_list(rows: list[Row], mode: str, tune: Tuning) -> list[Row]:
    """The best ``tune.per_list`` rows of each list, in the order given."""
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
        r["episode_uuid"],
        float(r["score"]),
        matched="" if r["kind"] == "turn" else r["text"],
        speaker=str(r.get("speaker") or ""),
        said=r.get("valid_at"),
        about=(start, end) if start and end else None,
    )


def _fact_candidate(r: Row) -> Candidate:
    """A fact found by an index, under the turn that first said it."""
    return Candidate(
        r["episode_uuid"], float(r["score"]), matched=r["text"], fact_uuid=r["uuid"], said=r.get("valid_at")
    )


# --- filters -----------------------------------------------------------------------------------------


def row_filter(
    rng: tuple[datetime | None, datetime | None] | None, speaker: str | None, cutoff: datetime | None,
) -> Filter | None:
    """Whether an index row passes ``time_range``, ``speaker`` and ``as_of`` (None: no filter)."""
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


def turn_passes(row: Row, speaker: str | None, cutoff: datetime | None) -> bool:
    """A turn found only through facts against the speaker and ``as_of`` filters."""
    check = row_filter(None, speaker, cutoff)
    return check is None or check(row)
