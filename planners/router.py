"""The router: question → mode → payload → gates → procedure, with a trace of every step.

How the mode is chosen:
  1. the caller's `mode`, if given (`mode_source="caller"`);
  2. else `as_of` given → `time_anchored` (`mode_source="gate:as_of"`);
  3. else the classifier's label (`mode_source="classifier"`), which a fired query gate may
     *escalate* to a mode that ranks higher in `GATE_PRECEDENCE` (long_form > aggregation >
     relation_chain > time_anchored > latest_version > single_fact), `mode_source="gate:<name>"`.
     Gates never demote: "How is Evan doing these days?" stays long_form although "these
     days" fires the recency gate.
The payload is the chosen mode's payload, *widened* (deeper, more indexes/hops, never
narrower; see `payloads.widen`) by the payload of every other fired gate's mode. So the
caller's mode always wins the mode and the procedure, but a fired gate still widens what
is retrieved: `route("How many pets does Priya have?", mode="single_fact")` runs `lookup`
with the aggregation payload's depth.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tkg.models import as_utc

from .classifier import ModeClassifier, default_classifier
from .gates import GateResult
from .lexicon import Lexicon
from .modes import GATE_PRECEDENCE, check_mode
from .payloads import Payload, PayloadTable, default_payloads, widen
from .question import Question, parse

if TYPE_CHECKING:
    from tkg.entities import EntityIndex

_RANK = {mode: rank for rank, mode in enumerate(("single_fact", *reversed(GATE_PRECEDENCE)))}


@dataclass(frozen=True)
class Route:
    question: Question  # parsed once here; the procedures read it, never the raw string
    mode: str
    mode_source: str  # "caller" | "classifier" | "gate:<name>"
    initial_payload: Payload  # the payload of the mode before any gate looked
    payload: Payload  # the payload the procedure runs with
    procedure: str
    gates: list[dict[str, Any]] = field(default_factory=list)  # {name, fired, reason, effect}
    timings_ms: dict[str, float] = field(default_factory=dict)
    classifier_mode: str | None = None  # what the classifier said, when it was asked
    as_of: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question.text,
            "mode": self.mode,
            "mode_source": self.mode_source,
            "classifier_mode": self.classifier_mode,
            "procedure": self.procedure,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "initial_payload": self.initial_payload.to_dict(),
            "payload": self.payload.to_dict(),
            "gates": [dict(g) for g in self.gates],
            "timings_ms": dict(self.timings_ms),
        }


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def route(
    question: str,
    *,
    mode: str | None = None,
    as_of: datetime | None = None,
    classifier: ModeClassifier | None = None,
    payloads: PayloadTable | None = None,
    index: EntityIndex | None = None,
    lexicon: Lexicon | None = None,
) -> Route:
    """Parse `question` once (against the group's entity ``index`` and the registry's ``lexicon``
    when given: `planners.question`), choose the mode, payload and procedure, and explain why.

    >>> r = route("How many pets does Priya have?", mode="single_fact")
    >>> (r.mode, r.mode_source, r.procedure, r.payload.depth > r.initial_payload.depth)
    ('single_fact', 'caller', 'lookup', True)
    """
    started = time.perf_counter()
    table = payloads or default_payloads()
    timings: dict[str, float] = {}
    classifier_mode: str | None = None
    fixed = mode is not None or as_of is not None
    if mode is not None:
        chosen, source = check_mode(mode, where="route(mode=...)"), "caller"
    elif as_of is not None:
        chosen, source = "time_anchored", "gate:as_of"
    else:
        clf = classifier or default_classifier()  # trains once, outside the timed stage
        t = time.perf_counter()
        classifier_mode = check_mode(clf.classify(question), where="classifier")
        timings["classify"] = _ms(t)
        chosen, source = classifier_mode, "classifier"
    initial = table.for_mode(chosen)

    t = time.perf_counter()
    parsed = parse(question, index=index, lexicon=lexicon)
    results = list(parsed.gates)
    timings["gates"] = _ms(t)

    t = time.perf_counter()
    fired = [g for g in results if g.fired]
    if not fixed:
        top = max(fired, key=lambda g: _RANK[g.mode], default=None)
        if top is not None and _RANK[top.mode] > _RANK[chosen]:
            chosen, source = top.mode, f"gate:{top.name}"
    payload = table.for_mode(chosen)
    trace = [_as_of_entry(as_of, source)] if as_of is not None else []
    for g in results:
        trace.append(_entry(g, chosen, source, payload))
        if g.fired and g.mode != chosen:
            payload = widen(payload, table.for_mode(g.mode))
    timings["payload"] = _ms(t)
    timings["total"] = _ms(started)
    return Route(
        question=parsed,
        mode=chosen,
        mode_source=source,
        initial_payload=initial,
        payload=payload,
        procedure=payload.procedure,
        gates=trace,
        timings_ms=timings,
        classifier_mode=classifier_mode,
        as_of=as_utc(as_of),
    )


def _as_of_entry(as_of: datetime, source: str) -> dict[str, Any]:
    effect = "mode → time_anchored" if source == "gate:as_of" else "none (caller's mode kept)"
    return {"name": "as_of", "fired": True, "reason": f"as_of={as_of.isoformat()}", "effect": effect}


def _entry(g: GateResult, chosen: str, source: str, payload: Payload) -> dict[str, Any]:
    if not g.fired:
        effect = "none"
    elif source == f"gate:{g.name}":
        effect = f"mode → {chosen}"
    elif g.mode == chosen:
        effect = "agrees with mode"
    else:
        effect = f"widened payload {payload.name!r} with the {g.mode} payload"
    return {"name": g.name, "fired": g.fired, "reason": g.reason, "effect": effect}
