"""Exact vector search over one group's turns, sentences and facts, scored in memory.

The store's vector index is approximate and shared by every group: a question over-fetches past
other tenants' rows, and two stores built from the same turns need not hold the same HNSW graph,
so the nearest rows of a question could differ between two fresh ingests of one conversation
(and a recorded model prompt with them). A group of up to `EXACT_MAX` vectors is instead read
once per write stamp (tkg/group_cache.py) into one matrix and scored exactly by a matrix-vector
product: every row of the group is ranked, the same way in every process. Larger groups, and
groups with no stamp (adopted from an older store), keep the index.

Example::

    >>> rows = [{"uuid": "a", "kind": "turn"}, {"uuid": "b", "kind": "turn"}, {"uuid": "c", "kind": "fact"}]
    >>> gv = GroupVectors(rows, np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]], dtype=np.float32))
    >>> [(r["uuid"], round(r["score"], 2)) for r in gv.ranked(gv.scores([0.0, 1.0]), {"turn"})]
    [('b', 0.8), ('a', 0.0)]
    >>> empty = GroupVectors([], np.zeros((0, 0), dtype=np.float32))
    >>> list(empty.ranked(empty.scores([0.0, 1.0]), {"turn"}))
    []
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache, cached_property
from typing import TYPE_CHECKING

import numpy as np
from threadpoolctl import ThreadpoolController

from tkg.embed_base import normalise_rows
from tkg.group_cache import Written
from tkg.models import as_utc
from tkg.stores.base import Row

if TYPE_CHECKING:
    from tkg.context import Context

EXACT_MAX = 50_000  # vectors of one group scored in memory; beyond, the store's index
_TIMES = ("valid_at", "time_start", "time_end")
# what retrieval.group_vectors returns of each row
_COLUMNS = ("uuid", "episode_uuid", "kind", "text", "speaker", "source_ref", *_TIMES, "embedding")


@dataclass(frozen=True)
class GroupVectors:
    """A group's vector rows (without their vectors, in uuid order) and the unit vectors as one matrix."""

    rows: list[Row]
    matrix: np.ndarray
    too_big: bool = False  # more than EXACT_MAX vectors: the index serves this group

    def __len__(self) -> int:  # what the group cache weighs it by
        return len(self.rows)

    def scores(self, vector: Sequence[float]) -> np.ndarray:
        """The cosine similarity of every row to ``vector``."""
        if not self.rows:
            return np.zeros(0, dtype=np.float32)
        query = np.asarray(vector, dtype=np.float32)
        with _blas().limit(limits=1, user_api="blas"):
            return np.asarray(self.matrix @ (query / (float(np.linalg.norm(query)) or 1.0)))

    def ranked(self, scores: np.ndarray, kinds: Collection[str]) -> Iterator[Row]:
        """The rows of those kinds with their ``score``, best first, lazily (a caller that needs the
        top few stops early); ties keep the rows' uuid order."""
        for i in self.order(scores, kinds):
            yield {**self.rows[i], "score": float(scores[i])}

    def order(self, scores: np.ndarray, kinds: Collection[str]) -> list[int]:
        """The positions of the rows of those kinds, best score first (ties in uuid order)."""
        key = frozenset(kinds)
        rows = self._of_kinds.get(key)
        if rows is None:
            rows = np.flatnonzero(np.isin(self.kinds, list(key))) if self.rows else np.zeros(0, dtype=int)
            self._of_kinds[key] = rows
        return list(rows[np.argsort(-scores[rows], kind="stable")].tolist())

    @cached_property
    def _of_kinds(self) -> dict[frozenset[str], np.ndarray]:
        """The positions of the rows of each set of kinds asked for so far."""
        return {}

    @cached_property
    def turns(self) -> TurnRows:
        """The rows of each turn (its turn and sentence rows), for scoring every turn of a group at once."""
        return TurnRows.of(self.rows)

    @cached_property
    def kinds(self) -> np.ndarray:
        """Each row's kind (turn, sentence, fact), in row order."""
        return np.array([str(r.get("kind")) for r in self.rows], dtype=object)


