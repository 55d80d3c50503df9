"""Fusing ranked lists from several indexes into one ranking of turns.

Every index answers in its own currency: BM25 scores grow with query length and term rarity,
cosine similarities of MiniLM crowd into [0.2, 0.7]. Two ways to combine them are offered:

* ``rrf`` — reciprocal-rank fusion, ``Σ w / (k + rank)``: ignores scores, so it never trusts a
  scale, but it also throws away how *much* better the first hit was than the tenth;
* ``score`` — calibrated score fusion: each list's scores are re-expressed against that list's
  own distribution (``(s - min) / std``, so the list's weakest candidate, and any turn the list
  did not return, is 0 and one unit is one standard deviation of that list) and the weighted
  calibrated scores are summed. ``normaliser="minmax"`` divides by the range instead.

Lists hold candidates that may repeat a turn (several sentences of one turn, several facts
from one turn); a turn's entry in a list is its best one, and its rank is among distinct turns.

Example::

    >>> a = [Candidate("t1", 9.0), Candidate("t2", 5.0), Candidate("t3", 1.0)]
    >>> b = [Candidate("t2", 0.61), Candidate("t3", 0.60)]
    >>> [f.episode_uuid for f in fuse({"text": a, "vector": b}, {"text": 1.0, "vector": 1.0}, "rrf")]
    ['t2', 't3', 't1']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

RRF_K = 60  # the constant of Cormack et al. (2009); flattens the head so one list cannot dominate

Method = Literal["rrf", "score"]
Normaliser = Literal["z", "minmax"]


@dataclass
class Candidate:
    """One entry of one index's ranked list, already mapped to the turn it came from."""

    episode_uuid: str
    score: float
    matched: str = ""  # the sentence or fact that matched, when narrower than the turn
    fact_uuid: str | None = None


@dataclass
class Fused:
    """One turn after fusion."""

    episode_uuid: str
    score: float
    via: list[str] = field(default_factory=list)  # lists that returned the turn, best first
    matched: str = ""
    fact_uuid: str | None = None
    parts: dict[str, float] = field(default_factory=dict)  # each list's contribution


def best_per_turn(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The list with each turn kept once, at its best entry, best first.

    >>> [c.episode_uuid for c in best_per_turn([Candidate("a", 1), Candidate("b", 3), Candidate("a", 2)])]
    ['b', 'a']
    """
    best: dict[str, Candidate] = {}
    for c in candidates:
        seen = best.get(c.episode_uuid)
        if seen is None or c.score > seen.score:
            best[c.episode_uuid] = c
    return sorted(best.values(), key=lambda c: -c.score)


def calibrate(scores: Sequence[float], normaliser: Normaliser = "z") -> list[float]:
    """Scores re-expressed against their own list: 0 for the weakest, units of std (or range).

    >>> calibrate([3.0, 2.0, 1.0])
    [2.449..., 1.224..., 0.0]
    """
    if not scores:
        return []
    lo, hi = min(scores), max(scores)
    if normaliser == "minmax":
        spread = hi - lo
    else:
        mean = sum(scores) / len(scores)
        spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / len(scores))
    if spread <= 1e-12:  # one candidate, or all tied: each is as good as the list's best
        return [1.0 for _ in scores]
    return [(s - lo) / spread for s in scores]


def fuse(
    lists: Mapping[str, Sequence[Candidate]],
    weights: Mapping[str, float],
    method: Method,
    *,
    normaliser: Normaliser = "z",
    rrf_k: int = RRF_K,
) -> list[Fused]:
    """One ranking of distinct turns from several ranked lists, best first (ties by first seen)."""
    fused: dict[str, Fused] = {}
    for name, raw in lists.items():
        weight = weights.get(name, 0.0)
        ranked = best_per_turn(raw)
        if weight <= 0 or not ranked:
            continue
        if method == "rrf":
            contributions = [weight / (rrf_k + rank) for rank in range(1, len(ranked) + 1)]
        else:
            contributions = [weight * v for v in calibrate([c.score for c in ranked], normaliser)]
        for cand, part in zip(ranked, contributions, strict=True):
            f = fused.get(cand.episode_uuid)
            if f is None:
                f = fused[cand.episode_uuid] = Fused(cand.episode_uuid, 0.0)
            f.score += part
            f.parts[name] = part
    matched_part: dict[str, float] = {}
    for name, raw in lists.items():  # what matched: the narrow text from the list that weighed most
        for cand in best_per_turn(raw):
            f = fused.get(cand.episode_uuid)
            part = f.parts.get(name) if f is not None else None
            if f is None or part is None or not (cand.matched or cand.fact_uuid):
                continue
            if part > matched_part.get(f.episode_uuid, -1.0):
                f.matched, f.fact_uuid = cand.matched, cand.fact_uuid
                matched_part[f.episode_uuid] = part
    for f in fused.values():
        f.via = sorted(f.parts, key=lambda n: -f.parts[n])
    return sorted(fused.values(), key=lambda f: -f.score)
