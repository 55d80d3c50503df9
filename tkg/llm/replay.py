"""`record:DIR` and `replay:DIR`: prompts as files, so the model path runs and is measured offline.

Layout (tkg/llm/README.md): ``DIR/<hash>.prompt.json`` holds exactly what a model would see
(stage, system and user messages, the required output schema); ``DIR/<hash>.response.json``
beside it holds the model's output (the JSON object the schema asks for, or ``{"text": ...}``
for a free-text prompt). The hash covers stage, messages and schema (`Request.key`), not the
model, so one response set serves whichever model wrote it.

`record:` writes each prompt that has no response yet and raises `Deferred`, which every
stage treats as "answer offline this time"; `replay:` answers from the files and raises
`ReplayMissing` (not a fallback: the run is incomplete) when a response is absent.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tkg.errors import ConfigError, ProviderError, TkgError

from .providers import Reply, Request, estimate_tokens


class Deferred(ProviderError):
    """`record:` wrote the prompt; the stage answers offline this time."""


class ReplayMissing(TkgError):
    """`replay:` has no response for a prompt: the response set does not cover this run."""


def _write_atomic(path: Path, data: Any) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1)
    os.replace(tmp, path)


def read_response(path: Path) -> str:
    """The output text of a response file: a JSON object as compact JSON, ``{"text": s}`` as ``s``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: not a readable JSON response file ({exc})") from None
    if isinstance(data, dict) and set(data) == {"text"} and isinstance(data["text"], str):
        return data["text"]
    return json.dumps(data, ensure_ascii=False)


class _Files:
    kind = ""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory).expanduser()
        self.name = f"{self.kind}:{self.dir}"

    def paths(self, request: Request) -> tuple[Path, Path]:
        key = request.key()
        return self.dir / f"{key}.prompt.json", self.dir / f"{key}.response.json"

    def _reply(self, request: Request, response: Path) -> Reply:
        text = read_response(response)
        prompt = json.dumps(request.payload(), ensure_ascii=False)
        return Reply(text, estimate_tokens(prompt), estimate_tokens(text), self.name, estimated=True)


class RecordBackend(_Files):
    """Writes prompts with no response to DIR and defers; answers from DIR where a response exists."""

    kind = "record"

    def __init__(self, directory: str | Path) -> None:
        super().__init__(directory)
        self.dir.mkdir(parents=True, exist_ok=True)

    def call(self, request: Request) -> Reply:
        prompt, response = self.paths(request)
        if response.exists():
            return self._reply(request, response)
        if not prompt.exists():
            _write_atomic(prompt, request.payload())
        raise Deferred(f"recorded {prompt.name} for stage {request.stage}; answered offline")


class ReplayBackend(_Files):
    """Answers every prompt from DIR; a prompt with no response file is an error."""

    kind = "replay"

    def __init__(self, directory: str | Path) -> None:
        super().__init__(directory)
        if not self.dir.is_dir():
            raise ConfigError(f"replay: {self.dir} is not a directory of recorded responses")

    def call(self, request: Request) -> Reply:
        prompt, response = self.paths(request)
        if not response.exists():
            raise ReplayMissing(
                f"replay:{self.dir} has no response for the {request.stage} prompt {prompt.name}"
                f" (record it with record:{self.dir}, then add {response.name})")
        return self._reply(request, response)
