"""`tkg explain`: the routing trace (``Answer.trace``, a plain dict) laid out for a person.

The trace belongs to the router and the procedures, which may add keys over time, so this
renderer knows the common sections (mode and where it came from, initial vs final payload,
query and runtime gates, procedure steps, timings, candidate counts) and shows any other key
generically instead of dropping it.

Example::

    >>> [title for title, _ in trace_sections({"gates": [{"name": "recency", "fired": True}], "x": 1})]
    ['query gates', 'x']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..models import Answer
from .render import fmt_value, kv_table, out

# Shown in the header, not as sections.
_HEADER = (
    "question", "mode", "mode_source", "classifier_mode", "procedure", "as_of", "initial_payload", "payload",
)
# Sections in reading order, with their titles; unknown keys follow in the trace's own order.
_SECTIONS = (
    ("gates", "query gates"),
    ("runtime_gates", "runtime gates"),
    ("group", "group"),
    ("steps", "procedure steps"),
    ("grounding", "grounding"),
    ("reading", "reading (the kind asked for, its subject, the values weighed)"),
    ("abstained_by", "abstained by"),
    ("synthesis", "synthesis"),
    ("candidates", "candidate counts"),
    ("route_timings_ms", "routing timings"),
    ("timings_ms", "timings per stage"),
)
_GATES = {"gates", "runtime_gates"}


def _table(*columns: str) -> Table:
    table = Table(header_style="bold")
    for col in columns:
        table.add_column(col, overflow="fold")
    return table


def gate_table(gates: Sequence[Any]) -> Table:
    """Every gate, fired or not, with the text that made it fire and what it changed."""
    table = _table("gate", "fired", "why", "effect")
    for gate in gates:
        g = gate if isinstance(gate, Mapping) else {"name": str(gate)}
        fired = bool(g.get("fired"))
        table.add_row(
            Text(str(g.get("name", "?"))),
            Text("yes" if fired else "no", style="bold green" if fired else ""),
            Text(str(g.get("reason") or g.get("why") or "")),
            Text(str(g.get("effect") or g.get("mode") or "")),
            style="" if fired else "dim",
        )
    return table


def payload_table(initial: Mapping[str, Any], final: Mapping[str, Any]) -> Table:
    """Initial and final payload side by side, the settings the gates changed highlighted;
    one column when no gate changed anything."""
    if dict(initial) == dict(final):
        return kv_table(final, title="payload (no gate changed it)")
    table = _table("payload", "initial", "final")
    for key in list(dict.fromkeys([*initial, *final])):
        before, after = initial.get(key), final.get(key)
        changed = before != after
        table.add_row(
            Text(key, style="bold yellow" if changed else ""),
            Text(fmt_value(before), style="dim" if changed else ""),
            Text(fmt_value(after), style="bold yellow" if changed else ""),
        )
    return table


def _list_table(items: Sequence[Mapping[str, Any]]) -> Table:
    columns: list[str] = []
    for item in items:
        columns.extend(k for k in item if k not in columns)
    table = _table(*columns)
    for item in items:
        table.add_row(*(Text(fmt_value(item.get(c))) for c in columns))
    return table


def _timings(value: Mapping[str, Any]) -> Table:
    return kv_table(
        [(k, f"{float(v):.1f} ms" if isinstance(v, int | float) else v) for k, v in value.items()]
    )


def render_section(key: str, value: Any) -> RenderableType:
    """One trace entry as a renderable: a gate table, a key/value table or one line."""
    if key in _GATES and isinstance(value, Sequence) and not isinstance(value, str):
        return gate_table(value)
    if "timings" in key and isinstance(value, Mapping):
        return _timings(value)
    if isinstance(value, Mapping):
        return kv_table(value)
    if (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and value
        and all(isinstance(v, Mapping) for v in value)
    ):
        return _list_table(value)
    return Text(fmt_value(value))


def trace_sections(trace: Mapping[str, Any]) -> list[tuple[str, RenderableType]]:
    """(title, renderable) for every trace key that is not part of the header."""
    titles = dict(_SECTIONS)
    keys = [k for k, _ in _SECTIONS if k in trace] + [
        k for k in trace if k not in titles and k not in _HEADER
    ]
    return [(titles.get(k, k), render_section(k, trace[k])) for k in keys]


def show_trace(answer: Answer) -> None:
    """The route (mode and why, payloads), every gate, the procedure's steps, then the answer."""
    trace = answer.trace or {}
    out.print(Text.assemble(("Q: ", "bold"), answer.question))
    source = trace.get("mode_source")
    classifier = trace.get("classifier_mode")
    why = (
        f" (from {source}"
        + (f"; the classifier said {classifier}" if classifier and classifier != answer.mode else "")
        + ")"
    )
    out.print(
        Text.assemble(
            ("mode ", "bold"), answer.mode, why if source else "", ("   procedure ", "bold"), answer.procedure
        )
    )
    if trace.get("as_of"):
        out.print(Text.assemble(("as of ", "bold"), str(trace["as_of"])))
    initial, final = trace.get("initial_payload"), trace.get("payload")
    if isinstance(initial, Mapping) and isinstance(final, Mapping):
        out.print(payload_table(initial, final))
    for title, body in trace_sections(trace):
        if isinstance(body, Text):
            out.print(Text.assemble((f"{title}: ", "bold cyan"), body))
        else:
            out.print(Text(title, style="bold cyan"))
            out.print(body)
    style = "bold yellow" if answer.abstained else "bold green"
    out.print(
        Text.assemble(
            ("A: ", "bold"), (answer.answer, style), ("  (abstained)" if answer.abstained else "", "yellow")
        )
    )
    out.print(Text(f"   {len(answer.evidence)} evidence item(s), {len(answer.facts)} fact(s)", style="dim"))
