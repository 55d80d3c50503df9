"""`tkg bench soak`: a long randomised run of ingest, ask, state, history and forget across groups.

Short tests prove one property at a time; a soak mixes everything for minutes on one store and
checks, every few operations, what must always hold: each group keeps exactly the episodes it was
given (no loss, no duplicates), every episode is whole, no fact or chunk points at a missing
episode, no edge crosses tenants, every single-valued slot has at most one current value, an
answer's evidence comes from the asked group only, and forgetting one group leaves every other
group byte-for-byte as it was. This module holds the conversation generator and the run; the
checks and snapshots are in `tkg.bench.invariants` (re-exported here). The generator is public
because the reliability tests use it too.

Example::

    >>> result = soak("kuzu:///tmp/tkg-soak.kuzu", minutes=0.5, seed=7)  # doctest: +SKIP
    >>> result["ok"], result["violations"]  # doctest: +SKIP
    (True, [])
"""

from __future__ import annotations

import random
import time
import uuid as _uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..errors import NotFound, TkgError
from ..ingest.chunking import chunk_episode
from ..ingest.prepare import episode_uuid
from ..memory import Memory
from ..models import EpisodeInput
from .invariants import check_invariants, episode_uuids, group_uuids, leftovers, snapshot

if TYPE_CHECKING:
    from ..embed import Embedder

# check_invariants, group_uuids, leftovers and snapshot live in .invariants; kept importable here.
__all__ = [
    "QUESTIONS", "START", "TEMPLATES", "Vocab", "check_invariants", "conversation", "group_uuids",
    "leftovers", "questions", "snapshot", "soak",
]

# --- a small conversation generator --------------------------------------------------------------


@dataclass(frozen=True)
class Vocab:
    """The names a generated conversation draws from (tests pass their own, e.g. from hypothesis)."""

    people: tuple[str, ...] = (
        "Priya", "Marco", "Noor", "Felix", "Ines", "Tomas", "Aiko", "Chidi", "Dana", "Olek",
    )
    cities: tuple[str, ...] = (
        "Leeds", "Lisbon", "Porto", "Glasgow", "Lagos", "Osaka", "Quito", "Bergen", "Tartu", "Cork",
    )
    orgs: tuple[str, ...] = (
        "Northwind", "Globex", "Initech", "Hartley's Bakery", "Umbrella Books", "Acme Tools",
    )
    pets: tuple[str, ...] = ("Biscuit", "Pim", "Mochi", "Rex", "Luna", "Pepper")


# Sentences the extractor turns into facts ({p} another person, {c} a city, {o} an org, {a} a pet).
TEMPLATES: tuple[str, ...] = (
    "I live in {c}.",
    "I moved to {c} last month.",
    "I work at {o}.",
    "I started a new job at {o} this week.",
    "My sister {p} lives in {c}.",
    "My manager is {p}.",
    "{p} grew up in {c}.",
    "I have a dog named {a}.",
    "We talked about the weather in {c} today.",
    "Honestly it was a long day, nothing much happened.",
)
QUESTIONS: tuple[str, ...] = (
    "Where does {s} live?",
    "Where does {s} work?",
    "Who is {s}'s manager?",
    "Where does {s}'s sister live?",
    "How many cities has {s} lived in?",
    "What has {s} been up to?",
    "What pets does {s} have?",
    "Where did {s} live in 2021?",
)
START = datetime(2021, 1, 4, 9, 0, tzinfo=UTC)


def conversation(
    rng: random.Random,
    group: str,
    turns: int,
    *,
    vocab: Vocab | None = None,
    speakers: Sequence[str] | None = None,
    start: datetime = START,
    ref_prefix: str = "t",
) -> list[EpisodeInput]:
    """``turns`` generated turns between two speakers, days apart, with refs ``t1``, ``t2``, ...

    >>> eps = conversation(random.Random(1), "demo", 3)
    >>> [e.source_ref for e in eps], eps[0].group
    (['t1', 't2', 't3'], 'demo')
    """
    v = vocab or Vocab()
    pair = list(speakers) if speakers else rng.sample(v.people, 2)
    out: list[EpisodeInput] = []
    at = start
    for i in range(turns):
        speaker = pair[i % len(pair)]
        others = [p for p in v.people if p not in pair] or list(v.people)
        text = rng.choice(TEMPLATES).format(
            p=rng.choice(others), c=rng.choice(v.cities), o=rng.choice(v.orgs), a=rng.choice(v.pets)
        )
        at += timedelta(days=rng.randint(1, 40), minutes=rng.randint(0, 600))
        out.append(EpisodeInput(
            group=group, speaker=speaker, text=text, timestamp=at, source_ref=f"{ref_prefix}{i + 1}",
            listeners=tuple(p for p in pair if p != speaker), position=f"turn {i + 1}",
        ))  # fmt: skip
    return out


def questions(rng: random.Random, subjects: Sequence[str], n: int) -> list[str]:
    """``n`` questions about the given people, drawn from `QUESTIONS`."""
    return [rng.choice(QUESTIONS).format(s=rng.choice(list(subjects))) for _ in range(n)]


# --- the soak itself -----------------------------------------------------------------------------


@dataclass
class _Group:
    name: str
    script: list[EpisodeInput]
    done: int = 0  # how many of the script's turns are ingested
    speakers: tuple[str, ...] = ()
    episodes: set[str] = field(default_factory=set)


