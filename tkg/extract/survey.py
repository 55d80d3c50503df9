"""Run the extractor over a LoCoMo file and count what it finds, for spot-checks.

LoCoMo is chit-chat, so most turns state no fact from the vocabulary; the counts
and sampled (sentence -> fact) pairs show what the rules pick up on real text
and where they misfire. Nothing from the file is kept beyond the returned report.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tkg.errors import InputError
from tkg.extract.candidate import Candidate
from tkg.extract.engine import extract
from tkg.predicates import PredicateRegistry
from tkg.timeparse import parse_session_datetime


def locomo_turns(path: Path, limit: int | None = None) -> list[tuple[str, str, list[str], Any]]:
    """(text, speaker, listeners, when) for each turn of a LoCoMo file, in order."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read LoCoMo file: {exc}", source=str(path)) from None
    turns: list[tuple[str, str, list[str], Any]] = []
    for sample in data if isinstance(data, list) else [data]:
        conv = sample["conversation"]
        people = [conv["speaker_a"], conv["speaker_b"]]
        i = 1
        while f"session_{i}" in conv:
            when = parse_session_datetime(conv[f"session_{i}_date_time"])
            for turn in conv[f"session_{i}"]:
                listeners = [p for p in people if p != turn["speaker"]]
                turns.append((turn["text"], turn["speaker"], listeners, when))
                if limit is not None and len(turns) >= limit:
                    return turns
            i += 1
    return turns


def _fmt(c: Candidate) -> str:
    q = f"[{c.qualifier}]" if c.qualifier else ""
    neg = " (retract)" if c.polarity == "retract" else ""
    t = f" @{c.valid_at.date().isoformat()} ({c.time_text})" if c.valid_at else ""
    return f"{c.subject} {c.predicate}{q} {c.object}{neg}{t}"


def survey_locomo(
    path: Path, *, registry: PredicateRegistry | None = None, examples: int = 5, seed: int = 7
) -> dict[str, Any]:
    """Counts of candidates per predicate over a LoCoMo file, with sampled examples.

    Returns {"counts": {predicate: n}, "examples": {predicate: [(sentence, fact)]},
    "turns": n, "candidates": n, "turns_per_s": x}.

    >>> survey_locomo(Path("locomo_dev5.json"))["counts"]["likes"]  # doctest: +SKIP
    120
    """
    reg = registry or PredicateRegistry.load()
    turns = locomo_turns(path)
    found: dict[str, list[tuple[str, str]]] = {}
    counts: Counter[str] = Counter()
    started = time.perf_counter()
    for text, speaker, listeners, when in turns:
        for c in extract(text, speaker=speaker, listeners=listeners, when=when, registry=reg):
            counts[c.predicate] += 1
            found.setdefault(c.predicate, []).append((c.sentence, _fmt(c)))
    seconds = time.perf_counter() - started
    rng = random.Random(seed)
    return {
        "counts": dict(counts.most_common()),
        "examples": {p: rng.sample(rows, min(examples, len(rows))) for p, rows in sorted(found.items())},
        "turns": len(turns),
        "candidates": sum(counts.values()),
        "turns_per_s": round(len(turns) / seconds, 1) if seconds else None,
    }
