"""The grounded walker: execute a `HopPlan` over edges that exist in one group's graph.

The planner only *parses* ("Priya's manager's home town" → seed Priya, hops reports_to,
from_place); the walker resolves the seed with the group's `EntityIndex` and follows each
hop with a named query (`walk.step_out` / `walk.step_in`, or their `_as_of` variants), so an
answer is always a chain of real edges that point back to the turns that asserted them.

Rules:
* current edges by default (valid time and record time open); edges valid at `as_of` when given;
* `inverse` hops walk object → subject; symmetric predicates (married_to, sibling_of, ...) are
  stored one way and matched both ways;
* a hop's qualifier ("band" in "favourite band") filters when some edge carries it and is only a
  hint otherwise — except for `favorite`, whose qualifier *is* the slot;
* ties break deterministically: newest valid_at, then higher confidence, then name;
* at most `fanout` edges per node per hop, `MAX_FRONTIER` nodes per hop, `max_hops` hops.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from planners.hop_planner import MAX_HOPS, Hop, HopPlan
from planners.lexicon import SYMMETRIC
from tkg.models import Fact

if TYPE_CHECKING:
    from tkg.context import Context
    from tkg.entities import EntityIndex

MAX_FRONTIER = 50
STRICT_QUALIFIERS = frozenset({"favorite"})  # the qualifier names the slot: favourite band ≠ favourite food
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Reached:
    """A node the walk reached, with the edges that led there from the seed."""

    uuid: str
    name: str
    path: tuple[Fact, ...]


@dataclass
class WalkResult:
    plan: HopPlan
    seed: str | None  # canonical name of the resolved seed, None when it is not in the group
    seed_uuid: str | None
    as_of: datetime | None
    reached: list[Reached] = field(default_factory=list)  # the final frontier, best first
    steps: list[dict[str, Any]] = field(default_factory=list)
    stopped_at: int | None = None  # index of the hop that found nothing; None when complete
    reason: str = ""
    bridge: list[Reached] = field(default_factory=list)  # the frontier before the failed hop

    @property
    def complete(self) -> bool:
        return self.stopped_at is None and bool(self.reached)

    @property
    def values(self) -> list[str]:
        return [r.name for r in self.reached]

    @property
    def paths(self) -> list[list[Fact]]:
        return [list(r.path) for r in self.reached]

    @property
    def facts(self) -> list[Fact]:
        """Every edge on a kept path, each once, in path order."""
        seen: dict[str, Fact] = {}
        for r in self.reached:
            for f in r.path:
                seen.setdefault(f.uuid, f)
        return list(seen.values())

    def to_trace(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "hops": [_hop_text(h) for h in self.plan.hops],
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "steps": self.steps,
            "complete": self.complete,
            "stopped_at": self.stopped_at,
            "reason": self.reason,
            "values": self.values,
            "bridge": [b.name for b in self.bridge],
        }


def _hop_text(hop: Hop) -> str:
    text = ("^" if hop.inverse else "") + hop.predicate
    return f"{text}[{hop.qualifier}]" if hop.qualifier else text


def edge_order(fact: Fact, name: str = "") -> tuple[float, float, str]:
    """Sort key: newest valid_at first, then higher confidence, then name (for determinism)."""
    when = (fact.valid_at or _EPOCH).timestamp()
    return (-when, -fact.confidence, (name or fact.object).lower())


def qualifier_filter(hop: Hop, facts: list[Fact]) -> list[Fact]:
    """Edges that fit the hop's qualifier: matching ones when any match, else all (a hint),
    except for strict predicates where no match means no edge."""
    if not hop.qualifier:
        return facts
    want = hop.qualifier.lower()
    matched = [
        f for f in facts if want in f.qualifier.lower().split() or f.qualifier.lower().startswith(want)
    ]
    if matched or hop.predicate in STRICT_QUALIFIERS:
        return matched
    return facts


def walk(
    ctx: Context,
    group: str,
    plan: HopPlan,
    *,
    as_of: datetime | None = None,
    fanout: int = 5,
    max_hops: int = MAX_HOPS,
    index: EntityIndex | None = None,
    symmetric: Iterable[str] | None = None,
) -> WalkResult:
    """Follow `plan` from its seed over existing edges; the last hop's targets are the answer.

    >>> result = walk(ctx, "priya-marco",  # doctest: +SKIP
    ...               plan_hops("Where is Priya's manager from?", names))
    >>> result.values, [f.source_ref for f in result.paths[0]]  # doctest: +SKIP
    (['Lagos'], ['D3:4', 'D1:4'])
    """
    index = index if index is not None else ctx.entities(group)
    sym = frozenset(symmetric) if symmetric is not None else symmetric_predicates(ctx)
    seed = index.find(plan.seed, "person")
    result = WalkResult(plan, seed.name if seed else None, seed.uuid if seed else None, as_of)
    if seed is None:
        result.stopped_at, result.reason = 0, f"seed {plan.seed!r} is not an entity of the group"
        return result
    if len(plan.hops) > max_hops:
        result.stopped_at, result.reason = (
            max_hops,
            f"plan has {len(plan.hops)} hops; the hop limit is {max_hops}",
        )
        return result
    frontier = [Reached(seed.uuid, seed.name, ())]
    for i, hop in enumerate(plan.hops):
        edges = _step(ctx, group, hop, frontier, as_of, sym)
        nxt = _expand(hop, frontier, edges, max(1, fanout), revisit=hop.predicate not in sym)
        result.steps.append(
            {"hop": _hop_text(hop), "from": [n.name for n in frontier], "edges": len(edges),
             "kept": [n.name for n in nxt]}
        )  # fmt: skip
        if not nxt:
            result.stopped_at = i
            result.reason = (f"no {'edge valid at ' + as_of.date().isoformat() if as_of else 'current edge'} "
                             f"for hop {i + 1} ({_hop_text(hop)})")
            result.bridge = frontier if i > 0 else []
            return result
        frontier = nxt
    result.reached = frontier
    return result


def _step(
    ctx: Context, group: str, hop: Hop, frontier: list[Reached], as_of: datetime | None, sym: frozenset[str]
) -> list[tuple[str, str, str, Fact]]:
    """(from_uuid, to_uuid, to_name, fact) for every edge of this hop leaving the frontier."""
    directions = ("out", "in") if hop.predicate in sym else (("in",) if hop.inverse else ("out",))
    params: dict[str, Any] = {
        "group_id": group,
        "from_uuids": [n.uuid for n in frontier],
        "predicate": hop.predicate,
    }
    suffix = ""
    if as_of is not None:
        params["as_of"] = as_of
        suffix = "_as_of"
    out: list[tuple[str, str, str, Fact]] = []
    seen: set[tuple[str, str]] = set()
    for direction in directions:
        for row in ctx.store.named(f"walk.step_{direction}{suffix}", params):
            key = (row["from_uuid"], row["uuid"])
            if key not in seen:
                seen.add(key)
                out.append((row["from_uuid"], row["to_uuid"], row["to_name"], Fact.from_row(row, group)))
    return out


def _expand(hop: Hop, frontier: list[Reached], edges: list[tuple[str, str, str, Fact]], fanout: int, *,
            revisit: bool = False) -> list[Reached]:
    """The next frontier. A path never takes the same edge twice; with `revisit` (a directed hop)
    it may come back to a node by another edge: when Ana reports to Ben and Ben to Ana, "Ana's
    manager's manager" is Ana. A symmetric hop never returns to a node already on the path
    ("Lena's sister's sister" is not Lena again)."""
    by_source: dict[str, list[tuple[str, str, Fact]]] = {}
    for src, dst, name, fact in edges:
        by_source.setdefault(src, []).append((dst, name, fact))
    nxt: list[Reached] = []
    taken: set[str] = set()
    for node in frontier:
        used = {f.uuid for f in node.path}
        on_path = (
            set()
            if revisit
            else {node.uuid, *(f.object_uuid for f in node.path), *(f.subject_uuid for f in node.path)}
        )
        options = [
            (d, n, f) for d, n, f in by_source.get(node.uuid, []) if d not in on_path and f.uuid not in used
        ]
        kept_facts = qualifier_filter(hop, [f for _, _, f in options])
        kept = sorted((o for o in options if o[2] in kept_facts), key=lambda o: edge_order(o[2], o[1]))[
            :fanout
        ]
        for dst, name, fact in kept:
            if dst not in taken and len(nxt) < MAX_FRONTIER:
                taken.add(dst)
                nxt.append(Reached(dst, name, (*node.path, fact)))
    return nxt


def symmetric_predicates(ctx: Context | None = None) -> frozenset[str]:
    """The planner's symmetric set plus any predicate the registry marks symmetric."""
    extra: set[str] = set()
    registry = getattr(ctx, "registry", None)
    if registry is not None:
        extra = {p.name for p in registry.predicates() if p.symmetric}
    return SYMMETRIC | extra


