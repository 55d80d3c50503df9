"""The questions of a LoCoMo-shaped file: each with its group, category and gold evidence turns.

The LoCoMo run (`locomo.py`), its baselines (`baselines.py`), the peers and the MCP cost bench
all read questions this way; categories 1–4 have their answer in the conversation, 5 does not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from .metrics import normalise_evidence

CATEGORIES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
ANSWERABLE = (1, 2, 3, 4)


@dataclass(frozen=True)
class LocomoQuestion:
    group: str  # the sample_id
    question: str
    category: int
    evidence: tuple[str, ...]  # normalised gold turn ids
    answer: str = ""
    mode: str | None = None  # a routing label, when the file carries one


def load_questions(
    path: Path, *, samples: int | None = None, limit: int | None = None
) -> list[LocomoQuestion]:
    """The ``qa`` items of a LoCoMo-shaped file (the first ``samples`` samples, ``limit`` questions each)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read LoCoMo questions: {exc}", source=str(path)) from None
    items = [data] if isinstance(data, dict) else data
    out: list[LocomoQuestion] = []
    for sample in items[: samples or None]:
        qa = (sample.get("qa") or []) if isinstance(sample, dict) else []
        for item in qa[: limit or None]:
            try:
                category = int(item.get("category", 0))
            except (TypeError, ValueError):
                category = 0
            out.append(LocomoQuestion(
                group=str(sample["sample_id"]), question=str(item["question"]), category=category,
                evidence=tuple(normalise_evidence(item.get("evidence") or [])),
                answer=str(item.get("answer", item.get("adversarial_answer", ""))), mode=item.get("mode"),
            ))
    if not out:
        raise InputError("no questions (qa) in the file", source=str(path))
    return out
