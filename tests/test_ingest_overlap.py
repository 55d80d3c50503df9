"""Ingest embeds batch k+1 on a worker thread while it writes batch k (tkg/ingest/pipeline.py).

What the overlap must not change: an embedder that fails stops the ingest with its own error
before anything of its batch is written, what was written before stays whole, and running the
same ingest again finishes the rest, with every turn and chunk an ingest without failure writes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from test_bulk_load import WordHashEmbedder

from tkg.bench.temporal_gen import generate
from tkg.ingest import pipeline
from tkg.memory import Memory


class FailingEmbedder(WordHashEmbedder):
    """Fails on its ``fail_on``-th batch call (1-based), and records the threads it ran on."""

    def __init__(self, fail_on: int) -> None:
        self.fail_on = fail_on
        self.calls = 0
        self.threads: set[str] = set()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        self.threads.add(threading.current_thread().name)
        if self.calls == self.fail_on:
            raise RuntimeError("the model ran out of memory")
        return super().embed(texts)


def _written(mem: Memory) -> list[dict[str, object]]:
    return mem.ctx.store.run(
        "MATCH (e:Episodic)-[:HAS_CHUNK]->(c:Chunk) RETURN e.uuid AS episode, count(c) AS chunks ORDER BY "
        "episode"
    )


def test_a_failing_embedder_stops_before_its_batch_and_a_rerun_finishes(tmp_path: Path) -> None:
    turns = generate(3 * pipeline.BATCH + 10, seed=1).episodes()
    failing = FailingEmbedder(fail_on=3)  # the third batch's embedding fails
    with Memory.open(f"kuzu://{tmp_path}/f.kuzu", embedder=failing) as mem:  # type: ignore[arg-type]
        with pytest.raises(RuntimeError, match="ran out of memory"):
            mem.ingest_episodes(turns, bulk=False)
        assert failing.threads and all(
            name.startswith("tkg-embed") for name in failing.threads
        )  # off the writing thread
        (row,) = mem.ctx.store.run("MATCH (e:Episodic) RETURN count(e) AS n")
        assert row["n"] == 2 * pipeline.BATCH  # the two batches embedded before the failure, whole
        # the embedder fails on its third call only: the same Memory runs the ingest again
        again = mem.ingest_episodes(turns, bulk=False)
        assert (
            again.skipped_existing == 2 * pipeline.BATCH and again.episodes == len(turns) - 2 * pipeline.BATCH
        )
        resumed = _written(mem)
    with Memory.open(f"kuzu://{tmp_path}/whole.kuzu", embedder=WordHashEmbedder()) as mem:  # type: ignore[arg-type]
        mem.ingest_episodes(turns, bulk=False)
        assert resumed == _written(mem) and len(resumed) == len(turns)
