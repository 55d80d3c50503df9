"""Ingest one file into a store, to be killed with SIGKILL by tests/test_crash_safety.py.

    python tests/reliability/ingest_child.py URL FILE [--stop-at N | --stop-at-tx N]

Prints ``READY`` once the store is open, ``TX n`` as the n-th write transaction begins and
``DONE <report json>`` at the end. With ``--stop-at N`` it freezes right after the N-th
statement run inside a write transaction and prints ``STOP N`` first, so the parent can kill it
mid-transaction at a point it chose. With ``--stop-at-tx N`` it freezes as the N-th write
transaction begins (the ones before it committed) and prints ``STOP TX N``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def freeze_at(n: int) -> None:
    """Patch both adapters' transaction runners to stop the process after the n-th statement."""
    from tkg.stores import kuzu_store, neo4j_store

    count = 0
    for module in (kuzu_store, neo4j_store):
        original = module._Tx.run

        def run(self: Any, query: str, params: Any = None, _original: Any = original) -> Any:
            nonlocal count
            rows = _original(self, query, params)
            count += 1
            if count == n:
                print(f"STOP {count}", flush=True)
                while True:
                    time.sleep(60)
            return rows

        module._Tx.run = run


def mark_transactions(stop_at: int | None = None) -> None:
    """Print ``TX n`` whenever a write transaction begins (its runner object is made); freeze at
    the ``stop_at``-th."""
    from tkg.stores import kuzu_store, neo4j_store

    count = 0
    for module in (kuzu_store, neo4j_store):
        original = module._Tx.__init__

        def init(self: Any, *args: Any, _original: Any = original) -> None:
            nonlocal count
            _original(self, *args)
            count += 1
            print(f"TX {count}", flush=True)
            if count == stop_at:
                print(f"STOP TX {count}", flush=True)
                while True:
                    time.sleep(60)

        module._Tx.__init__ = init


def main(argv: list[str]) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    url, path = argv[0], argv[1]
    mark_transactions(int(argv[3]) if len(argv) == 4 and argv[2] == "--stop-at-tx" else None)
    if len(argv) == 4 and argv[2] == "--stop-at":
        freeze_at(int(argv[3]))
    from tkg.memory import Memory

    mem = Memory.open(url)
    print("READY", flush=True)
    report = mem.ingest(path)
    mem.close()
    print("DONE " + json.dumps(report.to_dict()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
