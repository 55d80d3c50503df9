"""Score the extractor against a labelled JSONL set: precision, recall, F1 per predicate.

Each line: {"id", "split": "dev"|"test", "text", "speaker", "listeners", "when" (ISO),
"facts": [{"subject", "predicate", "object", "polarity", "qualifier", "valid_at"?}],
"history"?: [{"subject", "predicate", "object"}]}. A fact matches when subject and object
agree after `normalize_name`, and predicate, polarity and qualifier are equal; an
expected `valid_at` (a date) is scored separately as time accuracy over matched facts.
Rules are tuned on the dev split only; the test split is the honest number.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tkg.errors import InputError
from tkg.extract.candidate import Candidate
from tkg.extract.engine import extract
from tkg.predicates import PredicateRegistry
from tkg.text import normalize_name
from tkg.timeparse import parse_session_datetime

Key = tuple[str, str, str, str, str]


def _key(subject: str, predicate: str, obj: str, polarity: str, qualifier: str) -> Key:
    return normalize_name(subject), predicate, normalize_name(obj), polarity, qualifier


def load_labelled(path: Path) -> list[dict[str, Any]]:
    """The records of a labelled file, validated enough to score."""
    rows: list[dict[str, Any]] = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read labelled set: {exc}", source=str(path)) from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            for field in ("text", "speaker", "listeners", "when", "facts"):
                row[field]  # noqa: B018 - presence check
        except (ValueError, KeyError) as exc:
            raise InputError(f"bad record: {exc}", source=str(path), position=f"line {n}") from None
        rows.append(row)
    return rows


def _prf(tp: int, fp: int, fn: int) -> dict[str, float | int]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(f, 3), "tp": tp, "fp": fp, "fn": fn}


def _score(rows: Iterable[dict[str, Any]], registry: PredicateRegistry) -> dict[str, Any]:
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    timed = time_ok = 0
    errors: list[dict[str, Any]] = []
    n = 0
    for row in rows:
        n += 1
        history = [Candidate(h["subject"], h["predicate"], h["object"]) for h in row.get("history", [])]
        got = extract(row["text"], speaker=row["speaker"], listeners=row["listeners"],
                      when=parse_session_datetime(row["when"]), registry=registry, history=history)
        got_keys = {_key(c.subject, c.predicate, c.object, c.polarity, c.qualifier): c for c in got}
        want = {
            _key(
                f["subject"], f["predicate"], f["object"], f.get("polarity", "assert"), f.get("qualifier", "")
            ): f
            for f in row["facts"]
        }
        for k, fact in want.items():
            if k in got_keys:
                tp[k[1]] += 1
                if fact.get("valid_at"):
                    timed += 1
                    va = got_keys[k].valid_at
                    time_ok += int(va is not None and va.date().isoformat() == fact["valid_at"])
            else:
                fn[k[1]] += 1
        for k in got_keys.keys() - want.keys():
            fp[k[1]] += 1
        if got_keys.keys() != want.keys():
            errors.append({"id": row.get("id"), "text": row["text"],
                           "missing": sorted(map(list, want.keys() - got_keys.keys())),
                           "extra": sorted(map(list, got_keys.keys() - want.keys()))})
    preds = sorted(set(tp) | set(fp) | set(fn))
    return {
        "sentences": n,
        "overall": _prf(sum(tp.values()), sum(fp.values()), sum(fn.values())),
        "per_predicate": {p: _prf(tp[p], fp[p], fn[p]) for p in preds},
        "time_accuracy": round(time_ok / timed, 3) if timed else None,
        "timed_facts": timed,
        "errors": errors,
    }


def evaluate(
    path: Path, *, registry: PredicateRegistry | None = None, split: str | None = None
) -> dict[str, Any]:
    """Precision/recall/F1 of `extract` on a labelled set, overall, per predicate and per split.

    >>> evaluate(Path("tests/data/extraction_labelled.jsonl"))[  # doctest: +SKIP
    ...     "splits"]["test"]["overall"]["f1"]
    0.9
    """
    reg = registry or PredicateRegistry.load()
    rows = load_labelled(path)
    if split is not None:
        rows = [r for r in rows if r.get("split") == split]
    report = _score(rows, reg)
    splits = sorted({r.get("split", "") for r in rows} - {""})
    report["splits"] = {s: {k: v for k, v in _score([r for r in rows if r.get("split") == s], reg).items()
                            if k != "errors"} for s in splits}
    return report
