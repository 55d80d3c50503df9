"""Crash safety: kill -9 an ingest at random points; the store keeps whole episodes only.

An ingest subprocess (tests/reliability/ingest_child.py) is killed with SIGKILL again and again
on the same store — half the time frozen right after a statement chosen at random inside a write
transaction, half the time a random delay after a transaction chosen at random began (which may
land in a write, in a commit or between transactions). The input holds several groups, so one
run commits several transactions and kills fall before, between and after commits. After every kill the store
is reopened and must hold only whole episodes: every
Episodic has exactly the chunks `chunk_episode` gives it, no chunk or fact points at a missing
episode, no edge crosses groups, no seq or content is duplicated. A last uninterrupted run must
then finish the rest: episode count == input turns, nothing lost, nothing twice.

The child reuses the embedding cache the parent warmed, so it never loads the model and one
kill costs about a second.
"""

from __future__ import annotations

import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from reliability.common import facts_of, memory, neo4j_url, shared_embedder, unique

from tkg.bench.soak import check_invariants, conversation
from tkg.ingest.chunking import chunk_episode
from tkg.ingest.loaders import load
from tkg.ingest.prepare import episode_uuid
from tkg.memory import Memory
from tkg.models import EpisodeInput
from tkg.stores import GraphStore, kuzu_store, neo4j_store, open_store

ROOT = Path(__file__).resolve().parent.parent
CHILD = Path(__file__).resolve().parent / "reliability" / "ingest_child.py"
KILLS = {"kuzu": 8, "neo4j": 4}  # kills by statement and by timer alternate; each child is a new process
GROUPS, TURNS = 6, 5  # one write transaction per group and run
STEP_TIMEOUT = 120.0  # seconds a child may take to reach a line it promised


def write_conversation(path: Path, groups: list[str], seed: int) -> list[EpisodeInput]:
    rng = random.Random(seed)
    episodes = [e for g in groups for e in conversation(rng, g, TURNS)]
    lines = [
        {"group": e.group, "speaker": e.speaker, "listeners": list(e.listeners),
         "timestamp": e.timestamp.isoformat(), "source_ref": e.source_ref, "text": e.text}
        for e in episodes
    ]  # fmt: skip
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return load(path).episodes


