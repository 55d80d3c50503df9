"""Development evaluator for direct retrieval on LoCoMo: evidence-turn Hit@k, MRR and latency.

For tuning `procedures/retrieval.py` on aggregate numbers only (never on single questions).
The real benchmark is ``tkg bench locomo``; this is the quick loop behind its retrieval stage.

It ingests a LoCoMo-shaped file into an embedded Kuzu store once (reused on later runs), asks
every question of categories 1-4 through `retrieve()` with the ``single_fact`` payload (plus any
variants asked for), and reports, overall and per category, the share of questions with a gold
``evidence`` turn among the first k distinct turns (Hit@1/3/5/10), the MRR over those turns, and
the p50/p95 latency of `retrieve()` (query embedding included, model load excluded, embedding
cache off unless ``--cache``).

Usage::

    HF_HUB_OFFLINE=1 PYTHONPATH=. python3 tools/dev_locomo_eval.py \\
        --data /work/shared/data/locomo/locomo_dev5.json --db /tmp/tkg-dev-locomo.kuzu \\
        --variant default --variant bm25 --variant dense
    python3 tools/dev_locomo_eval.py --list      # the variants it knows

Kuzu 0.11.3 indexes every row of an ``UNWIND ... CREATE`` statement under the *first* row's text
in a full-text index, and an incrementally built FactIndex full-text index segfaulted on some
queries in the 5-conversation store; ``--rebuild-fts`` (implied after an ingest) rebuilds both
full-text indexes of the dev store.
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

# name -> (payload changes, Tuning changes). "default" is what the code and payloads.toml ship.
VARIANTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "default": ({}, {}),
    "bm25": ({"fusion": "bm25", "neighbours": 0}, {}),
    "bm25_turns": ({"fusion": "bm25", "neighbours": 0, "indexes": ("chunk",)}, {}),
    "dense": ({"fusion": "dense", "neighbours": 0}, {}),
    "dense_turns": ({"fusion": "dense", "neighbours": 0, "indexes": ("chunk",)}, {}),
    "rrf": ({"fusion": "rrf"}, {}),
    "rrf_nonb": ({"fusion": "rrf", "neighbours": 0}, {}),
    "score_z": ({"fusion": "score"}, {"normaliser": "z"}),
    "score_z_nonb": ({"fusion": "score", "neighbours": 0}, {"normaliser": "z"}),
    "score_minmax": ({"fusion": "score"}, {"normaliser": "minmax"}),
    "score_minmax_nonb": ({"fusion": "score", "neighbours": 0}, {"normaliser": "minmax"}),
    "no_fact": ({"indexes": ("chunk", "sentence")}, {}),
    "no_sentence": ({"indexes": ("chunk", "fact")}, {}),
    "turns_only": ({"indexes": ("chunk",)}, {}),
    "declarative": ({}, {"dense_text": "declarative"}),
    "speaker_boost": ({}, {"speaker_boost": 0.2}),
    "nb_decay_0.3": ({}, {"neighbour_decay": 0.3}),
    "nb_decay_0.7": ({}, {"neighbour_decay": 0.7}),
    "text_heavy": ({}, {"text_weight": 1.5}),
    "vector_heavy": ({}, {"vector_weight": 1.5}),
}


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default="/work/shared/data/locomo/locomo_dev5.json")
    p.add_argument("--db", default="/tmp/tkg-dev-locomo.kuzu")
    p.add_argument("--variant", action="append", help="a name from --list (repeatable); default: default")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="ad-hoc change for one extra variant 'custom', e.g. --set tune.speaker_boost=0.3")
    p.add_argument("--categories", default="1,2,3,4")
    p.add_argument("--limit", type=int, default=0, help="first N questions only (smoke runs)")
    p.add_argument("--rebuild-fts", action="store_true")
    p.add_argument("--cache", action="store_true", help="keep the embedding cache on (faster, lower latency)")
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
        args.rebuild_fts = True
    if args.rebuild_fts:
        # Dev-store repair for the Kuzu UNWIND/FTS bug (see the module docstring).
        for table, index, column in (("Chunk", "chunk_text", "search_text"), ("FactIndex", "fact_text", "fact")):
            mem.ctx.store.run(f"CALL DROP_FTS_INDEX('{table}', '{index}')")
            mem.ctx.store.run(f"CALL CREATE_FTS_INDEX('{table}', '{index}', ['{column}'], stemmer := 'english')")
        print("rebuilt the full-text indexes", file=sys.stderr)
    return mem, samples


def _questions(samples: list[dict[str, Any]], cats: set[int], limit: int) -> list[dict[str, Any]]:
    out = []
    for s in samples:
        for qa in s["qa"]:
            if qa.get("category") in cats and qa.get("evidence"):
                out.append({"group": s["sample_id"], "question": qa["question"], "category": qa["category"],
                            "evidence": set(qa["evidence"])})
    return out[:limit] if limit else out


def _evaluate(mem: Any, questions: list[dict[str, Any]], payload: Any, tuning: Any) -> dict[str, Any]:
    from procedures.retrieval import retrieve

    for q in questions[:10]:  # warm the indexes and the model; not measured
        retrieve(mem.ctx, q["question"], q["group"], payload, tuning=tuning)
    rows = []
    for q in questions:
        r = retrieve(mem.ctx, q["question"], q["group"], payload, tuning=tuning)
        refs = [h.source_ref for h in r.hits]
        rank = next((i + 1 for i, ref in enumerate(refs) if ref in q["evidence"]), None)
        rows.append({"category": q["category"], "rank": rank, "ms": r.timings_ms["total"],
                     "retries": bool(r.trace.get("retries"))})
    return _summarise(rows)


def _summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def block(sub: list[dict[str, Any]]) -> dict[str, float]:
        n = len(sub) or 1
        out = {f"hit@{k}": sum(1 for r in sub if r["rank"] and r["rank"] <= k) / n for k in KS}
        out["mrr"] = sum(1 / r["rank"] for r in sub if r["rank"]) / n
        out["n"] = len(sub)
        return out

    ms = sorted(r["ms"] for r in rows)
    summary = {"overall": block(rows)}
    for cat, name in CATEGORIES.items():
        sub = [r for r in rows if r["category"] == cat]
        if sub:
            summary[f"{cat}:{name}"] = block(sub)
    summary["latency_ms"] = {"p50": statistics.median(ms), "p95": ms[int(0.95 * (len(ms) - 1))], "max": ms[-1]}
    summary["retried"] = sum(r["retries"] for r in rows)
    return summary


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if args.list:
        for name, (pay, tune) in VARIANTS.items():
            print(f"{name:20} payload={pay} tuning={tune}")
        return 0
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if not args.cache:
        os.environ["TKG_EMBED_CACHE"] = "0"
    from planners.payloads import default_payloads
    from procedures.retrieval import Tuning

    variants = dict(VARIANTS)
    if args.set:
        variants["custom"] = _custom(args.set)
    names = args.variant or (["custom"] if args.set else ["default"])
    mem, samples = _open(args)
    base = default_payloads().for_mode("single_fact")
    questions = _questions(samples, {int(c) for c in args.categories.split(",")}, args.limit)
    results = {}
    try:
        for name in names:
            pay, tune = variants[name]
            payload = replace(base, **pay)
            if "indexes" in pay:
                payload = replace(payload, weights=tuple((i, base.weight(i) or 1.0) for i in payload.indexes))
            results[name] = _evaluate(mem, questions, payload, Tuning(**tune))
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
    print(f"{'':16}{'n':>5}" + "".join(f"{'hit@' + str(k):>8}" for k in KS) + f"{'mrr':>8}")
    for key, b in s.items():
        if isinstance(b, dict) and "mrr" in b:
            print(f"{key:16}{b['n']:>5}" + "".join(f"{b['hit@' + str(k)]:>8.3f}" for k in KS) + f"{b['mrr']:>8.3f}",
                  flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
