"""Process CPU per question on a kept LoCoMo-shaped store, with an optional profile and answer dump.

Opens ``kuzu://STORE`` (ingested once, e.g. by ``tools/dev_abstain_eval.py --store STORE``), asks
ten questions to warm up, then every question of the file through ``Memory.ask``, and prints the
mean, p50 and p95 of ``time.process_time`` per question. ``--dump FILE`` writes one JSON line per
question (question, answer, abstained, the ordered evidence references) so two trees' behaviour can
be compared with ``cmp``; ``--profile`` prints the cProfile top functions.

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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tkg.bench.questions import load_questions  # noqa: E402
from tkg.memory import Memory  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("store", help="a Kuzu store already holding the file's conversations")
    ap.add_argument("path", nargs="?", default="/work/shared/data/locomo/locomo_dev5.json")
    ap.add_argument("--dump", help="write one JSON line per question here")
    ap.add_argument("--profile", action="store_true", help="print the cProfile top functions")
    args = ap.parse_args()
    mem = Memory.open(f"kuzu://{args.store}")
    questions = load_questions(Path(args.path))
    for q in questions[:10]:
        mem.ask(q.question, group=q.group)
    prof = cProfile.Profile() if args.profile else None
    rows, cpus = [], []
    if prof:
        prof.enable()
    for q in questions:
        start = time.process_time()
        ans = mem.ask(q.question, group=q.group)
        cpus.append(time.process_time() - start)
        rows.append([q.question, ans.answer, ans.abstained, [e.source_ref for e in ans.evidence]])
    if prof:
        prof.disable()
    mem.close()
    cpus.sort()
    ms = [1000 * c for c in cpus]
    print(json.dumps({"n": len(ms), "cpu_ms_per_q": round(sum(ms) / len(ms), 2),
                      "p50": round(ms[len(ms) // 2], 1), "p95": round(ms[int(len(ms) * 0.95)], 1)}))
    if args.dump:
        Path(args.dump).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(45)


if __name__ == "__main__":
    main()
