"""Development loop for abstention on a LoCoMo-shaped file: ingest once into a kept store, re-ask quickly.

`tkg bench locomo` ingests into a fresh store every run (minutes); tuning the abstention gate
(`procedures/abstain.py`) only needs the questions re-asked. This tool ingests the file into a
Kuzu store at ``--store`` the first time (reused on later runs), asks every question through
``Memory.ask`` and reports the adversarial (category 5) abstention share, the false abstention
over categories 1-4 and evidence Hit@10 / MRR, as the bench does. ``--dump FILE`` writes one JSON
line per question (question, category, abstained, answer, who abstained and why, the grounding
trace) for studying the misses; ``--only 5`` asks one category.

Usage (``PYTHONPATH=.`` from the repo root)::

    python3 tools/dev_abstain_eval.py --store /tmp/adv/locomo.kuzu --dump /tmp/adv/now.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tkg.bench.metrics import RankScore, first_hit_rank  # noqa: E402
from tkg.bench.questions import ANSWERABLE, load_questions  # noqa: E402
from tkg.ingest.loaders import load  # noqa: E402
from tkg.memory import Memory  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("path", nargs="?", default="/work/shared/data/locomo/locomo_dev5.json")
    ap.add_argument("--store", required=True, help="a Kuzu path; ingested the first time, reused after")
    ap.add_argument("--dump", help="write one JSON line per question here")
    ap.add_argument("--only", type=int, action="append", help="ask only these categories")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    path = Path(args.path)
    fresh = not Path(args.store).exists()
    mem = Memory.open(f"kuzu://{args.store}")
    episodes = load(path).episodes
    if fresh:
        mem.ingest_episodes(episodes)
    known: dict[str, set[str]] = {}
    for e in episodes:
        if e.source_ref:
            known.setdefault(e.group, set()).add(e.source_ref)
    questions = [q for q in load_questions(path) if not args.only or q.category in args.only]
    rows: list[dict[str, Any]] = []
    score = RankScore()
    for q in questions:
        ans = mem.ask(q.question, group=q.group)
        refs = [e.source_ref for e in ans.evidence]
        gold = {e for e in q.evidence if e in known.get(q.group, set())}
        rank = first_hit_rank(refs, gold) if gold else None
        if q.category in ANSWERABLE and gold:
            score.add(rank)
        gates = [g for g in ans.trace.get("runtime_gates", []) if g.get("name") == "abstention"]
        rows.append({
            "group": q.group, "question": q.question, "category": q.category, "abstained": ans.abstained,
            "answer": ans.answer, "gold_answer": q.answer, "mode": ans.mode, "procedure": ans.procedure,
            "gate": gates[0]["reason"] if gates and gates[0].get("fired") else None,
            "by": ans.trace.get("abstained_by"), "premise": (ans.trace.get("reading") or {}).get("premise"),
            "grounding": ans.trace.get("grounding"), "rank": rank, "gold": sorted(gold),
            "refs": refs[:5], "evidence": [[e.source_ref, e.speaker, e.text[:160]] for e in ans.evidence[:3]],
        })
    mem.close()
    adv = [r for r in rows if r["category"] == 5]
    ans_rows = [r for r in rows if r["category"] in ANSWERABLE]
    def share(rs: list[dict[str, Any]]) -> float | None:
        return round(sum(r["abstained"] for r in rs) / len(rs), 3) if rs else None

    report = {
        "adversarial_abstained": share(adv), "false_abstention": share(ans_rows),
        "adversarial_n": len(adv), "answerable_n": len(ans_rows), **score.summary(),
    }
    if args.dump:
        Path(args.dump).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