@dataclass(frozen=True)
class TurnRows:
    """Each turn's turn and sentence rows as positions in a group's rows: ``turns`` in the order their
    first such row comes; ``own`` their positions turn by turn (each turn's from ``starts``, in row
    order); ``sentences`` the sentence rows' positions, ``of_sentence`` the turn (index into ``turns``)
    of each, in row order."""

    turns: list[str]
    own: np.ndarray
    starts: np.ndarray
    sentences: np.ndarray
    of_sentence: np.ndarray

    @classmethod
    def of(cls, rows: list[Row]) -> TurnRows:
        own: dict[str, list[int]] = {}
        sentences: list[tuple[str, int]] = []
        for i, row in enumerate(rows):
            kind = row.get("kind")
            if kind in ("turn", "sentence"):
                turn = str(row.get("episode_uuid") or "")
                own.setdefault(turn, []).append(i)
                if kind == "sentence":
                    sentences.append((turn, i))
        index = {t: k for k, t in enumerate(own)}
        sizes = [len(at) for at in own.values()]
        return cls(list(own), np.array([i for at in own.values() for i in at], dtype=np.intp),
                   np.array(np.cumsum([0, *sizes[:-1]]) if sizes else [], dtype=np.intp),
                   np.array([i for _, i in sentences], dtype=np.intp),
                   np.array([index[t] for t, _ in sentences], dtype=np.intp))

    def best(self, scores: np.ndarray) -> tuple[np.ndarray, dict[int, int]]:
        """Each turn's best score among its rows (in ``turns`` order), and the position of each turn's
        closest sentence (the first of equals) by its index in ``turns``."""
        if not self.turns:
            return np.zeros(0, dtype=scores.dtype), {}
        best = np.maximum.reduceat(scores[self.own], self.starts)
        values = scores[self.sentences]
        order = np.lexsort((self.sentences, -values, self.of_sentence))  # by turn, best first, row order
        first = order[np.r_[True, self.of_sentence[order][1:] != self.of_sentence[order][:-1]]] \
            if len(order) else order
        return best, {int(self.of_sentence[k]): int(self.sentences[k]) for k in first}


@cache
def _blas() -> ThreadpoolController:
    """The process's BLAS libraries. A question's matrix-vector product runs on one thread: it is too
    small to share, and on a busy machine waiting for a second BLAS thread to be scheduled costs far
    more than the product (each row's dot product is the same either way)."""
    return ThreadpoolController()


def time_from_text(value: str | None) -> datetime | None:
    """An aware UTC datetime from a store's ISO text of one (Kuzu's has no zone: it is UTC).

    >>> [time_from_text(t).isoformat() for t in ("1969-07-20T20:17:40.123456Z", "2023-01-01 10:00:07")]
    ['1969-07-20T20:17:40.123456+00:00', '2023-01-01T10:00:07+00:00']
    >>> time_from_text(None) is None
    True
    """
    return None if value is None else as_utc(datetime.fromisoformat(value.split("[", 1)[0]))


def group_vectors(ctx: Context, group: str) -> GroupVectors | None:
    """The group's vectors, kept while its stamp stays; None when the index should be used."""
    stamp = ctx.stamp(group)
    if stamp is None:
        return None
    held = ctx.cache.kept(group, "vectors")
    before = held[1] if held is not None else None
    found = ctx.cache.get(
        group, "vectors", stamp, lambda: _written(ctx, group, stamp, held) or _read(ctx, group, before)
    )
    return None if found.too_big else found


def _written(
    ctx: Context, group: str, stamp: str, held: tuple[str, GroupVectors] | None
) -> GroupVectors | None:
    """The group's vectors under ``stamp`` from what this process wrote (tkg.group_cache.Written:
    the rows an ingest kept when its anchoring made them visible) added to the vectors kept under
    the stamp it wrote after, without a read; None when they do not reach back to what is kept."""
    note = ctx.cache.kept(group, "written")
    if note is None or note[0] != stamp:
        return None
    written: Written = note[1]
    if written.since is None:  # written since the group was empty
        base = GroupVectors([], np.zeros((0, 0), dtype=np.float32))
    elif held is not None and held[0] == written.since:
        base = held[1]
    else:
        return None
    if base.too_big:
        return None
    rows = {r["uuid"]: r for r in base.rows}
    rows.update((str(r["uuid"]), r) for r in written.rows)
    if len(rows) > EXACT_MAX:
        return GroupVectors([], np.zeros((0, 0), dtype=np.float32), too_big=True)
    kept = {str(r["uuid"]): (r, base.matrix[i]) for i, r in enumerate(base.rows)}
    fresh = [{k: _time(r.get(k)) if k in _TIMES else r.get(k) for k in _COLUMNS} for r in written.rows]
    return _matrix(sorted(rows), kept, fresh)


