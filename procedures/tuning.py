"""Retrieval knobs that are not part of a payload: how far the index search over-fetches
(`procedures.search`) and how the ranked lists are fused, boosted and widened
(`procedures.retrieval`). Both modules read one `Tuning`; neither owns it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .fusion import Normaliser


@dataclass(frozen=True)
class Tuning:
    """Retrieval knobs that are not part of a payload. Defaults: the best measured on LoCoMo dev
    (tools/dev_locomo_eval.py; evidence-turn Hit@10 / MRR, see the report in the docstring there)."""

    per_list: int = 40  # candidates kept per ranked list (after the group filter)
    k_fetch_factor: int = 4  # first over-fetch: per_list * factor rows from the shared index
    k_fetch_max: int = 4096
    max_retries: int = 3
    learn_share: bool = True  # size the first fetch from the share the group kept last time
    normaliser: Normaliser = "z"  # how "score" fusion calibrates each list (z beat minmax)
    pool: bool = False  # calibrate against all lists of a modality pooled (measured: no gain)
    rrf_k: int = 60
    bm25_k1: float = 1.2  # Kuzu only: Lucene's are fixed per index
    bm25_b: float = 0.2  # turn BM25 Hit@10: b=0.75 0.643, 0.3 0.676, 0.2 0.688
    text_weight: float = 1.0  # BM25 lists; multiplies the payload's per-index weight
    vector_weight: float = 1.0  # dense lists
    speaker_boost: float = 0.3  # extra share for turns said by a person the question names
    date_boost: float = 2.0  # extra share for turns said on / about the calendar date it names
    date_slack_days: float = 1.0
    neighbour_decay: float = 0.5  # a neighbour d turns away joins at decay**d of its hit's score
    context_weight: float = 0.3  # share of a neighbouring hit's score a hit gains
    context_radius: int | None = 2  # turns either side that lend score; None: payload.neighbours
    dense_text: Literal["question", "declarative"] = "question"  # declarative measured worse
    window: int = 3  # depth * window fused turns are read, so boosts and context can reorder
