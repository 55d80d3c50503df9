"""What an ingest costs, in CPU seconds by stage, on a fresh Kuzu store (bulk, embedding cache off).

Ingests a LoCoMo file as ``tkg bench locomo`` does and prints one JSON line: wall seconds and
turns/s (what the benchmark reports), the process's CPU seconds, the main thread's (preparing and
writing, and each of the two: chunking and extraction, then the store's statements as the main
thread spends them; Kuzu's own threads are in the process's figure only), onnxruntime's runs
(thread time around each ``session.run``, summed over the workers), formatting vectors as text for
Kuzu, and the index build at the end (wall and process CPU). CPU time is what to compare on a
shared machine: others' load inflates wall time far more than CPU time.

    python3 tools/ingest_cost.py ../shared/data/locomo/locomo_dev5.json
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tkg import Memory
from tkg import embed_onnx as onnx_embedder
from tkg.embed import get_embedder
from tkg.ingest import pipeline
from tkg.ingest.loaders import load_locomo
from tkg.ingest.prepare import TurnPreparer
from tkg.ingest.write import EpisodeWriter
from tkg.stores import kuzu_values
from tkg.stores.kuzu_store import KuzuStore

_lock = threading.Lock()
_spent: dict[str, float] = {}


def _timed(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            with _lock:
                _spent[label] = _spent.get(label, 0.0) + time.thread_time() - start

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="a LoCoMo JSON file")
    ap.add_argument("--batch", type=int, default=0, help="turns prepared and embedded together (0: ingest's)")
    args = ap.parse_args()
    if args.batch:
        pipeline.BATCH = args.batch
    onnx_embedder._pooled = _timed("onnxruntime", onnx_embedder._pooled)  # type: ignore[assignment]
    kuzu_values.vector_text = _timed("vector_text", kuzu_values.vector_text)  # type: ignore[assignment]
    TurnPreparer.prepare = _timed("prepare", TurnPreparer.prepare)  # type: ignore[method-assign]
    EpisodeWriter.write = _timed("write", EpisodeWriter.write)  # type: ignore[method-assign]
    build: dict[str, float] = {}
    bulk_load = KuzuStore.bulk_load

    def timed_bulk_load(self: KuzuStore) -> Any:
        inner = bulk_load(self)

        class Measured:
            def __enter__(self) -> Any:
                return inner.__enter__()

            def __exit__(self, *exc: Any) -> Any:
                build["wall"], build["cpu"] = time.perf_counter(), time.process_time()
                try:
                    return inner.__exit__(*exc)
                finally:
                    build["wall"] = time.perf_counter() - build["wall"]
                    build["cpu"] = time.process_time() - build["cpu"]

        return Measured()

    KuzuStore.bulk_load = timed_bulk_load  # type: ignore[method-assign]
    episodes = load_locomo(args.path).episodes
    embedder = get_embedder(None, cache=False)
    embedder.embed(["warm-up: load the model before anything is timed"])
    with tempfile.TemporaryDirectory(prefix="tkg-ingest-cost-") as tmp:
        with Memory.open(f"kuzu://{Path(tmp) / 'ingest.kuzu'}", embedder=embedder) as mem:
            _spent.clear()
            cpu, main, wall = time.process_time(), time.thread_time(), time.perf_counter()
            report = mem.ingest_episodes(episodes)
            wall, main, cpu = time.perf_counter() - wall, time.thread_time() - main, time.process_time() - cpu
    print(json.dumps({
        "turns": report.episodes, "batch": pipeline.BATCH, "seconds": round(wall, 2),
        "turns_per_s": round(report.episodes / wall, 1),
        "bulk": report.bulk, "process_cpu_s": round(cpu, 2), "main_thread_cpu_s": round(main, 2),
        "onnxruntime_cpu_s": round(_spent.get("onnxruntime", 0.0), 2),
        "vector_text_cpu_s": round(_spent.get("vector_text", 0.0), 2),
        "prepare_cpu_s": round(_spent.get("prepare", 0.0), 2),
        "write_cpu_s": round(_spent.get("write", 0.0), 2),
        "index_build_s": round(build.get("wall", 0.0), 2),
        "index_build_cpu_s": round(build.get("cpu", 0.0), 2),
        "load": os.getloadavg()[0],
    }))


if __name__ == "__main__":
    main()