def _read(ctx: Context, group: str, before: GroupVectors | None) -> GroupVectors:
    """The group's vectors now: read whole the first time; after a write, only the rows the last
    read did not have are fetched (a row's vector never changes under its uuid; `tkg reembed` drops
    the cache). The list of ids costs a scan of its own on Kuzu, so a first read goes without it."""
    too_big = GroupVectors([], np.zeros((0, 0), dtype=np.float32), too_big=True)  # remembered: the index
    if before is None:  # nothing kept (a first question): one read of every row, no list of ids first
        if sum(ctx.speakers(group).values()) > EXACT_MAX:  # every turn has a vector
            return too_big
        fetched = ctx.store.named("retrieval.group_vectors", {"group_id": group})
        ids = [str(r["uuid"]) for r in fetched]
        return too_big if len(ids) > EXACT_MAX else _matrix(ids, {}, fetched)
    ids = [str(r["uuid"]) for r in ctx.store.named("retrieval.group_vector_ids", {"group_id": group})]
    if len(ids) > EXACT_MAX:
        return too_big
    kept = {str(r["uuid"]): (r, before.matrix[i]) for i, r in enumerate(before.rows)}  # none when too big
    new = [u for u in ids if u not in kept]
    if new and len(new) == len(ids):
        fetched = ctx.store.named("retrieval.group_vectors", {"group_id": group})
    else:
        fetched = (
            ctx.store.named("retrieval.vectors_by_uuid", {"group_id": group, "uuids": new}) if new else []
        )
    return _matrix(ids, kept, fetched)


def _time(value: str | datetime | None) -> datetime | None:
    """A row's time as an aware UTC datetime: a read sends it as ISO text, a write kept it as one."""
    return as_utc(value) if isinstance(value, datetime) else time_from_text(value)


def _vectors(stored: list[bytes | list[float]]) -> np.ndarray:
    """The fetched vectors as float32 rows: each comes as its compact copy (float32 bytes,
    tkg.models.f32_bytes) or, from a row written without one, as its float list; either gives
    the same float32 values.

    >>> _vectors([b"\\x00\\x00\\x80?\\x00\\x00\\x00\\xbf", [1.0, -0.5]]).tolist()
    [[1.0, -0.5], [1.0, -0.5]]
    """
    blobs = [v for v in stored if isinstance(v, bytes)]
    if blobs and len(blobs) == len(stored):  # one copy of all of them, then one view
        return np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), -1)
    return np.stack([_vector(v) for v in stored])


def _vector(value: bytes | list[float]) -> np.ndarray:
    if isinstance(value, bytes):
        return np.frombuffer(value, dtype="<f4")
    return np.asarray(value, dtype=np.float32)


def _matrix(ids: list[str], kept: dict[str, tuple[Row, np.ndarray]], fetched: list[Row]) -> GroupVectors:
    """The rows of ``ids`` (in that order) from those kept and those just fetched, as one matrix."""
    if fetched:
        unit = normalise_rows(_vectors([r.pop("embedding") for r in fetched]))
        for r in fetched:  # the reads send times as ISO text (see retrieval.group_vectors)
            r.update({k: _time(r.get(k)) for k in _TIMES})
        kept.update((str(r["uuid"]), (r, unit[i])) for i, r in enumerate(fetched))
    rows = [kept[u] for u in ids if u in kept]  # uuid order, as the store listed them
    if not rows:
        return GroupVectors([], np.zeros((0, 0), dtype=np.float32))
    return GroupVectors([r for r, _ in rows], np.stack([v for _, v in rows]))
