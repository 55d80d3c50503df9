"""How the CLI shows things: rich tables on stdout for people, plain JSON for programs.

Rules: results go to stdout, status and errors to stderr; with ``--json`` stdout carries one
JSON document and nothing else. Text from the graph is never read as rich markup (a turn that
says "[image: ...]" must print as written).

Example::

    >>> jsonable({"at": datetime(2023, 3, 1, tzinfo=UTC)})
    {'at': '2023-03-01T00:00:00+00:00'}
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..models import Answer, Evidence, Fact

# file=None: rich resolves sys.stdout / sys.stderr at write time, so test runners can capture them.
out = Console(highlight=False, soft_wrap=False)
err = Console(stderr=True, highlight=False)

DASH = "—"


# --- JSON ----------------------------------------------------------------------------------------


def jsonable(value: Any) -> Any:
    """Plain JSON types: datetimes as ISO 8601, tuples as lists, Decimals as numbers."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if hasattr(value, "to_dict"):
        return jsonable(value.to_dict())
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def emit_json(data: Any) -> None:
    """Write one JSON document to stdout (and nothing else)."""
    sys.stdout.write(json.dumps(jsonable(data), indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()


# --- messages ------------------------------------------------------------------------------------


def error(message: str) -> None:
    """One red line on stderr (never wrapped, never read as markup)."""
    line = " ".join(str(message).split())
    err.print(Text(f"error: {line}", style="bold red"), soft_wrap=True)


def status(message: str) -> None:
    err.print(Text(message, style="dim"), soft_wrap=True)


def heading(title: str) -> None:
    out.print()
    out.print(Text(title, style="bold cyan"))


# --- values --------------------------------------------------------------------------------------


def fmt_time(value: Any, *, seconds: bool = False) -> str:
    """``2023-06-04 10:02`` (UTC), or a dash for none."""
    if value is None:
        return DASH
    if isinstance(value, datetime):
        value = value.astimezone(UTC) if value.tzinfo else value
        return value.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    return str(value)


def fmt_value(value: Any) -> str:
    if value is None:
        return DASH
    if isinstance(value, datetime):
        return fmt_time(value)
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value == value else "NaN"
    if isinstance(value, list | tuple):
        return ", ".join(fmt_value(v) for v in value) if value else "[]"
    if isinstance(value, Mapping):
        return json.dumps(jsonable(value), ensure_ascii=False)
    return str(value)


def slot(fact: Fact) -> str:
    """``favorite (band)`` for a qualified predicate, else the predicate."""
    return f"{fact.predicate} ({fact.qualifier})" if fact.qualifier else fact.predicate


def _table(*columns: str, title: str | None = None) -> Table:
    table = Table(title=title, title_justify="left", header_style="bold", expand=False)
    for col in columns:
        table.add_column(col, overflow="fold")
    return table


# --- facts ---------------------------------------------------------------------------------------


def history_table(facts: Sequence[Fact], title: str | None = None) -> Table:
    """The timeline of fact versions; closed versions are dimmed."""
    table = _table("predicate", "value", "v", "valid from → until", "recorded → expired", "source", title=title)
    for f in facts:
        style = "" if f.current else "dim"
        table.add_row(
            Text(slot(f)),
            Text(f.object, style="" if f.current else "dim strike" if f.invalid_at == f.valid_at else "dim"),
            str(f.version),
            f"{fmt_time(f.valid_at)} → {fmt_time(f.invalid_at) if f.invalid_at else 'now'}",
            f"{fmt_time(f.created_at)} → {fmt_time(f.expired_at) if f.expired_at else 'now'}",
            Text(f.source_ref or DASH),
            style=style,
        )
    return table


def state_table(facts: Sequence[Fact], title: str | None = None) -> Table:
    table = _table("predicate", "value", "since", "v", "source", title=title)
    for f in facts:
        table.add_row(Text(slot(f)), Text(f.object), fmt_time(f.valid_at), str(f.version), Text(f.source_ref or DASH))
    return table


# --- answers -------------------------------------------------------------------------------------


def evidence_table(evidence: Sequence[Evidence], limit: int = 8) -> Table:
    table = _table("source", "time", "speaker", "text", "score", title="evidence")
    for ev in evidence[:limit]:
        table.add_row(
            Text(ev.source_ref or DASH), fmt_time(ev.valid_at), Text(ev.speaker or DASH), Text(ev.text), f"{ev.score:.3f}"
        )
    if len(evidence) > limit:
        table.caption = f"{len(evidence) - limit} more; --json shows all"
    return table


def show_answer(answer: Answer, *, as_of: datetime | None = None) -> None:
    """The answer line, the abstention flag, mode and procedure, then the evidence."""
    style = "bold yellow" if answer.abstained else "bold green"
    out.print(Text.assemble(("Q: ", "bold"), answer.question))
    out.print(Text.assemble(("A: ", "bold"), (answer.answer, style)))
    bits = [f"mode {answer.mode}", f"procedure {answer.procedure}", f"abstained {'yes' if answer.abstained else 'no'}"]
    if as_of is not None:
        bits.append(f"as of {fmt_time(as_of)}")
    out.print(Text("   " + " · ".join(bits), style="dim"))
    if answer.evidence:
        out.print(evidence_table(answer.evidence))


# --- generic rows --------------------------------------------------------------------------------


def rows_table(rows: Sequence[Mapping[str, Any]], title: str | None = None) -> Table:
    """Cypher rows as a table; columns in the order the first row gives them."""
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    table = _table(*columns, title=title)
    for row in rows:
        table.add_row(*(Text(fmt_value(row.get(c))) for c in columns))
    if not rows:
        table.caption = "no rows"
    return table


def kv_table(pairs: Mapping[str, Any] | Iterable[tuple[str, Any]], title: str | None = None) -> Table:
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for key, value in items:
        table.add_row(str(key), value if isinstance(value, Text) else Text(fmt_value(value)))
    return table
