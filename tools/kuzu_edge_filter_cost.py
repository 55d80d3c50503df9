"""Cost of a key-started hop in Kuzu 0.11.3 with its edge filter in the MATCH's WHERE or after a WITH.

Why tkg's edge reads say ``MATCH (s {uuid: $k})-[r]->(o) WITH s, r, o WHERE r.name = ...``
(cypher/ops/README.md): Kuzu pushes a WHERE on edge properties into the edge scan, which then
costs several times more than scanning the node's few edges and filtering them after a WITH.
Both forms return the same rows; the numbers are milliseconds per hop from one entity's key.

    python3 tools/kuzu_edge_filter_cost.py --entities 20000 --edges 50000 --hops 300
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import kuzu

PREDICATES = ["lives_in", "works_at", "reports_to", "has_pet", "likes", "job_title", "partner_of", "visited"]
RETURNS = (
    "r.uuid AS uuid, o.uuid AS object_uuid, o.name AS object, r.qualifier AS qualifier, r.fact AS fact, "
    "r.version AS version, r.valid_at AS valid_at, r.invalid_at AS invalid_at, r.created_at AS created_at, "
    "r.expired_at AS expired_at, r.episodes AS episodes, r.source_ref AS source_ref, "
    "r.confidence AS confidence, r.supersedes AS supersedes"
)
FILTER = "r.group_id = $group_id AND r.name = $predicate AND r.invalid_at IS NULL AND r.expired_at IS NULL"
FORMS = {
    "where": f"MATCH (s:Entity {{uuid: $key}})-[r:RELATES_TO]->(o:Entity) WHERE {FILTER} RETURN {RETURNS}",
    "with_where": f"MATCH (s:Entity {{uuid: $key}})-[r:RELATES_TO]->(o:Entity) WITH s, r, o WHERE {FILTER} "
                  f"RETURN {RETURNS}",
}


def build(conn: kuzu.Connection, entities: int, edges: int, groups: int, rng: random.Random) -> None:
    conn.execute("CREATE NODE TABLE Entity(uuid STRING PRIMARY KEY, group_id STRING, name STRING)")
    conn.execute(
        "CREATE REL TABLE RELATES_TO(FROM Entity TO Entity, uuid STRING, group_id STRING, name STRING, "
        "fact STRING, qualifier STRING, episodes STRING[], source_ref STRING, version INT64, "
        "confidence DOUBLE, supersedes STRING, valid_at TIMESTAMP, invalid_at TIMESTAMP, "
        "created_at TIMESTAMP, expired_at TIMESTAMP)"
    )
    nodes = [{"uuid": f"e{i}", "group_id": f"g{i % groups}", "name": f"name {i}"} for i in range(entities)]
    conn.execute(
        "UNWIND $rows AS n CREATE (:Entity {uuid: n.uuid, group_id: n.group_id, name: n.name})",
        {"rows": nodes},
    )
    t0 = datetime(2023, 1, 1)
    rels = []
    for j in range(edges):
        s = rng.randrange(entities)
        o = s + groups * rng.randrange(1, 40)  # same group
        closed = rng.random() < 0.4
        rels.append(
            {
                "s": f"e{s}",
                "o": f"e{o % entities}",
                "uuid": f"r{j}",
                "group_id": f"g{s % groups}",
                "name": rng.choice(PREDICATES),
                "fact": f"fact {j} " * 4,
                "qualifier": "",
                "episodes": [f"ep{j}"],
                "source_ref": f"D1:{j}",
                "version": 1,
                "confidence": 0.9,
                "supersedes": "",
                "valid_at": t0 + timedelta(hours=j),
                "invalid_at": t0 + timedelta(hours=j + 5) if closed else None,
                "created_at": t0,
                "expired_at": t0 + timedelta(hours=j + 5) if closed else None,
            }
        )
    conn.execute(
        "UNWIND $rows AS x MATCH (s:Entity {uuid: x.s}), (o:Entity {uuid: x.o}) "
        "CREATE (s)-[:RELATES_TO {uuid: x.uuid, group_id: x.group_id, name: x.name, fact: x.fact, "
        "qualifier: x.qualifier, episodes: x.episodes, source_ref: x.source_ref, version: x.version, "
        "confidence: x.confidence, supersedes: x.supersedes, valid_at: x.valid_at, "
        "invalid_at: CAST(x.invalid_at AS TIMESTAMP), created_at: x.created_at, "
        "expired_at: CAST(x.expired_at AS TIMESTAMP)}]->(o)",
        {"rows": rels},
    )
    conn.execute("CHECKPOINT")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--entities", type=int, default=20000)
    p.add_argument("--edges", type=int, default=50000)
    p.add_argument("--groups", type=int, default=50)
    p.add_argument("--hops", type=int, default=300)
    a = p.parse_args()
    rng = random.Random(0)
    conn = kuzu.Connection(kuzu.Database(str(Path(tempfile.mkdtemp()) / "hop.kuzu")))
    build(conn, a.entities, a.edges, a.groups, rng)
    keys = [rng.randrange(a.entities) for _ in range(a.hops)]
    params = [
        {"key": f"e{k}", "group_id": f"g{k % a.groups}", "predicate": rng.choice(PREDICATES)} for k in keys
    ]
    found: dict[str, list[int]] = {}
    for name, query in FORMS.items():
        prepared = conn._prepare(query, params[0])  # the public prepare() only adds a DeprecationWarning
        ms, rows = [], []
        for rep in range(2):  # the first pass warms the buffer pool; the second is timed
            for ps in params:
                t = time.perf_counter()
                result = conn.execute(prepared, ps)
                got = result.get_all()  # type: ignore[union-attr]
                if rep:
                    ms.append((time.perf_counter() - t) * 1000)
                    rows.append(len(got))
        found[name] = rows
        print(f"{name:11s} mean {statistics.mean(ms):5.2f} ms  p50 {statistics.median(ms):5.2f}  "
              f"p95 {sorted(ms)[int(0.95 * len(ms))]:5.2f}  rows {sum(rows)}")
    print("same rows per hop:", len({tuple(v) for v in found.values()}) == 1)


if __name__ == "__main__":
    main()
