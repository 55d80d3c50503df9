"""LoCoMo evidence retrieval: ingest a LoCoMo-shaped file, ask every question, score the turns.

A question is a hit at k when any of its gold ``evidence`` turns is among the first k distinct
turns of ``answer.evidence`` (by source_ref). Categories 1–4 (multi-hop, temporal, open-domain,
single-hop) have their answer in the conversation and make the retrieval numbers; category 5
(adversarial) has none, so it is scored only by how often tkg abstains.

Example::

    >>> with bench_memory(None) as bm:  # doctest: +SKIP
    ...     run = run_locomo(bm, ingest_questions(bm, Path("locomo_dev5.json"), limit=20))
    >>> run.report["retrieval"]["hit@10"]  # doctest: +SKIP
    0.81
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ingest.loaders import load
from ..models import EpisodeInput, Progress, Tick
from .baselines import run_baselines
from .fresh import BenchMemory, finished, machine, other_episodes
from .metrics import (
    RankScore,
    first_hit_rank,
    flat_timings,
    latency_summary,
    mean_timings,
)
from .questions import ANSWERABLE, CATEGORIES, LocomoQuestion, load_questions


@dataclass
class QuestionResult:
    q: LocomoQuestion
    rank: int | None  # first gold turn's rank among distinct evidence turns
    abstained: bool
    mode: str
    procedure: str
    ms: float
    refs: list[str | None]
    answer: str
    stages_ms: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.q.group,
            "question": self.q.question,
            "category": self.q.category,
            "gold": list(self.q.evidence),
            "rank": self.rank,
            "abstained": self.abstained,
            "mode": self.mode,
            "label": self.q.mode,
            "procedure": self.procedure,
            "ms": round(self.ms, 2),
            "refs": self.refs[:10],
            "answer": self.answer,
        }


@dataclass
class LocomoRun:
    report: dict[str, Any]
    results: list[QuestionResult]
    questions: list[LocomoQuestion]
    known: dict[str, set[str]]  # the turn ids each group holds


def ingest_turns(
    bm: BenchMemory, episodes: list[EpisodeInput], tick: Tick | None = None, *, bulk: bool | None = None
) -> dict[str, Any]:
    """Ingest turns into the benchmark store (deleting their groups first on Neo4j); the ingest summary.

    An empty store loads in bulk (indexes built once at the end), as a first import would;
    ``bulk`` in the summary says which way the figures were taken (``bulk=False`` forces row by
    row, to compare).
    """
    wanted = list(dict.fromkeys(e.group for e in episodes))
    removed = bm.forget_groups(wanted) if bm.shared else []
    if removed:
        bm.notes.append(f"deleted {len(removed)} group(s) left by an earlier run before ingesting")
    others = other_episodes(bm, wanted)
    if others:
        bm.notes.append(f"{others} episodes of other groups share this store's indexes")
    bm.embedder.lap()
    report = bm.mem.ingest_episodes(episodes, progress=tick, bulk=(not others) if bulk is None else bulk)
    turns, embedded = report.episodes, bm.embedder.lap()
    return {
        "turns": turns,
        "seconds": report.seconds,
        "turns_per_s": round(turns / report.seconds, 1) if report.seconds else None,
        "embed_s": embedded["embed_s"],
        "embedded_texts": embedded["texts"],
        "embed_share": round(embedded["embed_s"] / report.seconds, 3) if report.seconds else None,
        "chunks": report.chunks,
        "entities": report.entities,
        "facts": report.facts,
        "superseded": report.superseded,
        "skipped_existing": report.skipped_existing,
        "bulk": report.bulk,
        "index_build_s": report.index_build_s,
        "refs": {g: {e.source_ref for e in episodes if e.group == g and e.source_ref} for g in wanted},
        "groups": wanted,
        "other_episodes": others,
        **({"llm": report.llm} if report.llm else {}),
    }


def ask_all(bm: BenchMemory, questions: list[LocomoQuestion], known: dict[str, set[str]],
            tick: Tick | None = None) -> list[QuestionResult]:
    """Ask every question through ``Memory.ask``; one untimed warm-up ask first."""
    if questions:
        bm.mem.ask(questions[0].question, group=questions[0].group)
    bm.embedder.lap()
    out: list[QuestionResult] = []
    for q in questions:
        gold = {e for e in q.evidence if e in known.get(q.group, set())}
        started = time.perf_counter()
        ans = bm.mem.ask(q.question, group=q.group)
        ms = (time.perf_counter() - started) * 1000
        refs = [e.source_ref for e in ans.evidence]
        out.append(QuestionResult(q, first_hit_rank(refs, gold) if gold else None, ans.abstained, ans.mode,
                                  ans.procedure, ms, refs, ans.answer, flat_timings(ans.trace)))
        if tick:
            tick(1)
    return out


def scorable(r: QuestionResult, known: dict[str, set[str]]) -> bool:
    """Answerable (category 1–4) with at least one gold turn that exists in the ingested file."""
    return r.q.category in ANSWERABLE and any(e in known.get(r.q.group, set()) for e in r.q.evidence)


def summarise(results: list[QuestionResult], known: dict[str, set[str]]) -> dict[str, Any]:
    """Retrieval overall / per category / per routed mode, abstention, latency and stage times."""
    overall = RankScore()
    by_cat: dict[int, RankScore] = defaultdict(RankScore)
    by_mode: dict[str, RankScore] = defaultdict(RankScore)
    for r in results:
        if scorable(r, known):
            overall.add(r.rank)
            by_cat[r.q.category].add(r.rank)
            by_mode[r.mode].add(r.rank)
    adversarial = [r for r in results if r.q.category == 5]
    answerable = [r for r in results if r.q.category in ANSWERABLE]
    out: dict[str, Any] = {
        "questions": len(results),
        "retrieval": overall.summary(),
        "by_category": {CATEGORIES[c]: {"category": c, **by_cat[c].summary()} for c in sorted(by_cat)},
        "by_mode": {
            m: {**s.summary(), "routed": sum(1 for r in results if r.mode == m)}
            for m, s in sorted(by_mode.items())
        },
        "abstention": {
            "adversarial_abstained": round(sum(r.abstained for r in adversarial) / len(adversarial), 3)
            if adversarial
            else None,
            "adversarial_n": len(adversarial),
            "false_abstention": round(sum(r.abstained for r in answerable) / len(answerable), 3)
            if answerable
            else None,
            "answerable_n": len(answerable),
        },
        "unscorable": sum(1 for r in answerable if not scorable(r, known)),
        "latency_ms": latency_summary([r.ms for r in results]),
        "latency_by_procedure_ms": {
            p: latency_summary([r.ms for r in results if r.procedure == p])
            for p in sorted({r.procedure for r in results})
        },
        "stage_mean_ms": mean_timings(r.stages_ms for r in results),
    }
    labelled = [r for r in results if r.q.mode]
    if labelled:
        out["router_agreement"] = {
            "agree": round(sum(r.mode == r.q.mode for r in labelled) / len(labelled), 3),
            "n": len(labelled),
        }
    return out


@dataclass
class Ingested:
    """A LoCoMo file's questions with their conversations' turns written into a benchmark store:
    what each question benchmark (`run_locomo`, `run_mcp`) starts from."""

    path: Path
    questions: list[LocomoQuestion]
    machine: dict[str, Any]  # taken at the start: the load while the run happens matters more than after
    ingest: dict[str, Any]  # `ingest_turns`' summary
    known: dict[str, set[str]]  # the turn ids each group holds
    bar: Progress  # the run's progress bars

    @property
    def groups(self) -> set[str]:
        return {q.group for q in self.questions}


def ingest_questions(
    bm: BenchMemory,
    path: Path,
    *,
    samples: int | None = None,
    limit: int | None = None,
    progress: Progress | None = None,
) -> Ingested:
    """The questions of ``path`` (``samples``, ``limit`` as in `load_questions`), their turns ingested.

    ``progress(label, total)`` returns a tick function (a progress bar); None runs silently.
    """
    questions = load_questions(path, samples=samples, limit=limit)
    host = machine()
    groups = {q.group for q in questions}
    bar = progress or (lambda label, total: None)
    episodes = [e for e in load(path).episodes if e.group in groups]
    ingest = ingest_turns(bm, episodes, bar("ingest", len(episodes)))
    known: dict[str, set[str]] = ingest.pop("refs")
    return Ingested(path, questions, host, ingest, known, bar)


def run_locomo(bm: BenchMemory, got: Ingested, *, baselines: bool = False) -> LocomoRun:
    """The whole benchmark on the store ``got`` was ingested into: ask, score (and the baselines on
    the same data)."""
    questions, known = got.questions, got.known
    results = ask_all(bm, questions, known, got.bar("questions", len(questions)))
    query_embed = bm.embedder.lap()
    report: dict[str, Any] = {
        "benchmark": "locomo",
        "file": str(got.path),
        "store": bm.url,
        "backend": bm.backend,
        "machine": got.machine,
        **finished(),
        "model_load_s": bm.model_load_s,
        **summarise(results, known),
        "ingest": got.ingest,
        "query_embed_ms_mean": round(1000 * query_embed["embed_s"] / len(results), 1) if results else None,
        "query_embed_texts": query_embed["texts"],
    }
    if baselines:
        tick = got.bar("baselines", len(questions))
        report["baselines"] = run_baselines(bm, questions, known, report, tick)
    report["notes"] = list(bm.notes)
    return LocomoRun(report, results, questions, known)
