"""`tkg explain`: the routing trace (``Answer.trace``, a plain dict) laid out for a person.

The trace belongs to the router and procedures, which may add keys over time, so this renderer
knows the common sections (mode, payloads, gates, procedure, timings, candidate counts) and
shows anything else generically instead of dropping it.

Example::

    >>> lines = trace_sections({"mode": "latest_version", "gates": [{"name": "recency", "fired": True}]})
    >>> [title for title, _ in lines]
    ['mode', 'gates']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..models import Answer
from .render import fmt_value, kv_table, out

# Known sections in the order a reader wants them; other keys follow in the trace's order.
_ORDER = (
    "question", "mode", "mode_source", "mode_reason", "classifier", "requested_mode", "as_of",
    "payload_initial", "initial_payload", "payload", "gates", "runtime_gates", "payload_final", "final_payload",
    "procedure", "plan", "hops", "candidates", "candidate_counts", "counts", "timings", "timings_ms", "timing",
)
_GATE_KEYS = ("gates", "runtime_gates")


def _ordered_keys(trace: Mapping[str, Any]) -> list[str]:
    known = [k for k in _ORDER if k in trace]
    return known + [k for k in trace if k not in known]


def _gate_table(gates: Sequence[Any]) -> Table:
    table = Table(header_style="bold")
    for col in ("gate", "fired", "why", "mode"):
        table.add_column(col, overflow="fold")
    for gate in gates:
        if not isinstance(gate, Mapping):
            table.add_row(Text(str(gate)), "", "", "")
            continue
        fired = bool(gate.get("fired"))
        table.add_row(
            Text(str(gate.get("name", "?"))),
            Text("fired" if fired else "—", style="bold green" if fired else "dim"),
            Text(str(gate.get("reason") or gate.get("why") or "")),
            Text(str(gate.get("mode") or gate.get("action") or "")),
            style="" if fired else "dim",
        )
    return table


def _list_table(items: Sequence[Mapping[str, Any]]) -> Table:
    columns: list[str] = []
    for item in items:
        columns.extend(k for k in item if k not in columns)
    table = Table(header_style="bold")
    for col in columns:
        table.add_column(col, overflow="fold")
    for item in items:
        table.add_row(*(Text(fmt_value(item.get(c))) for c in columns))
    return table


def _timings(value: Mapping[str, Any]) -> Table:
    total = 0.0
    rows: list[tuple[str, Any]] = []
    for stage, ms in value.items():
        if isinstance(ms, int | float):
            total += float(ms) if stage not in ("total", "total_ms") else 0.0
            rows.append((stage, f"{float(ms):.1f} ms"))
        else:
            rows.append((stage, ms))
    if "total" not in value and "total_ms" not in value and total:
        rows.append(("total", f"{total:.1f} ms"))
    return kv_table(rows)


def render_section(key: str, value: Any) -> RenderableType:
    """One trace entry as a renderable: a gate table, a key/value table or a line."""
    if key in _GATE_KEYS and isinstance(value, Sequence) and not isinstance(value, str):
        return _gate_table(value)
    if key.startswith("timing") and isinstance(value, Mapping):
        return _timings(value)
    if isinstance(value, Mapping):
        return kv_table({k: v for k, v in value.items()})
    if isinstance(value, Sequence) and not isinstance(value, str) and value and all(isinstance(v, Mapping) for v in value):
        return _list_table(value)
    return Text(fmt_value(value))


def trace_sections(trace: Mapping[str, Any]) -> list[tuple[str, RenderableType]]:
    return [(key, render_section(key, trace[key])) for key in _ordered_keys(trace)]


def show_trace(answer: Answer) -> None:
    """Everything the router and the procedure recorded, then the answer it led to."""
    trace = answer.trace or {}
    out.print(Text.assemble(("Q: ", "bold"), answer.question))
    out.print(Text.assemble(("mode ", "bold"), answer.mode, ("   procedure ", "bold"), answer.procedure))
    for title, body in trace_sections(trace):
        if isinstance(body, Text):
            out.print(Text.assemble((f"{title}: ", "bold cyan"), body))
        else:
            out.print(Text(title, style="bold cyan"))
            out.print(body)
    style = "bold yellow" if answer.abstained else "bold green"
    out.print(Text.assemble(("A: ", "bold"), (answer.answer, style), ("  (abstained)" if answer.abstained else "", "yellow")))
    out.print(Text(f"   {len(answer.evidence)} evidence item(s), {len(answer.facts)} fact(s)", style="dim"))
