"""Record the prompts the model stages would send for a LoCoMo-shaped set, without a model.

Ingests the file into a fresh Kuzu store with ``extract=record:DIR`` and asks every ``qa``
question with ``route`` and ``answer`` set to ``record:DIR``: each prompt lands in DIR as
``<hash>.prompt.json`` (tkg/llm/README.md) while tkg answers offline. Prints the turns and
questions seen; ``tools/llm_prompt_tokens.py DIR --turns N --questions Q`` then counts tokens.

    python3 tools/llm_record_prompts.py /work/shared/data/chat/chat_dev.json /tmp/chat-dev-prompts
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tkg.memory import Memory  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    record = f"record:{args.out}"
    stages = {"extract": record, "route": record, "answer": record}
    with tempfile.TemporaryDirectory() as tmp, Memory.open(f"kuzu://{tmp}/rec.kuzu", llm=stages) as mem:
        report = mem.ingest(args.data)
        questions = 0
        for conv in json.loads(args.data.read_text(encoding="utf-8")):
            for qa in conv.get("qa", []):
                mem.ask(qa["question"], group=conv["sample_id"])
                questions += 1
    print(
        json.dumps({"turns": report.episodes, "questions": questions, "extract": report.llm.get("extract")})
    )


if __name__ == "__main__":
    main()
