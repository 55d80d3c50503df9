"""Cost of inserting one chunk row into Kuzu 0.11.3, by which indexes the table carries.

Why ingest is slow on Kuzu (BENCHMARKS.md, "Ingest"): this isolates the store's own cost of a
Chunk-like row (a sentence of text, a 384-float vector) from tkg's pipeline. It inserts N rows in
transactions of 140 rows, K rows per CREATE statement, into a table with both indexes, the
full-text index only, the vector index only, or none (then builds both at the end: "bulk").
It also checks that the full-text index finds each sampled row by a word only it contains.

    python3 tools/kuzu_insert_cost.py --rows 1500 --per-statement 1
    python3 tools/kuzu_insert_cost.py --indexes none --unwind      # bulk: build the indexes after

Kuzu 0.11.3 mis-indexes multi-row UNWIND creates into a full-text indexed table (``--unwind``
with the full-text index shows ``fts_wrong`` > 0), which is why tkg writes one chunk per statement.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import kuzu
import numpy as np

WORDS = ("paint dog cat Lisbon moved adopted guitar concert sister pottery camping lake museum book novel "
         "run").split()
FTS = "CALL CREATE_FTS_INDEX('Chunk', 'fts', ['search_text'], stemmer := 'english')"
VEC = (
    "CALL CREATE_VECTOR_INDEX('Chunk', 'vec', 'embedding', metric := 'cosine', mu := 16, ml := 32, efc := 64)"
)


def tag(i: int) -> str:
    return "zq" + "".join(chr(97 + int(d)) for d in str(i)) + "x"  # a word only row i has


def rows_of(conn: kuzu.Connection, query: str, params: dict[str, Any]) -> list[list[Any]]:
    result = conn.execute(query, params)
    assert isinstance(result, kuzu.QueryResult)
    return [list(r) for r in result.get_all()]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1500)
    p.add_argument("--per-statement", type=int, default=1, help="rows per CREATE statement (divides 140)")
    p.add_argument("--indexes", choices=["both", "fts", "vector", "none"], default="both")
    p.add_argument("--unwind", action="store_true", help="one UNWIND statement per transaction")
    a = p.parse_args()
    rng = random.Random(0)
    rows = [{"uuid": f"c{i}", "t": " ".join(rng.choice(WORDS) for _ in range(12)) + " " + tag(i),
             "e": (lambda v: (v / np.linalg.norm(v)).tolist())(
                 np.random.default_rng(i).standard_normal(384).astype(np.float32))}
            for i in range(a.rows)]  # fmt: skip
    db = kuzu.Database(str(Path(tempfile.mkdtemp()) / "cost.kuzu"))
    conn = kuzu.Connection(db)
    conn.execute("CREATE NODE TABLE Chunk(uuid STRING PRIMARY KEY, search_text STRING, embedding FLOAT[384])")
    if a.indexes in ("both", "fts"):
        conn.execute(FTS)
    if a.indexes in ("both", "vector"):
        conn.execute(VEC)
    k = a.per_statement
    one = " ".join(f"CREATE (:Chunk {{uuid: $u{j}, search_text: $t{j}, embedding: $e{j}}})" for j in range(k))
    many = "UNWIND $rows AS r CREATE (:Chunk {uuid: r.uuid, search_text: r.t, embedding: r.e})"
    started = time.perf_counter()
    for s in range(0, a.rows, 140):
        batch = rows[s : s + 140]
        conn.execute("BEGIN TRANSACTION")
        if a.unwind:
            conn.execute(many, {"rows": batch})
        else:
            for b in range(0, len(batch) - len(batch) % k, k):
                conn.execute(
                    one,
                    {
                        f"{x}{j}": batch[b + j][y]
                        for j in range(k)
                        for x, y in (("u", "uuid"), ("t", "t"), ("e", "e"))
                    },
                )
        conn.execute("COMMIT")
    inserted = time.perf_counter() - started
    started = time.perf_counter()
    if a.indexes == "none":
        conn.execute(FTS)
        conn.execute(VEC)
    built = time.perf_counter() - started
    n = int(rows_of(conn, "MATCH (c:Chunk) RETURN count(*)", {})[0][0])
    wrong = 0
    sample = rng.sample(range(n), min(50, n)) if a.indexes != "vector" else []  # no full-text index to ask
    for i in sample:
        got = rows_of(conn, "CALL QUERY_FTS_INDEX('Chunk', 'fts', $q) RETURN node.uuid", {"q": tag(i)})
        wrong += [g[0] for g in got] != [f"c{i}"]
    print(
        f"indexes={a.indexes} per_statement={k} unwind={a.unwind} rows={n}: insert {inserted:.2f} s, "
        f"index build {built:.2f} s, {1000 * (inserted + built) / n:.2f} ms/row; fts_wrong "
        f"{wrong}/{len(sample)}"
    )


if __name__ == "__main__":
    main()
