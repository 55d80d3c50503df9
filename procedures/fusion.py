"""Fusing ranked lists from several indexes into one ranking of turns, and the retrieval knobs
(`Tuning`) that the index search (`procedures.search`) and the fusion (`procedures.retrieval`) read.

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
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
    speaker: str = ""  # who said the turn, when the index row told us
    said: datetime | None = None  # when the turn was said, when the index row told us
    about: tuple[datetime, datetime] | None = None  # a time the matched text refers to


@dataclass
class Fused:
    """One turn after fusion."""

    episode_uuid: str
    score: float
    via: list[str] = field(default_factory=list)  # lists that returned the turn, best first
    matched: str = ""
    fact_uuid: str | None = None
    speaker: str = ""
    said: datetime | None = None
    about: list[tuple[datetime, datetime]] = field(default_factory=list)
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
    return sorted(best.values(), key=lambda c: (-c.score, c.episode_uuid))


def calibrate(
    scores: Sequence[float], normaliser: Normaliser = "z", reference: Sequence[float] | None = None
) -> list[float]:
    """Scores re-expressed against a distribution: 0 for its weakest, units of std (or range).

    The distribution is the list's own, or ``reference`` (e.g. every list on the same scale
    pooled, so a short list's best entry is not mistaken for a strong one).

    >>> calibrate([3.0, 2.0, 1.0])
    [2.449..., 1.224..., 0.0]
    >>> calibrate([0.2], reference=[0.2, 0.6, 1.0])
    [0.0]
    """
    if not scores:
        return []
    ref = list(reference) if reference else list(scores)
    lo, hi = min(ref), max(ref)
    if normaliser == "minmax":
        spread = hi - lo
    else:
        mean = sum(ref) / len(ref)
        spread = math.sqrt(sum((s - mean) ** 2 for s in ref) / len(ref))
    if spread <= 1e-12:  # one candidate, or all tied: each is as good as the list's best
        return [1.0 for _ in scores]
    return [max(0.0, s - lo) / spread for s in scores]


def fuse(
    lists: Mapping[str, Sequence[Candidate]],
    weights: Mapping[str, float],
    method: Method,
    *,
    normaliser: Normaliser = "z",
    rrf_k: int = RRF_K,
    pools: Mapping[str, str] | None = None,
) -> list[Fused]:
    """One ranking of distinct turns from several ranked lists, best first (ties by first seen).

    ``pools`` names lists whose scores share a scale (``{"chunk_text": "bm25", "fact_text":
    "bm25", ...}``): score fusion then calibrates each list against the pool's distribution.
    """
    fused: dict[str, Fused] = {}
    ranked_lists = {name: best_per_turn(raw) for name, raw in lists.items()}
    pooled: dict[str, list[float]] = {}
    for name, ranked in ranked_lists.items():
        if pools and name in pools:
            pooled.setdefault(pools[name], []).extend(c.score for c in ranked)
    for name, ranked in ranked_lists.items():
        weight = weights.get(name, 0.0)
        if weight <= 0 or not ranked:
            continue
        if method == "rrf":
            contributions = [weight / (rrf_k + rank) for rank in range(1, len(ranked) + 1)]
        else:
            reference = pooled.get(pools[name]) if pools and name in pools else None
            contributions = [weight * v for v in calibrate([c.score for c in ranked], normaliser, reference)]
        for cand, part in zip(ranked, contributions, strict=True):
            f = fused.get(cand.episode_uuid)
            if f is None:
                f = fused[cand.episode_uuid] = Fused(cand.episode_uuid, 0.0)
            f.score += part
            f.parts[name] = part
            f.speaker = f.speaker or cand.speaker
            f.said = f.said or cand.said
            if cand.about and cand.about not in f.about:
                f.about.append(cand.about)
    matched_part: dict[str, float] = {}
    for name, ranked in ranked_lists.items():  # what matched: the narrow text from the heaviest list
        for cand in ranked:
            hit = fused.get(cand.episode_uuid)
            share = hit.parts.get(name) if hit is not None else None
            if hit is None or share is None or not (cand.matched or cand.fact_uuid):
                continue
            if share > matched_part.get(hit.episode_uuid, -1.0):
                hit.matched, hit.fact_uuid = cand.matched, cand.fact_uuid
                matched_part[hit.episode_uuid] = share
    for f in fused.values():
        f.via = sorted(f.parts, key=lambda n: -f.parts[n])
    return sorted(fused.values(), key=lambda f: (-f.score, f.episode_uuid))


def boost(
    fused: list[Fused],
    *,
    names: Iterable[str] = (),
    speaker_boost: float = 0.0,
    when: tuple[datetime, datetime] | None = None,
    date_boost: float = 0.0,
    slack: timedelta = timedelta(days=1),
) -> dict[str, int]:
    """Raise, in place, turns said by a person the question names and turns said on (or speaking
    of) the calendar time it names; re-sort; return how many each boost raised.

    Scores are >= 0 after either fusion, so a factor ``1 + boost`` is fair to every list.

    >>> fs = [Fused("a", 1.0, speaker="Jon"), Fused("b", 1.2, speaker="Gina")]
    >>> boost(fs, names=["Jon"], speaker_boost=0.5), [f.episode_uuid for f in fs]
    ({'speaker': 1, 'date': 0}, ['a', 'b'])
    """
    wanted = {n.casefold() for n in names}
    raised = {"speaker": 0, "date": 0}
    for f in fused:
        if speaker_boost and f.speaker and _named(f.speaker, wanted):
            f.score *= 1.0 + speaker_boost
            raised["speaker"] += 1
        if date_boost and when and _near(f, when[0] - slack, when[1] + slack):
            f.score *= 1.0 + date_boost
            raised["date"] += 1
    fused.sort(key=lambda f: (-f.score, f.episode_uuid))
    return raised


def _named(speaker: str, wanted: set[str]) -> bool:
    low = speaker.casefold()
    return low in wanted or low.split(" ")[0] in wanted


def _near(f: Fused, start: datetime, end: datetime) -> bool:
    if f.said is not None and start <= f.said < end:
        return True
    return any(a < end and b > start for a, b in f.about)


Place = tuple[object, int]  # (session, position of the turn in the group)


def context_scores(
    place: Mapping[str, Place], scores: Mapping[str, float], *, radius: int, weight: float, decay: float,
) -> dict[str, float]:
    """Each turn's score plus ``weight * decay**(d-1)`` of every scored turn ``d <= radius`` turns
    away in the same session: a run of relevant turns outranks a lone lucky match.

    >>> place = {"a": ("s1", 1), "b": ("s1", 2), "c": ("s2", 3)}
    >>> context_scores(place, {"a": 1.0, "b": 2.0, "c": 4.0}, radius=1, weight=0.5, decay=0.5)
    {'a': 2.0, 'b': 2.5, 'c': 4.0}
    """
    at = {p: uuid for uuid, p in place.items() if uuid in scores}
    out = dict(scores)
    for uuid, (session, seq) in place.items():
        if uuid not in scores:
            continue
        for d in range(1, radius + 1):
            for other in (at.get((session, seq - d)), at.get((session, seq + d))):
                if other is not None:
                    out[uuid] += weight * decay ** (d - 1) * scores[other]
    return out


@dataclass(frozen=True)
class Tuning:
    """Retrieval knobs that are not part of a payload. Defaults: the best measured on LoCoMo dev
    (tools/dev_locomo_eval.py; evidence-turn Hit@10 / MRR, see the report in the docstring there)."""

    per_list: int = 40  # candidates kept per ranked list (after the group filter)
    k_fetch_factor: int = 4  # first over-fetch: per_list * factor rows from the shared index
    k_fetch_max: int = 4096
    max_retries: int = 3
    learn_share: bool = True  # size the first fetch from the share the group kept last time
    exact_vectors: bool = True  # score a small group's vectors in memory (procedures/group_vectors.py)
    exact_text: bool = True  # and its full text, BM25 over the same rows (procedures/group_text.py)
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
