"""What must always hold in a group's subgraph, and whole-graph snapshots to compare over time.

`check_invariants` reads one group back and lists what is wrong: lost or duplicated episodes,
episodes missing chunks, facts or chunks pointing at missing episodes, edges crossing tenants,
single-valued slots with two current values. `snapshot` captures every node, edge and property
of some groups so "forgetting one group left the others byte-for-byte as they were" is one
equality. The soak (`tkg.bench.soak`, which re-exports these) and the reliability tests use them.

Example::

    >>> check_invariants(store, "priya-marco")  # doctest: +SKIP
    []
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..cypher import load_check
from ..stores.base import GraphStore

if TYPE_CHECKING:
    from ..predicates import PredicateRegistry

__all__ = ["check_invariants", "episode_uuids", "group_uuids", "leftovers", "snapshot"]

# --- reading a group back ------------------------------------------------------------------------

def _rows(store: GraphStore, name: str, group: str) -> list[dict[str, Any]]:
    """One check query of cypher/checks (written apart from the ops under test) for ``group``."""
    return store.read(load_check(name), {"group_id": group})


def group_uuids(store: GraphStore, group: str) -> set[str]:
    """Every uuid a group owns: episodes, chunks (fact shadows too), entities and fact edges."""
    out: set[str] = set()
    for name in ("episodes", "chunks", "entities", "facts"):
        out.update(r["uuid"] for r in _rows(store, name, group))
    return out


def episode_uuids(store: GraphStore, group: str) -> set[str]:
    """The uuids of the episodes stored for ``group``."""
    return {r["uuid"] for r in _rows(store, "episodes", group)}


def check_invariants(
    store: GraphStore, group: str, *, expected_chunks: dict[str, set[str]] | None = None,
    registry: PredicateRegistry | None = None,
) -> list[str]:
    """What is wrong with one group's subgraph, as readable lines; ``[]`` when it is whole.

    ``expected_chunks`` (episode uuid → its turn/sentence chunk uuids, from `chunk_episode`)
    makes "every episode has all its chunks" exact; without it an episode needs one turn chunk.
    With ``registry``, a single-valued slot with two current values is reported too.
    """
    bad: list[str] = []
    episodes = _rows(store, "episodes", group)
    uuids = [r["uuid"] for r in episodes]
    known = set(uuids)
    if len(known) != len(uuids):
        bad.append(f"{group}: {len(uuids) - len(known)} duplicate episode uuid(s)")
    hashes = Counter(r["content_hash"] for r in episodes)
    bad += [f"{group}: {n} episodes with the same content {h[:12]}" for h, n in hashes.items() if n > 1]
    seqs = Counter(r["seq"] for r in episodes)
    bad += [f"{group}: seq {s} used by {n} episodes" for s, n in seqs.items() if n > 1]
    chunks = _rows(store, "chunks", group)
    own: dict[str, set[str]] = {}
    for c in chunks:
        if c["episode"] not in known:
            bad.append(f"{group}: {c['kind']} chunk {c['uuid']} points at missing episode {c['episode']}")
        if c["kind"] != "fact":
            own.setdefault(c["episode"], set()).add(c["uuid"])
    linked: dict[str, set[str]] = {}
    for h in _rows(store, "has_chunk", group):
        if not h["a"] == h["b"] == h["r"] == group:
            bad.append(
                f"{group}: HAS_CHUNK {h['episode']}→{h['chunk']} crosses groups ({h['a']}, {h['b']}, "
                f"{h['r']})"
            )
        linked.setdefault(h["episode"], set()).add(h["chunk"])
    for ep in uuids:
        have = own.get(ep, set())
        want = expected_chunks.get(ep) if expected_chunks is not None else None
        if want is not None and have != want:
            bad.append(f"{group}: episode {ep} has {len(have)} of its {len(want)} chunks")
        elif not have:
            bad.append(f"{group}: episode {ep} has no chunks")
        if linked.get(ep, set()) != have:
            bad.append(
                f"{group}: episode {ep} is linked to {len(linked.get(ep, set()))} of {len(have)} chunks"
            )
    facts = _rows(store, "facts", group)
    fact_uuids = {f["uuid"] for f in facts}
    slots: Counter[tuple[str, str, str]] = Counter()
    for f in facts:
        if not f["a"] == f["b"] == f["r"] == group:
            bad.append(f"{group}: fact {f['uuid']} crosses groups ({f['a']}, {f['b']}, {f['r']})")
        missing = [e for e in f["episodes"] or [] if e not in known]
        if missing or not f["episodes"]:
            bad.append(f"{group}: fact {f['uuid']} cites missing episode(s) {missing or '(none listed)'}")
        if f["invalid_at"] is None and f["expired_at"] is None:
            slots[(f["subject"], f["predicate"], f["qualifier"] or "")] += 1
    if registry is not None:
        bad += [
            f"{group}: slot {p}/{q or '-'} of {s} has {n} current values"
            for (s, p, q), n in slots.items() if n > 1 and registry.is_single(p)
        ]  # fmt: skip
    if store.fact_shadows:  # facts are searched through Chunk shadow rows of kind 'fact'
        shadows = {c["uuid"] for c in chunks if c["kind"] == "fact"}
        bad += [f"{group}: fact {u} has no search shadow" for u in sorted(fact_uuids - shadows)]
        bad += [f"{group}: fact shadow {u} has no fact edge" for u in sorted(shadows - fact_uuids)]
    for name in ("mentions", "next"):
        for m in _rows(store, name, group):
            if not m["a"] == m["b"] == m["r"] == group:
                bad.append(f"{group}: a {name} edge crosses groups ({m['a']}, {m['b']}, {m['r']})")
    # a node may lack its anchor for a moment (ingest links it after the episode's transaction, and
    # every open links stragglers), but never has one of another group's, or two
    anchors = _rows(store, "anchors", group)
    bad += [
        f"{group}: {a['node']} is anchored to group {a['a']}"
        for a in anchors
        if not a["a"] == a["b"] == group
    ]
    twice = Counter(a["node"] for a in anchors)
    bad += [f"{group}: {node} is anchored {n} times" for node, n in twice.items() if n > 1]
    return bad


# --- snapshots: a whole group's nodes, edges and properties, comparable across time --------------

_SNAPSHOT_NODES = ("Episodic", "Chunk", "Entity")
_SNAPSHOT_EDGES = ("RELATES_TO", "MENTIONS", "HAS_CHUNK", "NEXT_EPISODE")


def _props(value: Any) -> dict[str, Any]:
    """A node or relationship as a plain dict of its properties (both drivers' shapes)."""
    items = value.items() if hasattr(value, "items") else []
    return {str(k): _plain(v) for k, v in items if not str(k).startswith("_")}


def _sorted_props(value: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(_props(value).items(), key=lambda kv: kv[0]))


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_plain(v) for v in value)
    to_native = getattr(value, "to_native", None)
    return to_native() if to_native is not None else value


def snapshot(store: GraphStore, groups: Iterable[str]) -> dict[str, list[tuple[Any, ...]]]:
    """Every node and edge of ``groups`` with all properties, sorted: equal snapshots, equal graphs.

    >>> snapshot(store, ["a", "b"]) == snapshot(store, ["a", "b"])  # doctest: +SKIP
    True
    """
    wanted = sorted(set(groups))
    out: dict[str, list[tuple[Any, ...]]] = {}
    for label in _SNAPSHOT_NODES:
        rows = store.read(load_check(f"snapshot_{label.lower()}"), {"groups": wanted})
        out[label] = sorted((_sorted_props(r["n"]) for r in rows), key=repr)
    for rel in _SNAPSHOT_EDGES:
        rows = store.read(load_check(f"snapshot_{rel.lower()}"), {"groups": wanted})
        out[rel] = sorted(((r["a"], r["b"], _sorted_props(r["r"])) for r in rows), key=repr)
    return out


def leftovers(store: GraphStore, group: str) -> int:
    """Nodes and edges still carrying ``group`` (0 after a complete `forget`)."""
    snap = snapshot(store, [group])
    return sum(len(rows) for rows in snap.values())
