"""Print the facts the rule extractor reads off each conversation of a LoCoMo-shaped file.

For looking at what the rules find and miss on a development set; prints to stdout only
(nothing derived from the data is written). History is passed the way ingest passes it.

    python3 tools/extract_dump.py ../shared/data/chat/chat_dev.json [--sample dev-c1]
"""

from __future__ import annotations

import argparse
import json
from collections import deque
from pathlib import Path

from tkg.extract import extract
from tkg.predicates import PredicateRegistry
from tkg.timeparse import parse_session_datetime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", type=Path)
    ap.add_argument("--sample", default=None)
    ap.add_argument("--turns", action="store_true", help="print every turn, not only those with facts")
    args = ap.parse_args()
    reg = PredicateRegistry.load()
    data = json.loads(args.path.read_text(encoding="utf-8"))
    total = 0
    for conv in data:
        if args.sample and conv["sample_id"] != args.sample:
            continue
        c = conv["conversation"]
        speakers = [c["speaker_a"], c["speaker_b"]]
        print(f"== {conv['sample_id']}")
        recent: deque = deque(maxlen=40)
        n = 1
        while f"session_{n}" in c:
            when = parse_session_datetime(c[f"session_{n}_date_time"])
            for turn in c[f"session_{n}"]:
                other = [s for s in speakers if s != turn["speaker"]]
                got = extract(turn["text"], speaker=turn["speaker"], listeners=other, when=when, registry=reg,
                              history=tuple(recent))
                recent.extend(g for g in got if g.polarity == "assert")
                if got or args.turns:
                    print(f"  {turn['dia_id']} {turn['speaker']}: {turn['text'][:200]}")
                for g in got:
                    total += 1
                    sign = "-" if g.polarity == "retract" else "+"
                    q = f"[{g.qualifier}]" if g.qualifier else ""
                    print(f"      {sign} {g.subject} {g.predicate}{q} {g.object!r}")
            n += 1
    print(f"facts: {total}")


if __name__ == "__main__":
    main()
