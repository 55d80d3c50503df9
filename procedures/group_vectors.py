"""Exact vector search over one group's turns, sentences and facts, scored in memory.

The store's vector index is approximate and shared by every group: a question over-fetches past
other tenants' rows, and two stores built from the same turns need not hold the same HNSW graph,
so the nearest rows of a question could differ between two fresh ingests of one conversation
(and a recorded model prompt with them). A group of up to `EXACT_MAX` vectors is instead read
once per write stamp (tkg/group_cache.py) into one matrix and scored exactly by a matrix-vector
product: every row of the group is ranked, the same way in every process. Larger groups, and
groups with no stamp (adopted from an older store), keep the index.

Example::

    >>> gv = GroupVectors([{"uuid": "a"}, {"uuid": "b"}],
    ...                   np.array([[1.0, 0.0], [0.6, 0.8]], dtype=np.float32))
    >>> [(r["uuid"], round(r["score"], 2)) for r in gv.scored([0.0, 1.0])]
    [('b', 0.8), ('a', 0.0)]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tkg.stores.base import Row

if TYPE_CHECKING:
    from tkg.context import Context

EXACT_MAX = 50_000  # vectors of one group scored in memory; beyond, the store's index


@dataclass(frozen=True)
class GroupVectors:
    """A group's vector rows (without their vectors, in uuid order) and the unit vectors as one matrix."""

    rows: list[Row]
    matrix: np.ndarray
    too_big: bool = False  # more than EXACT_MAX vectors: the index serves this group

    def __len__(self) -> int:  # what the group cache weighs it by
        return len(self.rows)

    def scored(self, vector: Sequence[float]) -> Iterator[Row]:
        """The rows with ``score`` = cosine similarity to ``vector``, best first, lazily (a caller
        that needs the top few stops early); ties keep the rows' uuid order."""
        if not self.rows:
            return
        query = np.asarray(vector, dtype=np.float32)
        scores = self.matrix @ (query / (float(np.linalg.norm(query)) or 1.0))
        for i in np.argsort(-scores, kind="stable"):
            yield {**self.rows[i], "score": float(scores[i])}


def group_vectors(ctx: Context, group: str) -> GroupVectors | None:
    """The group's vectors, kept while its stamp stays; None when the index should be used."""
    stamp = ctx.stamp(group)
    if stamp is None:
        return None
    found = ctx.cache.get(group, "vectors", stamp, lambda: _read(ctx, group))
    return None if found.too_big else found


def _read(ctx: Context, group: str) -> GroupVectors:
    size = ctx.store.named("retrieval.group_size", {"group_id": group})
    if size and int(size[0]["n"] or 0) > EXACT_MAX:  # too big: remembered as rows without a matrix
        return GroupVectors([], np.zeros((0, 0), dtype=np.float32), too_big=True)
    rows = ctx.store.named("retrieval.group_vectors", {"group_id": group})
    if not rows:
        return GroupVectors([], np.zeros((0, 0), dtype=np.float32))
    matrix = np.asarray([r.pop("embedding") for r in rows], dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return GroupVectors(rows, matrix / np.clip(norms, 1e-12, None))
