"""The temporal benchmark: generated conversations with changing facts, asked through `Memory.ask`.

An answer is correct when every expected value appears in ``answer.answer`` (normalised, as
whole words) and no forbidden one does (a pet that was lost). Accuracy is reported per question
kind; latency, ingest throughput and store size alongside, so one run answers "is it right?" and
"what does it cost?" at a given size. `run_scale` repeats that over sizes on fresh stores.

Example::

    >>> with bench_memory(None) as bm:  # doctest: +SKIP
    ...     report = run_temporal(bm, size=200, seed=0)
    >>> report["accuracy"]["current"]["accuracy"]  # doctest: +SKIP
    0.96
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ..models import Progress, Tick
from .fresh import BenchMemory, finished, machine
from .locomo import ingest_turns
from .metrics import answer_correct, first_hit_rank, flat_timings, latency_summary, mean_timings
from .temporal_gen import generate
from .temporal_questions import KINDS, Question, build_questions

TARGETS = {"current": 0.95, "as_of": 0.95, "chain2": 0.90}


def ask_questions(
    bm: BenchMemory, questions: Sequence[Question], tick: Tick | None = None
) -> list[dict[str, Any]]:
    """One record per question: correct?, evidence rank, routed mode, latency (one untimed warm-up first)."""
    if questions:
        bm.mem.ask(questions[0].text, group=questions[0].group)
    bm.embedder.lap()
    out = []
    for q in questions:
        started = time.perf_counter()
        ans = bm.mem.ask(q.text, group=q.group)
        ms = (time.perf_counter() - started) * 1000
        refs = [e.source_ref for e in ans.evidence]
        out.append(
            {
                "qid": q.qid,
                "kind": q.kind,
                "question": q.text,
                "expected": [list(e) for e in q.expected],
                "forbidden": list(q.forbidden),
                "answer": ans.answer,
                "abstained": ans.abstained,
                "mode": ans.mode,
                "label": q.mode,
                "procedure": ans.procedure,
                "correct": answer_correct(ans.answer, q.expected, q.forbidden),
                "has_evidence": bool(q.evidence),
                "evidence_rank": first_hit_rank(refs, set(q.evidence)) if q.evidence else None,
                "ms": round(ms, 2),
                "stages": flat_timings(ans.trace),
            }
        )
        if tick:
            tick(1)
    return out


def score(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy per kind and overall, evidence Hit@10 where the key names the turns, router agreement."""
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_kind[r["kind"]].append(r)
    acc: dict[str, Any] = {}
    for kind in [k for k in KINDS if k in by_kind]:
        rs = by_kind[kind]
        with_ev = [r for r in rs if r["has_evidence"]]
        acc[kind] = {
            "accuracy": round(sum(r["correct"] for r in rs) / len(rs), 3),
            "n": len(rs),
            "abstained": round(sum(r["abstained"] for r in rs) / len(rs), 3),
            "evidence_hit@10": round(
                sum(1 for r in with_ev if r["evidence_rank"] and r["evidence_rank"] <= 10) / len(with_ev), 3
            )
            if with_ev
            else None,
            "latency_ms": latency_summary([r["ms"] for r in rs]),
        }
    labelled = [r for r in records if r["label"]]
    by_proc: dict[str, list[float]] = defaultdict(list)
    for r in records:
        by_proc[r["procedure"]].append(r["ms"])
    return {
        "accuracy": acc,
        "overall_accuracy": round(sum(r["correct"] for r in records) / len(records), 3) if records else None,
        "targets": {
            k: {
                "target": t,
                "accuracy": acc[k]["accuracy"] if k in acc else None,
                "met": bool(k in acc and acc[k]["accuracy"] >= t),
            }
            for k, t in TARGETS.items()
        },
        "router_agreement": {
            "agree": round(sum(r["mode"] == r["label"] for r in labelled) / len(labelled), 3),
            "n": len(labelled),
        }
        if labelled
        else None,
        "latency_ms": latency_summary([r["ms"] for r in records]),
        "latency_by_procedure_ms": {p: latency_summary(v) for p, v in sorted(by_proc.items())},
        "stage_mean_ms": mean_timings(r["stages"] for r in records),
    }


