"""Tokens of recorded prompts (``record:DIR``), per stage, per ingested turn and per question.

Counts with OpenAI's o200k_base encoding (gpt-4o-mini's) when the ``bpe-openai`` package is
importable, else estimates 4 characters a token. A prompt's input is its system and user
messages plus the output schema (OpenAI counts the ``response_format`` schema as input), plus 3
tokens a message and 3 for the reply (OpenAI's chat overhead). Output tokens are not in a
prompt: the cost line prices each call's ``max_tokens`` bound as its output, so it is an upper
bound. Needs only the standard library (and optionally bpe-openai): run it from any Python.

    python3 tools/llm_prompt_tokens.py /tmp/chat-dev-prompts --turns 472 --questions 153
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

PRICES = {"gpt-4o-mini": (0.15, 0.60), "claude-haiku-4-5": (1.00, 5.00)}  # $ per 1M tokens (tkg/llm/usage.py)
MAX_OUT = {"route": 12, "answer": 120}  # the stages' max_tokens; extract: 120 + 90 a turn (model_extract.py)

try:
    import bpe_openai

    _ENC: Any = bpe_openai.get_encoding("o200k_base")
    METHOD = "o200k_base (bpe-openai)"
except ImportError:
    _ENC = None
    METHOD = "estimate: 4 characters a token"


def count(text: str) -> int:
    return len(_ENC.encode(text)) if _ENC is not None else (len(text) + 3) // 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--turns", type=int, required=True, help="turns ingested while recording")
    parser.add_argument("--questions", type=int, required=True, help="questions asked while recording")
    args = parser.parse_args()
    stats: dict[str, dict[str, int]] = defaultdict(lambda: {"prompts": 0, "tokens_in": 0, "max_out": 0})
    for path in sorted(args.dir.glob("*.prompt.json")):
        p = json.loads(path.read_text(encoding="utf-8"))
        schema = p.get("output_schema")
        tokens = count(p["system"]) + count(p["user"]) + 9
        tokens += count(json.dumps(schema["schema"], separators=(",", ":"))) if schema else 0
        s = stats[p["stage"]]
        s["prompts"] += 1
        s["tokens_in"] += tokens
        turns = p["user"].count("\n[t")
        s["max_out"] += MAX_OUT.get(p["stage"], 120 + 90 * turns)
    per_turn = stats["extract"]["tokens_in"] / args.turns if args.turns else 0.0
    asked = stats["route"]["tokens_in"] + stats["answer"]["tokens_in"]
    out: dict[str, Any] = {
        "method": METHOD, "stages": dict(stats),
        "extract_tokens_in_per_turn": round(per_turn, 1),
        "question_tokens_in_per_question": round(asked / args.questions, 1) if args.questions else None,
    }
    total_in = sum(s["tokens_in"] for s in stats.values())
    total_out = sum(s["max_out"] for s in stats.values())
    out["cost_usd_upper_bound"] = {
        m: round((total_in * a + total_out * b) / 1e6, 4) for m, (a, b) in PRICES.items()
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
