"""Full-text (BM25) search over one group's turns, sentences and facts, scored in memory.

The store's full-text index is shared by every group: a question over-fetches past other tenants'
rows and pays a store call of its own, the largest part of a question's search on Kuzu. A group
whose vectors are kept in memory (`procedures.group_vectors`, one read per write stamp) is scored
here from the same rows instead: each row's search text (the speaker's name, then the text, as
ingest indexes it) analysed as Kuzu's index analyses it (`tkg.fts`), and BM25 with the caller's
``k1`` and ``b`` and Kuzu's IDF, ``log10((N - df + 0.5) / (df + 0.5) + 1)`` (``N`` and the mean
length over the rows that keep a term). On a store that holds
one group the scores are Kuzu's; with several, ``N``, ``df`` and the mean length are the group's own,
so another tenant's words no longer move this group's ranking. Every matching row is scored, so
no over-fetch can cut a group's rows off. Larger groups keep the index.

Example::

    >>> gt = GroupText.of([{"uuid": "a", "text": "Moved to Porto", "speaker": "Ana"},
    ...                    {"uuid": "b", "text": "Porto is lovely, Porto!", "speaker": "Ben"},
    ...                    {"uuid": "c", "text": "nice", "speaker": "Ana"}])
    >>> [round(float(s), 3) for s in gt.scores(["porto", "ana"], k1=1.2, b=0.75)]
    [0.408, 0.257, 0.236]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tkg.fts import doc_terms, query_terms
from tkg.stores.base import Row

from .group_vectors import GroupVectors, group_vectors

if TYPE_CHECKING:
    from tkg.context import Context


@dataclass(frozen=True)
class GroupText:
    """A term → rows index (postings sorted by term, then row) over rows in a fixed order."""

    terms: dict[str, tuple[str, ...]]  # uuid → the row's terms (what a rebuild reuses)
    vocab: dict[str, int]
    ptr: np.ndarray  # term id t's postings are [ptr[t], ptr[t + 1])
    rows: np.ndarray  # the row of each posting
    tf: np.ndarray  # the term's count in that row
    lengths: np.ndarray  # each row's number of terms
    source: Sequence[Row] = ()  # the rows it indexes, by position (what a caller's rows are checked against)

    def __len__(self) -> int:  # what the group cache weighs it by
        return len(self.lengths)

    @classmethod
    def of(cls, rows: Sequence[Row], before: Mapping[str, tuple[str, ...]] | None = None) -> GroupText:
        """The index of ``rows`` (each with ``uuid``, ``text``, ``speaker``), in their order; terms of a
        uuid in ``before`` are reused (a row's text never changes under its uuid)."""
        known = before or {}
        terms = {
            str(r["uuid"]): known.get(str(r["uuid"])) or tuple(doc_terms(_search_text(r))) for r in rows
        }
        docs = [terms[str(r["uuid"])] for r in rows]
        vocab: dict[str, int] = {}
        ids = np.fromiter((vocab.setdefault(t, len(vocab)) for d in docs for t in d), dtype=np.int64)
        lengths = np.fromiter((len(d) for d in docs), dtype=np.int64, count=len(docs))
        n = max(len(docs), 1)
        keys, tf = np.unique(ids * n + np.repeat(np.arange(len(docs)), lengths), return_counts=True)
        ptr = np.searchsorted(keys // n, np.arange(len(vocab) + 1))
        return cls(terms, vocab, ptr, keys % n, tf.astype(np.float64), lengths.astype(np.float64), rows)

    def scores(self, query: Sequence[str], *, k1: float, b: float) -> np.ndarray:
        """Each row's BM25 score for the query's distinct terms (already analysed); 0 where none occurs."""
        out = np.zeros(len(self.lengths), dtype=np.float64)
        n = int(np.count_nonzero(self.lengths))  # as Kuzu counts: rows with a term
        if not n:
            return out
        mean = float(self.lengths.sum()) / n
        for term in dict.fromkeys(query):
            tid = self.vocab.get(term)
            if tid is None:
                continue
            start, end = int(self.ptr[tid]), int(self.ptr[tid + 1])
            rows, tf = self.rows[start:end], self.tf[start:end]
            idf = np.log10((n - (end - start) + 0.5) / ((end - start) + 0.5) + 1.0)
            out[rows] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * self.lengths[rows] / mean))
        return out


def _search_text(row: Row) -> str:
    """What ingest indexes of a row (tkg.ingest.prepare.search_text): the speaker's name, then the text."""
    speaker, text = row.get("speaker") or "", row.get("text") or ""
    return f"{speaker}: {text}" if speaker else str(text)


def group_text(ctx: Context, group: str, vectors: GroupVectors | None = None) -> GroupText | None:
    """The group's full-text index over the rows its kept vectors hold (``vectors``, else read),
    kept while its stamp stays; None when the store's index should be used."""
    stamp = ctx.stamp(group)
    kept = vectors if vectors is not None else group_vectors(ctx, group)
    if stamp is None or kept is None:
        return None
    before = ctx.cache.latest(group, "text")
    index = ctx.cache.get(group, "text", stamp, lambda: GroupText.of(kept.rows, before and before.terms))
    if index.source is not kept.rows:  # two questions read the group across a write (the cache builds
        index = GroupText.of(kept.rows, index.terms)  # outside its lock): score the rows this one holds
    return index


def text_scores(index: GroupText, fts: str, *, k1: float, b: float) -> np.ndarray:
    """The scores of the plain-words query ``fts`` (`QueryText.fts`) over the index's rows."""
    return index.scores(query_terms(fts), k1=k1, b=b)