def run_temporal(bm: BenchMemory, size: int, seed: int = 0, *, questions: int = 300,
                 progress: Progress | None = None, failures: int = 3) -> dict[str, Any]:
    """Generate ``size`` turns, ingest them into ``bm``, ask ``questions`` questions, score them."""
    bar = progress or (lambda label, total: None)
    host = machine()
    data = generate(size, seed)
    qs = build_questions(data, limit=questions)
    episodes = data.episodes()
    ingest = ingest_turns(bm, episodes, bar(f"ingest {size}", len(episodes)))
    ingest.pop("refs")
    ingest.pop("groups")
    records = ask_questions(bm, qs, bar(f"questions {size}", len(qs)))
    query_embed = bm.embedder.lap()
    wrong: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if not r["correct"] and len(wrong[r["kind"]]) < failures:
            wrong[r["kind"]].append(
                {k: r[k] for k in ("question", "expected", "answer", "mode", "procedure")}
            )
    return {
        "benchmark": "temporal",
        "size": size,
        "seed": seed,
        "groups": len(data.groups),
        "store": bm.url,
        "backend": bm.backend,
        "machine": host,
        **finished(),
        "model_load_s": bm.model_load_s,
        **score(records),
        "ingest": ingest,
        "store_size": bm.size(),
        "query_embed_ms_mean": round(1000 * query_embed["embed_s"] / len(records), 1) if records else None,
        "examples_wrong": dict(wrong),
        "notes": list(bm.notes),
        "records": records,
    }


def cleanup(bm: BenchMemory, size: int, seed: int) -> None:
    """Delete a run's groups (on a shared Neo4j, so the next size starts from an empty store)."""
    bm.forget_groups(generate(size, seed).groups)


def growth(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How each measure grows from the smallest to the largest size, next to log and linear growth.

    Latency "grows no faster than logarithmically" when its ratio is at most log(N_max)/log(N_min):
    ``p50_within_log`` and ``p95_within_log`` say so without any slack, and ``*_vs_log`` give the
    ratio's multiple of the log one (above 1: faster than log).
    """
    if len(rows) < 2:
        return {}
    a, b = rows[0], rows[-1]
    out: dict[str, Any] = {
        "from": a["size"],
        "to": b["size"],
        "linear": round(b["size"] / a["size"], 2),
        "log": round(math.log(b["size"]) / math.log(a["size"]), 2) if a["size"] > 1 else None,
    }
    for key in ("ingest_s", "bytes", "p50_ms", "p95_ms"):
        if a.get(key) and b.get(key):
            out[key] = round(b[key] / a[key], 2)
    for key in ("p50_ms", "p95_ms") if out.get("log") else ():
        if out.get(key) is not None:
            out[f"{key[:3]}_vs_log"] = round(out[key] / out["log"], 2)
            out[f"{key[:3]}_within_log"] = out[key] <= out["log"]
    return out


def scale_row(report: dict[str, Any]) -> dict[str, Any]:
    return {
        "size": report["size"],
        "ingest_s": report["ingest"]["seconds"],
        "turns_per_s": report["ingest"]["turns_per_s"],
        "bytes": report["store_size"]["bytes"],
        "nodes": report["store_size"]["nodes"],
        "edges": report["store_size"]["edges"],
        "p50_ms": report["latency_ms"]["p50"],
        "p95_ms": report["latency_ms"]["p95"],
        "accuracy": report["overall_accuracy"],
    }


def plot(rows: list[dict[str, Any]], path: str, title: str) -> str | None:
    """A PNG of ingest time, store size and query latency against N; returns why not when it cannot."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install 'tkg[plot]'); no plot written"
    sizes = [r["size"] for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    axes[0].plot(sizes, [r["ingest_s"] for r in rows], "o-")
    axes[0].set(title="ingest time (s)", xscale="log", yscale="log", xlabel="episodes")
    sized = [(r["size"], r["bytes"] / 1e6 if r["bytes"] else r["nodes"] + r["edges"]) for r in rows]
    axes[1].plot([s for s, _ in sized], [v for _, v in sized], "o-")
    axes[1].set(title="store size (MB)" if rows[0]["bytes"] else "nodes + edges", xscale="log", yscale="log",
                xlabel="episodes")
    axes[2].plot(sizes, [r["p50_ms"] for r in rows], "o-", label="p50")
    axes[2].plot(sizes, [r["p95_ms"] for r in rows], "s-", label="p95")
    axes[2].set(title="query latency (ms)", xscale="log", xlabel="episodes")
    axes[2].legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None
