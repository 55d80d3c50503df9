"""Tokens in and out per call, summed per stage and model, and what they cost at list prices.

A `UsageLog` collects the calls of one ingest or one question (thread-safe: extraction windows
run concurrently). `PRICES` are US dollars per million tokens, the providers' list prices:
gpt-4o-mini $0.15 in / $0.60 out (platform.openai.com/docs/pricing), claude-haiku-4-5
$1.00 in / $5.00 out (anthropic.com/pricing). ``TKG_LLM_PRICES=prices.toml`` overrides or adds
models (``[models."gpt-4o-mini"]`` with ``input`` and ``output``, dollars per million tokens).
"""

from __future__ import annotations

import os
import threading
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tkg.errors import ConfigError

from .providers import Reply

PRICES: dict[str, tuple[float, float]] = {"gpt-4o-mini": (0.15, 0.60), "claude-haiku-4-5": (1.00, 5.00)}
FIELDS = ("calls", "cached", "fallbacks", "tokens_in", "tokens_out")


class UsageLog:
    """Calls of one unit of work (an ingest, a question), by (stage, model)."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], dict[str, int]] = {}
        self._lock = threading.Lock()

    def _row(self, stage: str, model: str) -> dict[str, int]:
        return self._rows.setdefault((stage, model), dict.fromkeys(FIELDS, 0))

    def add(self, stage: str, reply: Reply) -> None:
        with self._lock:
            row = self._row(stage, reply.model)
            row["calls"] += 1
            row["cached"] += int(reply.cached)
            row["tokens_in"] += reply.tokens_in
            row["tokens_out"] += reply.tokens_out

    def fallback(self, stage: str, model: str) -> None:
        with self._lock:
            self._row(stage, model)["fallbacks"] += 1

    def rows(self) -> list[dict[str, Any]]:
        with self._lock:
            return [{"stage": s, "model": m, **v} for (s, m), v in sorted(self._rows.items())]

    def merge(self, rows: Iterable[Mapping[str, Any]]) -> None:
        with self._lock:
            for r in rows:
                row = self._row(str(r["stage"]), str(r["model"]))
                for f in FIELDS:
                    row[f] += int(r.get(f) or 0)

    def __bool__(self) -> bool:
        return bool(self._rows)


# every call this process made, and every call that failed or was deferred (``fallbacks``), for
# reports that span many Memory calls (benches)
PROCESS = UsageLog()


def load_prices(path: Path | None = None) -> dict[str, tuple[float, float]]:
    """The default list prices, overridden by ``path`` (or ``TKG_LLM_PRICES``) when given."""
    prices = dict(PRICES)
    path = path or (Path(os.environ["TKG_LLM_PRICES"]) if os.environ.get("TKG_LLM_PRICES") else None)
    if path is None:
        return prices
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("models", {})
        for model, p in table.items():
            prices[str(model)] = (float(p["input"]), float(p["output"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(
            f'{path}: a price table needs [models."NAME"] with input and output ({exc})'
        ) from None
    return prices


def price_of(model: str, prices: Mapping[str, tuple[float, float]]) -> tuple[float, float] | None:
    """The price of ``model`` (a spec such as ``openai:gpt-4o-mini@url`` or a bare name), if listed."""
    bare = model.split(":", 1)[-1].split("@", 1)[0]
    return prices.get(model) or prices.get(bare)


def summarize(rows: Iterable[Mapping[str, Any]], prices: Mapping[str, tuple[float, float]] | None = None,
              ) -> dict[str, Any]:
    """Totals per stage, overall, and the cost of the tokens at each listed price.

    ``cost_usd`` prices the calls at their own model's price where it is listed;
    ``at_list_prices`` prices all tokens at each default model's price (what the run would cost
    with that model), so record/replay runs are costed too.
    """
    prices = prices if prices is not None else load_prices()
    per_stage: dict[str, dict[str, int]] = {}
    cost = 0.0
    for r in rows:
        stage = per_stage.setdefault(str(r["stage"]), dict.fromkeys(FIELDS, 0))
        for f in FIELDS:
            stage[f] += int(r.get(f) or 0)
        price = price_of(str(r["model"]), prices)
        if price:
            cost += (int(r.get("tokens_in") or 0) * price[0] + int(r.get("tokens_out") or 0) * price[1]) / 1e6
    total = {f: sum(s[f] for s in per_stage.values()) for f in FIELDS}
    at_list = {m: round((total["tokens_in"] * p[0] + total["tokens_out"] * p[1]) / 1e6, 6)
               for m, p in prices.items()}
    return {"stages": per_stage, "total": total, "cost_usd": round(cost, 6), "at_list_prices": at_list}
