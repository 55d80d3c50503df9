"""Scoring shared by every benchmark: evidence ids, Hit@k / MRR, answer matching, percentiles.

Kept free of stores and models so the numbers in BENCHMARKS.md can be checked by hand on toy
data (tests/test_bench.py does exactly that).

Example::

    >>> normalise_evidence(["D1:3", " D2:4; D3:1", "D:11:26", "D"])
    ['D1:3', 'D2:4', 'D3:1', 'D11:26']
    >>> first_hit_rank(["D1:1", "D1:1", "D2:7"], {"D2:7"})
    2
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

KS: tuple[int, ...] = (1, 3, 5, 10)
_DIA = re.compile(r"^D:?(\d+):(\d+)$", re.I)


def normalise_evidence(ids: Iterable[str]) -> list[str]:
    """LoCoMo evidence ids as ``D<session>:<turn>``, split on ``;`` or ``,``; junk ids dropped.

    LoCoMo mixes ``"D1:3"``, ``" D1:3 "``, ``"D8:6; D9:17"`` and ``"D:11:26"``; a bare ``"D"``
    names no turn and is dropped.

    >>> normalise_evidence(["d4:2,D4:3"])
    ['D4:2', 'D4:3']
    """
    out: list[str] = []
    for raw in ids:
        for part in re.split(r"[;,]", str(raw)):
            m = _DIA.match(re.sub(r"\s+", "", part))
            if m:
                ref = f"D{int(m.group(1))}:{int(m.group(2))}"
                if ref not in out:
                    out.append(ref)
    return out


def normalise_ref(ref: str | None) -> str | None:
    """One stored source_ref in the same spelling as :func:`normalise_evidence` (else as given)."""
    if ref is None:
        return None
    found = normalise_evidence([ref])
    return found[0] if found else ref.strip()


def distinct_refs(refs: Iterable[str | None]) -> list[str]:
    """The distinct turns in order of first appearance (``None`` refs skipped)."""
    return list(dict.fromkeys(r for r in (normalise_ref(x) for x in refs) if r))


def first_hit_rank(refs: Sequence[str | None], gold: set[str]) -> int | None:
    """1-based rank of the first gold turn among the distinct turns of ``refs``; None when absent."""
    for rank, ref in enumerate(distinct_refs(refs), 1):
        if ref in gold:
            return rank
    return None


@dataclass
class RankScore:
    """Hit@k and MRR over questions, from each question's first-hit rank (None = missed).

    >>> s = RankScore(); s.add(1); s.add(4); s.add(None)
    >>> s.summary()["hit@3"], s.summary()["mrr"]
    (0.333, 0.417)
    """

    ranks: list[int | None] = field(default_factory=list)

    def add(self, rank: int | None) -> None:
        self.ranks.append(rank)

    def hit_at(self, k: int) -> float:
        return sum(1 for r in self.ranks if r is not None and r <= k) / len(self.ranks) if self.ranks else 0.0

    def mrr(self) -> float:
        return sum(1.0 / r for r in self.ranks if r is not None) / len(self.ranks) if self.ranks else 0.0

    def summary(self, ks: Sequence[int] = KS) -> dict[str, Any]:
        out: dict[str, Any] = {f"hit@{k}": round(self.hit_at(k), 3) for k in ks}
        out["mrr"] = round(self.mrr(), 3)
        out["n"] = len(self.ranks)
        return out


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100) with linear interpolation; 0.0 for no values.

    >>> percentile([10, 20, 30, 40], 50), percentile([10, 20, 30, 40], 95)
    (25.0, 38.5)
    """
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return float(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo))


def latency_summary(ms: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean/max in milliseconds, rounded for tables."""
    if not ms:
        return {"p50": 0.0, "p95": 0.0, "mean": 0.0, "max": 0.0, "n": 0}
    return {"p50": round(percentile(ms, 50), 1), "p95": round(percentile(ms, 95), 1),
            "mean": round(sum(ms) / len(ms), 1), "max": round(max(ms), 1), "n": len(ms)}


def flat_timings(trace: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Every number under a ``timings_ms`` key anywhere in an answer trace, by dotted path.

    Tells which component a slow answer spent its time in (the embedder, a search, a walk).

    >>> flat_timings({"timings_ms": {"total": 9.0}, "steps": {"timings_ms": {"embed": 4.0}}})
    {'total': 9.0, 'steps.embed': 4.0}
    """
    out: dict[str, float] = {}
    for key, value in trace.items():
        if key == "timings_ms" and isinstance(value, Mapping):
            out.update({f"{prefix}{k}": float(v) for k, v in value.items() if isinstance(v, int | float)})
        elif isinstance(value, Mapping):
            out.update(flat_timings(value, f"{prefix}{key}."))
    return out


def mean_timings(rows: Iterable[Mapping[str, float]]) -> dict[str, dict[str, float]]:
    """Per stage: mean ms over the answers that went through it, and how many did."""
    acc: dict[str, list[float]] = {}
    for row in rows:
        for k, v in row.items():
            acc.setdefault(k, []).append(v)
    return {k: {"mean": round(sum(v) / len(v), 1), "n": len(v)} for k, v in sorted(acc.items())}


def ratio(value: float, base: float) -> float | None:
    """value / base rounded to 3 places; None when the base is zero."""
    return round(value / base, 3) if base else None


# --- answers -------------------------------------------------------------------------------------

_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                 "fifteen sixteen seventeen eighteen nineteen twenty").split()


def normalise_text(text: str) -> str:
    """Casefolded, accents stripped, punctuation to spaces, whitespace collapsed.

    >>> normalise_text("  Kraków, (São) Paulo! ")
    'krakow sao paulo'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", plain).split())


def number_forms(n: int) -> tuple[str, ...]:
    """How a count may be written in an answer: ``3`` or ``three``."""
    return (str(n), _NUMBER_WORDS[n]) if 0 <= n < len(_NUMBER_WORDS) else (str(n),)


def contains(answer: str, value: str) -> bool:
    """Whether the normalised ``value`` appears in the normalised ``answer`` as whole words."""
    a, v = normalise_text(answer), normalise_text(value)
    return bool(v) and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", a) is not None


def answer_correct(answer: str, expected: Sequence[Sequence[str]], forbidden: Sequence[str] = ()) -> bool:
    """Correct when every expected item (any of its spellings) appears and no forbidden value does.

    >>> answer_correct("Mochi and Pixel", [["Mochi"], ["Pixel"]], forbidden=["Biscuit"])
    True
    >>> answer_correct("3 cities", [["3", "three"]]), answer_correct("Leeds", [["York"]])
    (True, False)
    """
    if not expected:
        return False
    return all(any(contains(answer, alt) for alt in alts) for alts in expected) and not any(
        contains(answer, f) for f in forbidden
    )
