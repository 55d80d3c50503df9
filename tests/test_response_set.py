"""The committed model response set (bench/llm/chat_dev) is what `replay:` can read and tkg accepts.

Each file must parse as the output of the stage its shape names (an extraction window's facts, or
an answer with citations), so a replayed run measures the model and not a malformed file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from procedures.model_answer import AnswerOut
from tkg.ingest.model_extract import WindowOut

SET = Path(__file__).resolve().parent.parent / "bench" / "llm" / "chat_dev"
FILES = sorted(SET.glob("*.response.json"))


def test_the_set_is_there_and_named_by_prompt_hashes() -> None:
    assert len(FILES) > 200
    assert all(len(f.name.split(".")[0]) == 32 and int(f.name[:32], 16) >= 0 for f in FILES)
    assert not list(SET.glob("*.prompt.json")), "prompts quote the data set: keep them out of the repository"


def test_every_response_parses() -> None:
    kinds = {"facts": 0, "answer": 0}
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            (WindowOut if "facts" in data else AnswerOut).model_validate(data)
        except ValidationError as exc:
            pytest.fail(f"{path.name}: {exc}")
        kinds["facts" if "facts" in data else "answer"] += 1
    assert kinds["facts"] >= 60 and kinds["answer"] >= 150