class Child:
    """One ingest subprocess with its stdout read line by line under a timeout."""

    def __init__(
        self, url: str, path: Path, stop_at: int | None, log: Path, stop_at_tx: int | None = None
    ) -> None:
        args = [sys.executable, str(CHILD), url, str(path)] + (["--stop-at", str(stop_at)] if stop_at else [])
        args += ["--stop-at-tx", str(stop_at_tx)] if stop_at_tx else []
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
        self._log = log.open("ab")
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self._log, env=env, cwd=ROOT)
        assert self.proc.stdout is not None
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)
        self.lines: list[str] = []
        self._unread: list[str] = []  # lines read from the pipe but not yet looked at
        self._partial = b""

    def _next_line(self, deadline: float) -> str | None:
        """The next line the child printed ("" when it exited); None at the deadline. Reads the pipe
        unbuffered, so two lines arriving together are both seen."""
        assert self.proc.stdout is not None
        while not self._unread:
            if time.monotonic() >= deadline:
                return None
            if not self._sel.select(timeout=max(0.0, deadline - time.monotonic())):
                continue
            data = os.read(self.proc.stdout.fileno(), 65536)
            if not data:
                return ""
            *lines, self._partial = (self._partial + data).split(b"\n")
            self._unread += [ln.decode(errors="replace") for ln in lines]
        return self._unread.pop(0)

    def wait_for(self, prefix: str, timeout: float = STEP_TIMEOUT) -> str | None:
        """The first line starting with ``prefix``; None if the child exits first."""
        deadline = time.monotonic() + timeout
        while (line := self._next_line(deadline)) is not None:
            if line == "" and not self._unread:
                return None
            self.lines.append(line.rstrip())
            if line.startswith(prefix):
                return line.rstrip()
        raise AssertionError(f"the ingest child printed no {prefix!r} within {timeout}s: {self.lines}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.close()

    def close(self) -> int:
        code = self.proc.wait(timeout=STEP_TIMEOUT)
        self._sel.close()
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        self._log.close()
        return code


def statements_per_run(
    mem: Memory, episodes: list[EpisodeInput], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, float]:
    """Ingest into a scratch store (warming the embedding cache): in-transaction statements and their
    seconds."""
    count, seconds = 0, 0.0
    module = kuzu_store if mem.ctx.store.dialect == "kuzu" else neo4j_store
    original = module._Tx.run

    def counting(self: Any, query: str, params: Any = None) -> Any:
        nonlocal count, seconds
        count += 1
        t = time.perf_counter()
        try:
            return original(self, query, params)
        finally:
            seconds += time.perf_counter() - t

    with monkeypatch.context() as m:
        m.setattr(module._Tx, "run", counting)
        report = mem.ingest_episodes(episodes)
    assert report.episodes == len(episodes)
    return count, seconds


def survey(store: GraphStore, groups: list[str], expected: dict[str, set[str]]) -> tuple[list[str], set[str]]:
    """Invariant violations and the episode uuids present."""
    bad = [b for g in groups for b in check_invariants(store, g, expected_chunks=expected)]
    present = {r["uuid"] for r in store.read(
        "MATCH (e:Episodic) WHERE e.group_id IN $g RETURN e.uuid AS uuid", {"g": groups})}  # fmt: skip
    stray = present - set(expected)
    return bad + [f"unexpected episode {u}" for u in sorted(stray)], present


def crash_loop(backend: str, url: str, reopen: Any, groups: list[str], tmp: Path,
               monkeypatch: pytest.MonkeyPatch, seed: int) -> dict[str, Any]:  # fmt: skip
    rng = random.Random(seed)
    path = tmp / "conversation.jsonl"
    episodes = write_conversation(path, groups, seed)
    expected = {episode_uuid(e): {c.uuid for c in chunk_episode(e, episode_uuid(e))} for e in episodes}
    scratch_group = unique("crash-scratch")
    with memory(backend, tmp / "scratch") as scratch:
        warm = [EpisodeInput(**{**e.__dict__, "group": f"{scratch_group}-{e.group}"}) for e in episodes]
        total, writing_s = statements_per_run(scratch, warm, monkeypatch)  # same texts, same cache entries
        per_tx_s = writing_s / len(groups)
        uninterrupted = {g: facts_of(scratch.ctx.store, f"{scratch_group}-{g}") for g in groups}
        for g in {e.group for e in warm}:
            scratch.ctx.store.named("group.delete", {"group_id": g})
    log = tmp / "child.log"
    stats: dict[str, Any] = {"kills": 0, "survived": 0, "completed_early": 0, "progress": []}
    present: set[str] = set()
    for i in range(KILLS[backend]):
        # Aim within the next two transactions, so kills keep landing before the work runs out.
        left = min(2, len(groups) - len(present) // TURNS)
        by_statement = i % 2 == 0
        stop_at = rng.randint(1, max(1, total * left // len(groups))) if by_statement else None
        child = Child(url, path, stop_at, log)
        try:
            assert child.wait_for("READY") == "READY", child.lines
            if by_statement:
                stopped = child.wait_for("STOP")
            else:
                stopped = child.wait_for(f"TX {rng.randint(1, max(1, left))}")
                time.sleep(rng.uniform(0.0, per_tx_s * 1.2))  # in the writes, the commit or just after
        finally:
            finished = child.proc.poll() is not None
            child.kill()
        if stopped is None or finished:
            stats["completed_early"] += 1  # the child finished before the chosen point: no kill
        else:
            stats["kills"] += 1
        store = reopen()
        try:
            bad, present = survey(store, groups, expected)
        finally:
            store.close()
        assert not bad, f"after kill {i + 1} ({'statement' if by_statement else 'timer'}): {bad[:10]}"
        stats["survived"] += 1
        stats["progress"].append(len(present))
    final = Child(url, path, None, log)
    done = final.wait_for("DONE")
    assert final.close() == 0 and done, (final.lines, log.read_text(errors="replace")[-2000:])
    report = json.loads(done[len("DONE ") :])
    store = reopen()
    try:
        bad, present = survey(store, groups, expected)
        count = sum(store.named("group.counts", {"group_id": g})[0]["episodes"] for g in groups)
        got = {g: facts_of(store, g) for g in groups}
        differ = [g for g in groups if got[g] != uninterrupted[g]]
    finally:
        store.close()
    assert not bad, bad[:10]
    assert not differ, (
        f"facts differ from an uninterrupted ingest in {len(differ)} of {len(groups)} groups: "
        f"{[(sorted(set(got[g]) - set(uninterrupted[g]), key=repr), sorted(set(uninterrupted[g]) - set(got[g]), key=repr)) for g in differ]}"  # noqa: E501
    )
    lost = set(expected) - present
    stats.update(episodes=count, lost=len(lost), final_report=report, statements_per_run=total,
                 facts=sum(len(f) for f in uninterrupted.values()), groups_with_other_facts=len(differ))
    assert count == len(episodes) == len(present), stats
    assert not lost
    return stats


def test_kill_minus_nine_during_ingest_kuzu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared_embedder()
    db = tmp_path / "crash.kuzu"
    groups = [unique("crash") for _ in range(GROUPS)]
    stats = crash_loop(
        "kuzu", f"kuzu://{db}", lambda: open_store(f"kuzu://{db}"), groups, tmp_path, monkeypatch, seed=20240
    )
    assert stats["kills"] >= KILLS["kuzu"] // 2, stats
    print(f"\nkuzu crash safety: {stats}")


@pytest.mark.neo4j
def test_kill_minus_nine_during_ingest_neo4j(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = neo4j_url()
    shared_embedder()
    groups = [unique("crash") for _ in range(GROUPS)]
    try:
        stats = crash_loop("neo4j", url, lambda: open_store(url), groups, tmp_path, monkeypatch, seed=4242)
    finally:
        with open_store(url) as store:
            for group in groups:
                store.named("group.delete", {"group_id": group})
    assert stats["kills"] >= KILLS["neo4j"] // 2, stats
    print(f"\nneo4j crash safety: {stats}")


def correction_across_transactions(group: str) -> list[EpisodeInput]:
    """40 turns: a move in the first write transaction (32 turns), its correction in the second."""
    t0 = conversation(random.Random(9), group, 1)[0].timestamp
    texts = ["Oh nice, how is it going?"] * 40
    texts[28], texts[34] = (
        "I moved to York.",
        "Actually, it's Vienna, not York.",
    )  # Ines speaks the even turns
    texts[30], texts[32] = "I started working at Globex.", "Sorry, I meant Initech."
    return [EpisodeInput(group, "Ines" if i % 2 == 0 else "Tomas", text, t0 + timedelta(hours=i), f"c{i + 1}",
                         listeners=("Tomas" if i % 2 == 0 else "Ines",)) for i, text in enumerate(texts)]


@pytest.mark.parametrize("backend", ["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def test_a_correction_after_a_kill_between_transactions_is_kept(backend: str, tmp_path: Path) -> None:
    """The review's case: kill -9 once the first transaction committed, run again; the correction in
    the second transaction still reaches the claim of the first (the extractor's history is read
    from the store), so the facts are those of an uninterrupted ingest."""
    shared_embedder()
    group, reference = unique("crash-corr"), unique("crash-corr-ref")
    url = neo4j_url() if backend == "neo4j" else f"kuzu://{tmp_path}/corr.kuzu"
    path = tmp_path / "corr.jsonl"
    episodes = correction_across_transactions(group)
    path.write_text(
        "".join(
            json.dumps(
                {
                    "group": e.group,
                    "speaker": e.speaker,
                    "listeners": list(e.listeners),
                    "timestamp": e.timestamp.isoformat(),
                    "source_ref": e.source_ref,
                    "text": e.text,
                }
            )
            + "\n"
            for e in episodes
        ),
        encoding="utf-8",
    )
    with memory(backend, tmp_path / "ref") as ref:
        try:
            ref.ingest_episodes(correction_across_transactions(reference))
            expected = facts_of(ref.ctx.store, reference)
        finally:
            ref.ctx.store.named("group.delete", {"group_id": reference})
    assert any(f[2] == "Vienna" and f[7] for f in expected) and any(
        f[2] == "Initech" and f[7] for f in expected
    )
    log = tmp_path / "child.log"
    child = Child(url, path, None, log, stop_at_tx=2)
    try:
        assert child.wait_for("STOP TX 2"), child.lines
    finally:
        child.kill()
    final = Child(url, path, None, log)
    assert final.wait_for("DONE") and final.close() == 0, final.lines
    store = open_store(url)
    try:
        assert facts_of(store, group) == expected
    finally:
        if backend == "neo4j":
            store.named("group.delete", {"group_id": group})
        store.close()


def test_the_invariant_check_sees_broken_episodes(mem: Memory) -> None:
    """The checker the kill tests rely on reports a torn episode, an orphan chunk, a fact citing
    nothing and a turn anchored twice."""
    group = unique("crash-planted")
    t0 = conversation(random.Random(5), group, 1)[0].timestamp
    episodes = [
        EpisodeInput(group, "Priya", "I live in Leeds. It rains a lot.", t0, "a1", listeners=("Marco",)),
        EpisodeInput(group, "Marco", "I work at Globex.", t0.replace(hour=11), "a2", listeners=("Priya",)),
    ]
    expected = {episode_uuid(e): {c.uuid for c in chunk_episode(e, episode_uuid(e))} for e in episodes}
    store = mem.ctx.store
    try:
        mem.ingest_episodes(episodes)
        assert check_invariants(store, group, expected_chunks=expected) == []
        store.run("CREATE (c:Chunk {uuid: $u, group_id: $g, episode_uuid: 'gone', kind: 'turn', text: 'x', "
                  "seq: 0})",
                  {"u": unique("orphan"), "g": group})  # fmt: skip
        store.run("MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g SET r.episodes = ['gone']", {"g": group})
        torn = sorted(u for uuids in expected.values() for u in uuids)[0]
        store.run("MATCH (c:Chunk) WHERE c.uuid = $u DETACH DELETE c", {"u": torn})
        first = sorted(expected)[0]
        store.run(
            "MATCH (g:TkgGroup {group_id: $g}), (e:Episodic {uuid: $u}) CREATE (g)-[:HAS_EPISODE]->(e)",
            {"g": group, "u": first},
        )
        bad = " | ".join(check_invariants(store, group, expected_chunks=expected))
        assert f"{first} is anchored 2 times" in bad
        assert "turn chunk" in bad and "points at missing episode gone" in bad
        assert "chunks" in bad.replace("turn chunk", "")  # the torn episode
        assert "cites missing episode(s) ['gone']" in bad
    finally:
        store.named("group.delete", {"group_id": group})
