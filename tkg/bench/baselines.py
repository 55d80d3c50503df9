"""Baselines on the same store and questions as tkg: BM25 only, dense only, brute-force numpy.

* **bm25** — the store's full-text index alone, through the retrieval layer with a payload that
  searches turns and sentences by full text only (no facts, no graph, no neighbours);
* **dense** — the same with the vector index alone;
* **numpy** — every turn and sentence embedding of the group in one in-memory matrix, exact
  cosine top-k: no database in the loop, so its latency is the floor for dense retrieval.

Each is scored like tkg (first gold turn among the first k distinct turns) and reported as a
ratio to tkg's own number, so "0.8" means "80 % of tkg".

Example::

    >>> payload = baseline_payload("bm25")
    >>> payload.fusion, payload.indexes, payload.graph
    ('bm25', ('chunk', 'sentence'), False)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from planners.payloads import default_payloads
from procedures.retrieval import retrieve

from ..models import Tick
from .metrics import RankScore, distinct_refs, first_hit_rank, latency_summary, ratio
from .questions import ANSWERABLE, LocomoQuestion

if TYPE_CHECKING:
    from planners.payloads import Payload

    from .fresh import BenchMemory

DEPTH = 10


def baseline_payload(fusion: str, depth: int = DEPTH) -> Payload:
    """The lookup payload narrowed to one modality over turns and sentences."""
    base = default_payloads().for_mode("single_fact")
    return replace(base, name=f"baseline_{fusion}", depth=depth, indexes=("chunk", "sentence"), fusion=fusion,  # type: ignore[arg-type]
                   weights=(("chunk", 1.0), ("sentence", 1.0)), graph=False, hop_limit=0, neighbours=0)


@dataclass
class MatrixIndex:
    """One group's chunk vectors as a matrix; exact cosine search (rows are unit length)."""

    refs: list[str | None]
    matrix: np.ndarray

    @classmethod
    def load(cls, bm: BenchMemory, group: str) -> MatrixIndex:
        rows = bm.mem.ctx.store.named("chunk.vectors", {"group_id": group})
        rows = [r for r in rows if r.get("embedding") is not None]
        matrix = np.asarray([r["embedding"] for r in rows], dtype=np.float32).reshape(len(rows), -1)
        return cls([r.get("source_ref") for r in rows], matrix)

    def search(self, vector: Sequence[float], k: int = DEPTH) -> list[str]:
        """The first ``k`` distinct turns by cosine."""
        if not self.refs:
            return []
        scores = self.matrix @ np.asarray(vector, dtype=np.float32)
        top = min(len(scores), k * 8)
        best = np.argpartition(-scores, top - 1)[:top]
        order = best[np.argsort(-scores[best])]
        return distinct_refs(self.refs[i] for i in order)[:k]


def run_baselines(
    bm: BenchMemory, questions: list[LocomoQuestion], known: dict[str, set[str]], tkg: dict[str, Any],
    tick: Tick | None = None,
) -> dict[str, Any]:
    """Score the three baselines on ``questions``; ratios are to ``tkg``'s report."""
    ctx = bm.mem.ctx
    payloads = {"bm25": baseline_payload("bm25"), "dense": baseline_payload("dense")}
    indexes = {g: MatrixIndex.load(bm, g) for g in dict.fromkeys(q.group for q in questions)}
    scores = {name: RankScore() for name in ("bm25", "dense", "numpy")}
    ms: dict[str, list[float]] = {name: [] for name in scores}
    score_only: list[float] = []
    for q in questions:
        gold = {e for e in q.evidence if e in known.get(q.group, set())}
        for name, payload in payloads.items():
            started = time.perf_counter()
            refs = [h.source_ref for h in retrieve(ctx, q.question, q.group, payload).hits]
            ms[name].append((time.perf_counter() - started) * 1000)
            if q.category in ANSWERABLE and gold:
                scores[name].add(first_hit_rank(refs, gold))
        started = time.perf_counter()
        vector = ctx.embedder.embed_one(q.question)
        t0 = time.perf_counter()
        found = indexes[q.group].search(vector)
        done = time.perf_counter()
        ms["numpy"].append((done - started) * 1000)
        score_only.append((done - t0) * 1000)
        if q.category in ANSWERABLE and gold:
            scores["numpy"].add(first_hit_rank(list(found), gold))
        if tick:
            tick(1)
    base_r, base_l = tkg["retrieval"], tkg["latency_ms"]
    out: dict[str, Any] = {}
    for name, s in scores.items():
        summary, lat = s.summary(), latency_summary(ms[name])
        out[name] = {
            "retrieval": summary, "latency_ms": lat,
            "ratio_to_tkg": {k: ratio(summary[k], base_r[k]) for k in ("hit@1", "hit@5", "hit@10", "mrr")}
            | {"p50": ratio(lat["p50"], base_l["p50"]), "p95": ratio(lat["p95"], base_l["p95"])},
        }
    out["numpy"]["score_only_ms"] = latency_summary(score_only)
    out["numpy"]["chunks"] = {g: len(ix.refs) for g, ix in indexes.items()}
    return out
