"""Responses on disk by a hash of (stage, model, prompt), so re-ingesting or re-asking costs nothing.

Files live under ``$TKG_CACHE_DIR/llm`` (default ``~/.cache/tkg/llm``); ``TKG_LLM_CACHE=0``
turns the cache off. Only valid outputs are stored: the stage calls `put` after parsing.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .providers import Reply, Request


def cache_dir() -> Path | None:
    """Where responses are kept, or None when ``TKG_LLM_CACHE=0``."""
    if os.environ.get("TKG_LLM_CACHE", "1").strip() in {"0", "false", "no", "off"}:
        return None
    base = os.environ.get("TKG_CACHE_DIR") or str(Path.home() / ".cache" / "tkg")
    return Path(base) / "llm"


class ResponseCache:
    """A directory of replies, one JSON file per (stage, model, prompt)."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory

    def _path(self, model: str, request: Request) -> Path:
        key = hashlib.sha256(f"{request.stage}\0{model}\0{request.key()}".encode()).hexdigest()
        return self.dir / key[:2] / f"{key}.json"

    def get(self, model: str, request: Request) -> Reply | None:
        path = self._path(model, request)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Reply(data["text"], int(data["tokens_in"]), int(data["tokens_out"]), model, cached=True)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, model: str, request: Request, reply: Reply) -> None:
        path = self._path(model, request)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"text": reply.text, "tokens_in": reply.tokens_in,
                                   "tokens_out": reply.tokens_out}), encoding="utf-8")
        os.replace(tmp, path)
