"""Answer accuracy on labelled conversations: `tkg bench qa FILE`.

The file is LoCoMo-shaped; each ``qa`` item carries a ``mode`` (one of the routing modes, or
``abstain`` when nothing in the conversation answers it) and a ``key``: groups of lowercase
strings, right when the lowercased answer contains one string of every group. An ``abstain``
question is right when tkg answers "No information available".

Example::

    >>> key_match("Porto, since May", [["porto"], ["may", "2022"]])
    True
    >>> key_match("No information available", [["no information"]])
    True
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..ingest.loaders import load
from ..models import MODES, Progress, Tick
from .fresh import BenchMemory, finished, machine
from .locomo import ingest_turns
from .metrics import (
    RankScore,
    first_hit_rank,
    flat_timings,
    latency_summary,
    mean_timings,
    normalise_evidence,
)

ABSTAIN = "abstain"


def key_match(answer: str, key: Sequence[Sequence[str]]) -> bool:
    """Whether the lowercased answer contains at least one string of every group of the key."""
    low = answer.lower()
    return bool(key) and all(any(alt.lower() in low for alt in group) for group in key)


@dataclass(frozen=True)
class QAItem:
    group: str
    question: str
    mode: str
    key: tuple[tuple[str, ...], ...]
    evidence: tuple[str, ...]
    answer: str


@dataclass
class QAResult:
    item: QAItem
    answer: str
    abstained: bool
    right: bool
    mode: str
    procedure: str
    rank: int | None
    ms: float
    refs: list[str | None]
    trace: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """One question's record (``--details``), with what routing decided."""
        return {
            "group": self.item.group,
            "question": self.item.question,
            "label": self.item.mode,
            "key": [list(g) for g in self.item.key],
            "wanted": self.item.answer,
            "answer": self.answer,
            "right": self.right,
            "abstained": self.abstained,
            "mode": self.mode,
            "procedure": self.procedure,
            "gold": list(self.item.evidence),
            "rank": self.rank,
            "refs": self.refs[:10],
            "ms": round(self.ms, 2),
            "reading": self.trace.get("reading"),
            "abstained_by": self.trace.get("abstained_by"),
            "model": self.trace.get("model"),
            "usage": self.trace.get("usage"),
        }


def load_items(path: Path, *, samples: int | None = None, limit: int | None = None) -> list[QAItem]:
    """The labelled questions of a file; a question without ``mode`` or ``key`` is an input error."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read questions: {exc}", source=str(path)) from None
    out: list[QAItem] = []
    for s, sample in enumerate(([data] if isinstance(data, dict) else data)[: samples or None]):
        qa = sample.get("qa") if isinstance(sample, dict) else None
        for i, item in enumerate((qa or [])[: limit or None]):
            where = f"sample {s}, qa {i}"
            mode, key = item.get("mode"), item.get("key")
            if mode not in (*MODES, ABSTAIN):
                raise InputError(f"{where}: mode must be one of {', '.join((*MODES, ABSTAIN))}, got {mode!r}",
                                 source=str(path))
            if not (isinstance(key, list) and key and all(isinstance(g, list) and g for g in key)):
                raise InputError(f"{where}: key must be a non-empty list of non-empty lists of strings",
                                 source=str(path))
            out.append(
                QAItem(
                    str(sample["sample_id"]),
                    str(item["question"]),
                    mode,
                    tuple(tuple(str(a) for a in g) for g in key),
                    tuple(normalise_evidence(item.get("evidence") or [])),
                    str(item.get("answer", "")),
                )
            )
    if not out:
        raise InputError("no labelled questions (qa with mode and key) in the file", source=str(path))
    return out


def ask_items(bm: BenchMemory, items: list[QAItem], known: dict[str, set[str]],
              tick: Tick | None = None) -> list[QAResult]:
    """Ask every question through ``Memory.ask`` (one untimed warm-up first) and score it."""
    if items:
        bm.mem.ask(items[0].question, group=items[0].group)
    out: list[QAResult] = []
    for it in items:
        started = time.perf_counter()
        ans = bm.mem.ask(it.question, group=it.group)
        ms = (time.perf_counter() - started) * 1000
        refs = [e.source_ref for e in ans.evidence]
        gold = {e for e in it.evidence if e in known.get(it.group, set())}
        out.append(
            QAResult(
                it,
                ans.answer,
                ans.abstained,
                key_match(ans.answer, it.key),
                ans.mode,
                ans.procedure,
                first_hit_rank(refs, gold) if gold else None,
                ms,
                refs,
                ans.trace,
            )
        )
        if tick:
            tick(1)
    return out


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def summarise(results: list[QAResult]) -> dict[str, Any]:
    """Accuracy overall and by mode, abstention, answered precision, mode agreement, evidence hits."""
    by_mode: dict[str, list[QAResult]] = defaultdict(list)
    for r in results:
        by_mode[r.item.mode].append(r)
    abstain = by_mode.get(ABSTAIN, [])
    answerable = [r for r in results if r.item.mode != ABSTAIN]
    answered = [r for r in results if not r.abstained]
    ranks = RankScore()
    for r in answerable:
        if r.item.evidence:
            ranks.add(r.rank)
    hits = ranks.summary()
    return {
        "n": len(results),
        "accuracy": _share(sum(r.right for r in results), len(results)),
        "by_mode": {
            m: {"accuracy": _share(sum(r.right for r in rs), len(rs)), "n": len(rs)}
            for m, rs in sorted(by_mode.items())
        },
        "abstain_right": _share(sum(r.abstained for r in abstain), len(abstain)),
        "answered_precision": _share(sum(r.right for r in answered), len(answered)),
        "false_abstention": _share(sum(r.abstained for r in answerable), len(answerable)),
        "mode_agreement": _share(sum(r.mode == r.item.mode for r in answerable), len(answerable)),
        "evidence_hit@1": hits["hit@1"],
        "evidence_hit@5": hits["hit@5"],
        "evidence_n": hits["n"],
        "latency_ms": latency_summary([r.ms for r in results]),
        "counts": {
            "abstain_questions": len(abstain),
            "answerable": len(answerable),
            "answered": len(answered),
            "abstained": len(results) - len(answered),
        },
    }


def run_qa(bm: BenchMemory, path: Path, items: list[QAItem],
           progress: Progress | None = None) -> tuple[dict[str, Any], list[QAResult]]:
    """Ingest the file's conversations into the benchmark store, ask ``items`` (from :func:`load_items`
    on the same file, read before the store is opened so a bad file writes nothing), score."""
    host = machine()
    bar = progress or (lambda label, total: None)
    groups = {it.group for it in items}
    episodes = [e for e in load(path).episodes if e.group in groups]
    ingest = ingest_turns(bm, episodes, bar("ingest", len(episodes)))
    known: dict[str, set[str]] = ingest.pop("refs")
    results = ask_items(bm, items, known, bar("questions", len(items)))
    report: dict[str, Any] = {"benchmark": "qa", "file": str(path), "store": bm.url, "backend": bm.backend,
                              "machine": host, **finished(), **summarise(results), "ingest": ingest,
                              "stage_mean_ms": mean_timings(flat_timings(r.trace) for r in results),
                              "notes": list(bm.notes)}
    return report, results
