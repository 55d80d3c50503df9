"""Threads against one store, for tests/test_concurrency.py; also runnable as a child process.

Kuzu is exercised in a child (``python -m reliability.threads DB_DIR ROUNDS``) because a memory
corruption inside the driver aborts the whole process, and one failing test must not take the
rest of the suite down with it. The child prints one JSON line of figures and exits 0 when every
round's totals were exact.
"""

from __future__ import annotations

import json
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from reliability.common import store_url, unique
from tkg.bench.soak import check_invariants, conversation, questions, snapshot
from tkg.embed import get_embedder
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


def same_turns_twice(main: Memory, other: Memory) -> int:
    """Two workers ingest the same turns at once; returns the episodes stored (must be the turns)."""
    group = unique("conc-same")
    episodes = conversation(random.Random(33), group, TURNS)
    try:
        crew = Crew()
        written: list[int] = []
        for i, mem in enumerate((main, other)):
            crew.spawn(f"writer-{i}", lambda m=mem: written.append(m.ingest_episodes(episodes).episodes))  # type: ignore[misc]
        crew.run()
        assert not crew.errors, crew.errors
        assert sum(written) == TURNS, written
        assert check_invariants(main.ctx.store, group) == []
        return int(main.counts(group)["episodes"])
    finally:
        main.ctx.store.named("group.delete", {"group_id": group})


def main(argv: list[str]) -> int:
    """Run the Kuzu scenarios on a fresh database under ``folder``: ``rounds`` of parallel groups, one
    race."""
    folder, rounds = Path(argv[0]), int(argv[1])
    # The embedder loads its model lazily, on the first text the shared cache lacks: a rerun never loads it.
    with Memory.open(store_url("kuzu", folder), embedder=get_embedder()) as mem:
        figures = [run_and_check("kuzu", lambda: mem, mem, seed=31 + r) for r in range(rounds)]
        twice = same_turns_twice(mem, mem)
    print(json.dumps({"rounds": figures, "same_turns_twice": twice}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
