"""Hold a Kuzu database open from another process until stdin closes (tests/test_faults.py).

    python tests/reliability/hold_kuzu.py PATH

Prints ``READY`` once the database is open (and so locked against other processes).
"""

from __future__ import annotations

import sys


def main(path: str) -> int:
    from tkg.stores.kuzu_store import KuzuStore

    store = KuzuStore(path)
    store.ensure_schema(384)
    print("READY", flush=True)
    sys.stdin.read()  # until the parent closes our stdin
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
