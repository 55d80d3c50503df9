"""What a stored embedding costs Kuzu 0.11.3 as a list parameter against the same vector as text.

Ingest writes a 384-float vector with every chunk, fact and entity. Kuzu's Python driver converts
a list parameter float by float; tkg's Kuzu adapter sends a stored vector (``tkg.models.Vector``)
as ``[x,y,...]`` text instead, which the writing statements cast (``CAST(x AS FLOAT[])``). This
inserts ROWS rows a statement (``UNWIND``), ROUNDS times each way, alternating, into a table without
indexes, and prints the milliseconds a statement spends in Kuzu and in Python (making the text
with the adapter's own formatter), then checks that every vector read back equals its float32.

    python3 tools/kuzu_vector_param_cost.py
    python3 tools/kuzu_vector_param_cost.py --rows 32 --rounds 40 --dim 384
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import kuzu
import numpy as np

from tkg.models import Vector
from tkg.stores.kuzu_values import vector_text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--rows",
        type=int,
        default=128,
        help="rows a statement (ingest writes about 128 chunks a transaction)",
    )
    ap.add_argument("--rounds", type=int, default=20, help="statements each way")
    ap.add_argument("--dim", type=int, default=384)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        db = kuzu.Database(str(Path(tmp) / "v.kuzu"))
        conn = kuzu.Connection(db)
        conn.execute(f"CREATE NODE TABLE C(uuid STRING, v FLOAT[{int(args.dim)}], PRIMARY KEY(uuid))")
        statements = {"list": "UNWIND $rows AS r CREATE (:C {uuid: r.uuid, v: r.v})",
                      "text": "UNWIND $rows AS r CREATE (:C {uuid: r.uuid, v: CAST(r.v AS FLOAT[])})"}
        spent = {way: [0.0, 0.0] for way in statements}  # kuzu s, python s
        written: dict[str, np.ndarray] = {}
        for round_ in range(args.rounds):
            for way, query in statements.items():
                matrix = rng.random((args.rows, args.dim), dtype=np.float32)
                started = time.perf_counter()
                rows = []
                for i, vector in enumerate(matrix):
                    uuid = f"{way}-{round_}-{i}"
                    written[uuid] = vector
                    values = vector.tolist()
                    rows.append(
                        {"uuid": uuid, "v": vector_text(Vector(values)) if way == "text" else values}
                    )
                made = time.perf_counter()
                conn.execute(query, {"rows": rows})
                spent[way][0] += time.perf_counter() - made
                spent[way][1] += made - started
        result = conn.execute("MATCH (c:C) RETURN c.uuid, c.v")
        assert isinstance(result, kuzu.QueryResult)
        exact = all(np.array_equal(np.asarray(v, dtype=np.float32), written[u]) for u, v in result.get_all())
    print(f"{args.rows} rows of {args.dim} floats a statement, {args.rounds} statements each way")
    for way, (in_kuzu, in_python) in spent.items():
        print(
            f"{way:5s} kuzu {1000 * in_kuzu / args.rounds:7.1f} ms  python "
            f"{1000 * in_python / args.rounds:6.1f} ms"
        )
    print("every vector read back exactly:", exact)


if __name__ == "__main__":
    main()
