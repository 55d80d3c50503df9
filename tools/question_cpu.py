"""Process CPU per question on a kept LoCoMo-shaped store, by procedure and by stage, with an answer dump.

Opens ``kuzu://STORE`` (ingested once, e.g. by ``tools/dev_abstain_eval.py --store STORE``), asks
ten questions to warm up, then every question of the file through ``Memory.ask``, and prints the
mean, p50 and p95 of ``time.process_time`` per question, the same per procedure the router chose,
and the mean CPU of each answer stage (the orchestrator's steps in `procedures.answer`, timed by
wrapping them; the shared machine makes wall times noisy). ``--dump FILE`` writes one JSON line
per question (question, answer, abstained, the ordered evidence references) so two trees' behaviour
can be compared with ``cmp``; ``--profile`` prints the cProfile top functions.

Usage (``PYTHONPATH=.`` from the repo root)::

    python3 tools/question_cpu.py /tmp/speed/locomo.kuzu --dump /tmp/speed/now.jsonl
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import procedures.abstain as abstain_mod  # noqa: E402
import procedures.answer as answer_mod  # noqa: E402
from tkg.bench.questions import load_questions  # noqa: E402
from tkg.memory import Memory  # noqa: E402

# the orchestrator's steps (name in procedures.answer → stage) and the swapped-subject retrieval
STAGES = {"route": "route", "_empty_retrieval_gate": "empty_retrieval_gate", "backfill": "evidence_backfill",
          "read": "reading", "ground": "abstention_gate", "synthesize": "synthesis"}


def _timed(spent: dict[str, float], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - start
    return run


def _stage_clocks(spent: dict[str, float]) -> None:
    """Time the orchestrator's steps (CPU) into ``spent`` for as long as the process runs."""
    for attr, stage in STAGES.items():
        setattr(answer_mod, attr, _timed(spent, stage, getattr(answer_mod, attr)))
    for name, fn in list(answer_mod.PROCEDURES.items()):
        answer_mod.PROCEDURES[name] = _timed(spent, "procedure", fn)
    abstain_mod.retrieve = _timed(spent, "abstention_gate.retrieve", abstain_mod.retrieve)


def _pcts(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {"n": len(ms), "mean": round(sum(ms) / len(ms), 2), "p50": round(ms[len(ms) // 2], 1),
            "p95": round(ms[int(len(ms) * 0.95)], 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("store", help="a Kuzu store already holding the file's conversations")
    ap.add_argument("path", nargs="?", default="/work/shared/data/locomo/locomo_dev5.json")
    ap.add_argument("--dump", help="write one JSON line per question here")
    ap.add_argument("--profile", action="store_true", help="print the cProfile top functions")
    ap.add_argument("--pstats", help="with --profile, also save the profile here (for pstats)")
    args = ap.parse_args()
    mem = Memory.open(f"kuzu://{args.store}")
    questions = load_questions(Path(args.path))
    for q in questions[:10]:
        mem.ask(q.question, group=q.group)
    spent: dict[str, float] = defaultdict(float)
    _stage_clocks(spent)
    prof = cProfile.Profile() if args.profile else None
    rows, cpus = [], []
    by_proc: dict[str, list[float]] = defaultdict(list)
    stages: dict[str, list[float]] = defaultdict(list)
    if prof:
        prof.enable()
    for q in questions:
        spent.clear()
        start = time.process_time()
        ans = mem.ask(q.question, group=q.group)
        cpus.append(1000 * (time.process_time() - start))
        by_proc[ans.procedure].append(cpus[-1])
        for name, s in spent.items():
            stages[name].append(1000 * s)
        rows.append([q.question, ans.answer, ans.abstained, [e.source_ref for e in ans.evidence]])
    if prof:
        prof.disable()
    mem.close()
    print(json.dumps({"cpu_ms": _pcts(cpus),
                      "by_procedure": {p: _pcts(v) for p, v in sorted(by_proc.items())},
                      "stage_mean_cpu_ms": {s: {"mean": round(sum(v) / len(v), 2), "n": len(v)}
                                            for s, v in sorted(stages.items())}}, indent=1))
    if args.dump:
        Path(args.dump).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(45)
        if args.pstats:
            prof.dump_stats(args.pstats)


if __name__ == "__main__":
    main()
