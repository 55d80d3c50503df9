"""Development evaluator for direct retrieval on LoCoMo: evidence-turn Hit@k, MRR and latency.

For tuning `procedures/retrieval.py` on aggregate numbers only (never on single questions).
The real benchmark is ``tkg bench locomo``; this is the quick loop behind its retrieval stage.

It ingests a LoCoMo-shaped file into an embedded Kuzu store once (reused on later runs), asks
every question of categories 1-4 through `retrieve()` with the ``single_fact`` payload (plus any
variants asked for), and reports, overall and per category, the share of questions with a gold
``evidence`` turn among the first k distinct turns (Hit@1/3/5/10), the MRR over those turns, and
the p50/p95 latency of `retrieve()` (query embedding included, model load excluded, embedding
cache off unless ``--cache``).

Usage (``PYTHONPATH=.`` from the repo root)::

    python3 tools/dev_locomo_eval.py --list                     # the variants it knows
    python3 tools/dev_locomo_eval.py --cache --variant default --variant rrf --variant bm25_turns
    python3 tools/dev_locomo_eval.py --no-memo --variant default  # honest latency
    python3 tools/dev_locomo_eval.py --set tune.context_weight=0.5 --set neighbours=2

Without ``--no-memo`` every named query's rows are remembered, so variants that differ only in
fusion re-run in seconds (their latency columns are then meaningless). ``TKG_EMBED_THREADS``
defaults to 1 here: one question is too small for a thread pool, which on a busy CPU turned a
~10 ms embedding into hundreds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (1, 3, 5, 10)

# name -> (payload changes, Tuning changes), applied to the payload of --mode and to `Tuning()`.
# "default" is what the code and planners/payloads.toml ship; "no_x" variants take one thing away.
OFF: dict[str, Any] = {"speaker_boost": 0.0, "date_boost": 0.0, "context_weight": 0.0}
PLAIN: dict[str, Any] = {"neighbours": 0}
VARIANTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # baselines: one modality, no boosts, no context
    "bm25_turns_naive": ({**PLAIN, "fusion": "bm25", "indexes": ("chunk",)}, {**OFF, "bm25_b": 0.75}),
    "bm25_turns": ({**PLAIN, "fusion": "bm25", "indexes": ("chunk",)}, OFF),
    "bm25": ({**PLAIN, "fusion": "bm25"}, OFF),
    "dense_turns": ({**PLAIN, "fusion": "dense", "indexes": ("chunk",)}, OFF),
    "dense": ({**PLAIN, "fusion": "dense"}, OFF),
    # fusion alone (all six lists, no boosts, no context)
    "rrf_plain": ({**PLAIN, "fusion": "rrf"}, OFF),
    "rrf_plain_turns": ({**PLAIN, "fusion": "rrf", "indexes": ("chunk",)}, OFF),
    "score_plain": ({**PLAIN, "fusion": "score"}, OFF),
    "score_plain_turns": ({**PLAIN, "fusion": "score", "indexes": ("chunk",)}, OFF),
    "score_plain_minmax": ({**PLAIN, "fusion": "score"}, {**OFF, "normaliser": "minmax"}),
    "score_plain_pool": ({**PLAIN, "fusion": "score"}, {**OFF, "pool": True}),
    # the shipped configuration and ablations of it
    "default": ({}, {}),
    "rrf": ({"fusion": "rrf"}, {}),
    "minmax": ({}, {"normaliser": "minmax"}),
    "no_facts": ({"indexes": ("chunk", "sentence")}, {}),
    "no_sentences": ({"indexes": ("chunk", "fact")}, {}),
    "facts1.5": ({"weights": "fact=1.5"}, {}),
    "no_date": ({}, {"date_boost": 0.0}),
    "no_speaker": ({}, {"speaker_boost": 0.0}),
    "no_context": ({}, {"context_weight": 0.0}),
    "no_neighbours": ({"neighbours": 0}, {}),
    "neighbours2": ({"neighbours": 2}, {}),
    "b0.75": ({}, {"bm25_b": 0.75}),
    "declarative": ({}, {"dense_text": "declarative"}),
    "per_list60": ({}, {"per_list": 60}),
}


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default="/work/shared/data/locomo/locomo_dev5.json")
    p.add_argument("--db", default="/tmp/tkg-dev-locomo.kuzu")
    p.add_argument("--variant", action="append", help="a name from --list (repeatable); default: default")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="ad-hoc change for one extra variant 'custom', e.g. --set tune.speaker_boost=0.3")
    p.add_argument("--categories", default="1,2,3,4")
    p.add_argument("--mode", default="single_fact", help="whose payload the variants start from")
    p.add_argument("--limit", type=int, default=0, help="first N questions only (smoke runs)")
    p.add_argument("--cache", action="store_true", help="keep the embedding cache on (faster, lower latency)")
    p.add_argument("--no-memo", action="store_true", help="query the store every time (for latency numbers)")
    p.add_argument("--json", help="write the results here as JSON")
    p.add_argument("--list", action="store_true")
    return p.parse_args(argv)


def _custom(sets: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    pay: dict[str, Any] = {}
    tune: dict[str, Any] = {}
    for item in sets:
        key, _, raw = item.partition("=")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        if isinstance(value, list):
            value = tuple(value)
        where, _, name = key.partition(".")
        (tune if where == "tune" else pay)[name] = value
    return pay, tune


def _open(args: argparse.Namespace) -> Any:
    from tkg.memory import Memory

    mem = Memory.open(f"kuzu://{args.db}")
    samples = json.loads(Path(args.data).read_text("utf-8"))
    groups = {g["group_id"] for g in mem.groups()}
    if not {s["sample_id"] for s in samples} <= groups:
        started = time.perf_counter()
        report = mem.ingest(args.data)
        print(f"ingested {report.episodes} turns in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return mem, samples


class MemoStore:
    """The dev store with every named query's rows remembered by (name, params).

    Fusion variants then re-run `retrieve()` in milliseconds: only what changes the index
    queries (per_list, bm25_b, dense_text, ...) reaches the database again. Latency numbers
    are meaningless with it; measure them with ``--no-memo``.
    """

    def __init__(self, store: Any) -> None:
        self._store = store
        self.url = store.url
        self.dialect = store.dialect
        self._rows: dict[str, list[dict[str, Any]]] = {}

    def named(self, name: str, params: Any = None) -> list[dict[str, Any]]:
        key = name + json.dumps(params or {}, sort_keys=True, default=str)
        if key not in self._rows:
            self._rows[key] = self._store.named(name, params)
        return self._rows[key]


def _questions(samples: list[dict[str, Any]], cats: set[int], limit: int) -> list[dict[str, Any]]:
    out = []
    for s in samples:
        for qa in s["qa"]:
            if qa.get("category") in cats and qa.get("evidence"):
                out.append({"group": s["sample_id"], "question": qa["question"], "category": qa["category"],
                            "evidence": set(qa["evidence"])})
    return out[:limit] if limit else out


def _evaluate(ctx: Any, questions: list[dict[str, Any]], payload: Any, tuning: Any) -> dict[str, Any]:
    from procedures.retrieval import retrieve

    for q in questions[:10]:  # warm the indexes and the model; not measured
        retrieve(ctx, q["question"], q["group"], payload, tuning=tuning)
    rows = []
    for q in questions:
        cpu = time.process_time()
        r = retrieve(ctx, q["question"], q["group"], payload, tuning=tuning)
        r.timings_ms["cpu"] = (time.process_time() - cpu) * 1000
        refs = [h.source_ref for h in r.hits]
        rank = next((i + 1 for i, ref in enumerate(refs) if ref in q["evidence"]), None)
        rows.append({"category": q["category"], "rank": rank, "ms": r.timings_ms["total"],
                     "retries": bool(r.trace.get("retries")), "stages": r.timings_ms})
    return _summarise(rows)


def _pcts(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": ordered[len(ordered) // 2], "p95": ordered[int(0.95 * (len(ordered) - 1))]}


def _summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def block(sub: list[dict[str, Any]]) -> dict[str, float]:
        n = len(sub) or 1
        out = {f"hit@{k}": sum(1 for r in sub if r["rank"] and r["rank"] <= k) / n for k in KS}
        out["mrr"] = sum(1 / r["rank"] for r in sub if r["rank"]) / n
        out["n"] = len(sub)
        return out

    ms = sorted(r["ms"] for r in rows)
    summary: dict[str, Any] = {"overall": block(rows)}
    for cat, name in CATEGORIES.items():
        sub = [r for r in rows if r["category"] == cat]
        if sub:
            summary[f"{cat}:{name}"] = block(sub)
    summary["latency_ms"] = {
        "p50": statistics.median(ms),
        "p95": ms[int(0.95 * (len(ms) - 1))],
        "max": ms[-1],
    }
    summary["retried"] = sum(r["retries"] for r in rows)
    stages = sorted({k for r in rows for k in r["stages"]} - {"total"})
    summary["stages_ms"] = {k: _pcts([r["stages"].get(k, 0.0) for r in rows]) for k in stages}
    return summary


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if args.list:
        for name, (pay, tune) in VARIANTS.items():
            print(f"{name:20} payload={pay} tuning={tune}")
        return 0
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    # One torch thread: a single question is too small to split, and on a busy CPU the default
    # thread pool turns a ~10 ms embedding into hundreds of ms.
    os.environ.setdefault("TKG_EMBED_THREADS", "1")
    if not args.cache:
        os.environ["TKG_EMBED_CACHE"] = "0"
    from planners.payloads import default_payloads
    from procedures.retrieval import Tuning

    variants = dict(VARIANTS)
    if args.set:
        variants["custom"] = _custom(args.set)
    names = args.variant or (["custom"] if args.set else ["default"])
    mem, samples = _open(args)
    ctx = mem.ctx if args.no_memo else replace(mem.ctx, store=MemoStore(mem.ctx.store))
    base = default_payloads().for_mode(args.mode)
    questions = _questions(samples, {int(c) for c in args.categories.split(",")}, args.limit)
    results = {}
    try:
        for name in names:
            pay, tune = variants[name]
            if isinstance(pay.get("weights"), str):  # "fact=0.25": change one weight of the base
                index, _, value = pay["weights"].partition("=")
                pay = {**pay, "weights": tuple({**dict(base.weights), index: float(value)}.items())}
            payload = replace(base, **pay)
            weights = dict(payload.weights)
            payload = replace(payload, weights=tuple((i, weights.get(i, 1.0)) for i in payload.indexes))
            results[name] = _evaluate(ctx, questions, payload, Tuning(**tune))
            _print(name, results[name])
    finally:
        mem.close()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


def _print(name: str, s: dict[str, Any]) -> None:
    lat = s["latency_ms"]
    print(f"\n== {name}  (p50 {lat['p50']:.1f} ms, p95 {lat['p95']:.1f} ms, max {lat['max']:.1f} ms, "
          f"over-fetch retried on {s['retried']} questions)", flush=True)
    print(
        "stages p50/p95 ms: "
        + ", ".join(f"{k} {v['p50']:.1f}/{v['p95']:.1f}" for k, v in s["stages_ms"].items())
    )
    print(f"{'':16}{'n':>5}" + "".join(f"{'hit@' + str(k):>8}" for k in KS) + f"{'mrr':>8}")
    for key, b in s.items():
        if isinstance(b, dict) and "mrr" in b:
            print(
                f"{key:16}{b['n']:>5}"
                + "".join(f"{b['hit@' + str(k)]:>8.3f}" for k in KS)
                + f"{b['mrr']:>8.3f}",
                flush=True,
            )


if __name__ == "__main__":
    raise SystemExit(main())