@dataclass
class _Run:
    ops: Counter[str] = field(default_factory=Counter)
    ms: dict[str, list[float]] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    checks: int = 0
    episodes: int = 0
    created: int = 0
    forgotten: int = 0

    def timed(self, op: str, started: float) -> None:
        self.ops[op] += 1
        self.ms.setdefault(op, []).append((time.perf_counter() - started) * 1000)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def soak(
    url: str | None, minutes: float, seed: int, *, embedder: Embedder | None = None, groups: int = 4,
    turns: int = 40, check_every: int = 25, keep: bool = False,
) -> dict[str, Any]:
    """Run random operations on the store at ``url`` for ``minutes``; return the figures.

    Groups are named ``soak-<seed>-<random>-gN`` and forgotten at the end unless ``keep``, so a
    shared server is left as it was. ``ok`` is true when no invariant broke and no operation
    failed. Wire it as ``tkg bench soak --store URL --minutes M --seed S`` and print the JSON.

    >>> soak("kuzu:///tmp/tkg-soak.kuzu", minutes=0.2, seed=1)["ok"]  # doctest: +SKIP
    True
    """
    rng = random.Random(seed)
    prefix = f"soak-{seed}-{_uuid.uuid4().hex[:6]}"
    run = _Run()
    live: dict[str, _Group] = {}
    started = time.perf_counter()
    deadline = started + minutes * 60
    mem = Memory.open(url, embedder=embedder)
    store = mem.ctx.store

    def new_group() -> None:
        name = f"{prefix}-g{run.created}"
        vocab = Vocab()
        script = conversation(rng, name, turns, vocab=vocab)
        live[name] = _Group(name, script, speakers=tuple(dict.fromkeys(e.speaker for e in script)))
        run.created += 1

    def check(g: _Group) -> None:
        run.checks += 1
        done = g.script[: g.done]
        chunks = {episode_uuid(e): {c.uuid for c in chunk_episode(e, episode_uuid(e))} for e in done}
        run.violations += check_invariants(store, g.name, expected_chunks=chunks, registry=mem.ctx.registry)
        stored = episode_uuids(store, g.name)
        if stored != g.episodes:
            run.violations.append(
                f"{g.name}: {len(g.episodes - stored)} episode(s) lost, {len(stored - g.episodes)} unexpected"
            )

    def step() -> None:
        while len(live) < groups:
            new_group()
        g = live[rng.choice(sorted(live))]
        op = rng.choices(["ingest", "reingest", "ask", "state", "history", "forget"], [35, 5, 30, 10, 10, 4])[
            0
        ]
        t = time.perf_counter()
        if op == "ingest" and g.done < len(g.script):
            batch = g.script[g.done : g.done + rng.randint(1, 6)]
            report = mem.ingest_episodes(batch)
            g.done += len(batch)
            g.episodes.update(episode_uuid(e) for e in batch)
            run.episodes += report.episodes
            if report.episodes + report.skipped_existing != len(batch):
                run.violations.append(f"{g.name}: ingest of {len(batch)} turns reported {report.to_dict()}")
        elif op == "reingest" and g.done:
            report = mem.ingest_episodes(g.script[: g.done])
            if report.episodes:
                run.violations.append(f"{g.name}: re-ingest wrote {report.episodes} duplicate episode(s)")
        elif op == "ask" and g.done:
            answer = mem.ask(questions(rng, g.speakers, 1)[0], group=g.name)
            foreign = [
                e for e in answer.evidence if e.group != g.name or (e.episode and e.episode not in g.episodes)
            ]
            if foreign:
                run.violations.append(f"{g.name}: {len(foreign)} evidence item(s) from outside the group")
        elif op in ("state", "history") and g.done:
            who = rng.choice(g.speakers)
            try:
                facts = mem.state(who, group=g.name) if op == "state" else mem.history(who, group=g.name)
            except NotFound:
                facts = []  # nobody of that name was mentioned yet
            if any(f.group_id != g.name or not set(f.episodes) <= g.episodes for f in facts):
                run.violations.append(f"{g.name}: {op} of {who} returned a fact from outside the group")
        elif op == "forget" and len(live) > 1 and g.done:
            others = [n for n in live if n != g.name]
            before = snapshot(store, others)
            mem.forget(g.name)
            del live[g.name]
            run.forgotten += 1
            if snapshot(store, others) != before:
                run.violations.append(f"forgetting {g.name} changed another group")
            if leftovers(store, g.name):
                run.violations.append(f"{g.name}: nodes or edges left after forget")
        else:
            return
        run.timed(op, t)

    try:
        n = 0
        while time.perf_counter() < deadline:
            try:
                step()
            except TkgError as exc:
                run.errors.append(f"{type(exc).__name__}: {exc}")
            n += 1
            if n % check_every == 0:
                for g in list(live.values()):
                    check(g)
        for g in list(live.values()):
            check(g)
    finally:
        if not keep:
            for name in list(live):
                try:
                    mem.forget(name)
                except NotFound:
                    pass
        mem.close()
    return {
        "url": store.url, "seed": seed, "minutes": minutes,
        "seconds": round(time.perf_counter() - started, 1),
        "ops": dict(run.ops), "checks": run.checks, "episodes_ingested": run.episodes,
        "groups_created": run.created, "groups_forgotten": run.forgotten,
        "latency_ms": {op: {"p50": _percentile(v, 0.5), "p95": _percentile(v, 0.95), "max": round(max(v), 1)}
                       for op, v in run.ms.items()},
        "violations": run.violations, "errors": run.errors[:20], "error_count": len(run.errors),
        "ok": not run.violations and not run.errors,
    }  # fmt: skip
