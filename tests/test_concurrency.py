"""Concurrency: parallel ingests into different groups and parallel queries, exact totals, no deadlock.

On Kuzu the threads share one `Memory` (one process may open the database once); on Neo4j each
thread opens its own `Memory` (its own driver and sessions), as separate workers would. Every
thread is joined with a timeout — a hang fails the test instead of stalling the suite — and every
exception a thread meets is collected and reported. Afterwards each group holds exactly its
turns (none lost, none twice), every group is whole, and a group that was only read is unchanged.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from reliability.common import memory, shared_embedder, store_url, unique

from tkg.bench.soak import check_invariants, conversation, questions, snapshot
from tkg.memory import Memory
from tkg.models import EpisodeInput

WRITERS = {"kuzu": 4, "neo4j": 3}
READERS = 2
TURNS = 8
JOIN_S = 180.0


class Crew:
    """Threads whose exceptions are kept (a thread must never die silently or warn)."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.errors: list[str] = []
        self.done = threading.Event()
        self.calls = 0

    def spawn(self, name: str, fn: Callable[[], None]) -> None:
        def run() -> None:
            try:
                fn()
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                self.errors.append(f"{name}: {type(exc).__name__}: {exc}")

        self.threads.append(threading.Thread(target=run, name=name, daemon=True))

    def run(self) -> float:
        started = time.perf_counter()
        for t in self.threads:
            t.start()
        deadline = time.monotonic() + JOIN_S
        for t in self.threads:
            if t.name.startswith("writer"):
                t.join(timeout=max(0.1, deadline - time.monotonic()))
        self.done.set()  # readers stop once the writers are through
        for t in self.threads:
            t.join(timeout=max(0.1, deadline - time.monotonic()))
        hung = [t.name for t in self.threads if t.is_alive()]
        assert not hung, f"threads still running after {JOIN_S}s (deadlock?): {hung}"
        return time.perf_counter() - started


def batches(episodes: list[EpisodeInput], rng: random.Random) -> Iterator[list[EpisodeInput]]:
    i = 0
    while i < len(episodes):
        n = rng.randint(1, 3)
        yield episodes[i : i + n]
        i += n


def reader(mem: Memory, group: str, speaker: str, crew: Crew, seed: int) -> Callable[[], None]:
    rng = random.Random(seed)

    def loop() -> None:
        while not crew.done.is_set():
            op = rng.choice(["ask", "state", "history", "counts"])
            if op == "ask":
                answer = mem.ask(questions(rng, [speaker], 1)[0], group=group)
                assert all(e.group == group for e in answer.evidence)
            elif op == "state":
                assert all(f.group_id == group for f in mem.state(speaker, group=group))
            elif op == "history":
                assert all(f.group_id == group for f in mem.history(speaker, group=group))
            else:
                assert mem.counts(group)["episodes"] == TURNS
            crew.calls += 1

    return loop


def run_and_check(backend: str, opener: Callable[[], Memory], main: Memory, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    quiet = unique("conc-read")
    quiet_eps = conversation(rng, quiet, TURNS)
    groups = [unique("conc") for _ in range(WRITERS[backend])]
    scripts = {g: conversation(rng, g, TURNS) for g in groups}
    memories: list[Memory] = []
    try:
        main.ingest_episodes(quiet_eps)
        quiet_before = snapshot(main.ctx.store, [quiet])
        crew = Crew()
        reports: dict[str, int] = {g: 0 for g in groups}
        for i, g in enumerate(groups):
            mem = opener()
            memories.append(mem)

            def write(mem: Memory = mem, g: str = g, i: int = i) -> None:
                for batch in batches(scripts[g], random.Random(seed + i)):
                    reports[g] += mem.ingest_episodes(batch).episodes

            crew.spawn(f"writer-{i}", write)
        for i in range(READERS):
            mem = opener()
            memories.append(mem)
            crew.spawn(f"reader-{i}", reader(mem, quiet, quiet_eps[0].speaker, crew, seed + 100 + i))
        seconds = crew.run()
        assert not crew.errors, crew.errors
        store = main.ctx.store
        for g in groups:
            assert reports[g] == TURNS, (g, reports[g])
            assert main.counts(g)["episodes"] == TURNS
            assert check_invariants(store, g, registry=main.ctx.registry) == []
        assert snapshot(store, [quiet]) == quiet_before
        return {"seconds": round(seconds, 1), "episodes": sum(reports.values()), "reads": crew.calls}
    finally:
        for mem in memories:
            if mem is not main:
                mem.close()
        for g in [*groups, quiet]:
            main.ctx.store.named("group.delete", {"group_id": g})


def test_kuzu_threads_share_one_memory(tmp_path: Path) -> None:
    with memory("kuzu", tmp_path) as mem:
        stats = run_and_check("kuzu", lambda: mem, mem, seed=31)
    assert stats["episodes"] == WRITERS["kuzu"] * TURNS
    print(f"\nkuzu concurrency: {stats}")


@pytest.mark.neo4j
def test_neo4j_separate_memories_in_parallel(tmp_path: Path) -> None:
    url = store_url("neo4j", tmp_path)
    with memory("neo4j", tmp_path) as main:
        stats = run_and_check("neo4j", lambda: Memory.open(url, embedder=shared_embedder()), main, seed=32)
    assert stats["episodes"] == WRITERS["neo4j"] * TURNS
    print(f"\nneo4j concurrency: {stats}")


@pytest.fixture(params=["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_the_same_turns_ingested_twice_at_once_are_stored_once(backend: str, tmp_path: Path) -> None:
    """Two workers fed the same file race on every episode; each episode must land exactly once."""
    url = store_url(backend, tmp_path)
    group = unique("conc-same")
    episodes = conversation(random.Random(33), group, TURNS)
    with memory(backend, tmp_path) as main:
        other = main if backend == "kuzu" else Memory.open(url, embedder=shared_embedder())
        try:
            crew = Crew()
            written: list[int] = []
            for i, mem in enumerate((main, other)):
                crew.spawn(f"writer-{i}", lambda m=mem: written.append(m.ingest_episodes(episodes).episodes))  # type: ignore[misc]
            crew.run()
            assert not crew.errors, crew.errors
            assert sum(written) == TURNS
            assert main.counts(group)["episodes"] == TURNS
            assert check_invariants(main.ctx.store, group) == []
        finally:
            if other is not main:
                other.close()
            main.ctx.store.named("group.delete", {"group_id": group})
