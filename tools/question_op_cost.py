"""Where a temporal-benchmark question spends its time in Kuzu, statement by statement.

``tkg bench temporal`` reports latency per question; this says which named statements make it up
and how their cost changes with the store's size: it builds (or reopens) a Kuzu store of the
benchmark's generated conversations, asks the benchmark's questions once, and times every
statement the adapter executes. Output: milliseconds per question spent in the store and
outside it, then the costliest statements with calls, total ms and ms per call. Run it on two
sizes to see which statements grow (the embedding model loads before the timed questions).

    python3 tools/question_op_cost.py --size 10000 --path /tmp/q10k.kuzu
    python3 tools/question_op_cost.py --size 30000 --path /tmp/q30k.kuzu --top 15
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")

from tkg.bench.temporal_gen import generate  # noqa: E402
from tkg.bench.temporal_questions import build_questions  # noqa: E402
from tkg.memory import Memory  # noqa: E402
from tkg.stores import kuzu_store  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=10000, help="episodes to generate (seed 0, as the benchmark)")
    ap.add_argument(
        "--path", required=True, help="Kuzu directory: built when it holds no episodes, else reused"
    )
    ap.add_argument("--questions", type=int, default=300)
    ap.add_argument("--top", type=int, default=12, help="statements to list")
    args = ap.parse_args()

    data = generate(args.size, 0)
    with Memory.open(f"kuzu://{args.path}") as mem:
        if not mem.ctx.store.named("group.list", {}):
            report = mem.ingest_episodes(data.episodes())
            print(
                f"built {args.size} episodes in {report.seconds:.1f} s ({report.to_dict()['turns_per_s']} "
                "turns/s)"
            )
        questions = build_questions(data, limit=args.questions)
        mem.ctx.embedder.embed(["warm up"])  # model load is not a question's cost
        mem.ask(questions[0].text, group=questions[0].group)
        spent: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        original = kuzu_store.KuzuStore._execute

        def timed(self: Any, conn: Any, query: str, params: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(self, conn, query, params)
            finally:
                entry = spent[" ".join(query.split())[:100]]
                entry[0] += 1
                entry[1] += (time.perf_counter() - started) * 1000

        kuzu_store.KuzuStore._execute = timed  # type: ignore[method-assign]
        started = time.perf_counter()
        try:
            for q in questions:
                mem.ask(q.text, group=q.group)
        finally:
            kuzu_store.KuzuStore._execute = original  # type: ignore[method-assign]
        total = (time.perf_counter() - started) * 1000 / len(questions)
        in_store = sum(v[1] for v in spent.values()) / len(questions)
        print(
            f"size {args.size}: {total:.2f} ms a question, {in_store:.2f} in the store, "
            f"{total - in_store:.2f} outside"
        )
        print("calls  total ms  ms/call  statement")
        for text, (calls, ms) in sorted(spent.items(), key=lambda kv: -kv[1][1])[: args.top]:
            print(f"{int(calls):5d} {ms:9.1f} {ms / calls:8.2f}  {text}")


if __name__ == "__main__":
    main()
