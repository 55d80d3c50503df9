"""How the CLI shows things: rich tables on stdout for people, plain JSON for programs.

Rules: results go to stdout, status and errors to stderr; with ``--json`` stdout carries one
JSON document and nothing else. Text from the graph is never read as rich markup (a turn that
says "[image: ...]" must print as written).

Example::

    >>> jsonable({"at": datetime(2023, 3, 1, tzinfo=UTC)})
    {'at': '2023-03-01T00:00:00+00:00'}
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from rich.console import Console, Group, RenderableType
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
    """``2023-06-04 10:02`` (UTC), ``2023-05-01`` at midnight, or a dash for none."""
    if value is None:
        return DASH
    if isinstance(value, datetime):
        value = value.astimezone(UTC) if value.tzinfo else value
        if not seconds and (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0):
            return value.strftime("%Y-%m-%d")
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
    table = _table(
        "predicate", "value", "v", "valid from → until", "recorded → expired", "source", title=title
    )
    for f in facts:
        style = "" if f.current else "dim"
        table.add_row(
            Text(slot(f)),
            Text(f.object, style="" if f.current else "dim strike" if f.invalid_at == f.valid_at else "dim"),
            str(f.version),
            f"{fmt_time(f.valid_at)}\n→ {fmt_time(f.invalid_at) if f.invalid_at else 'now'}",
            f"{fmt_time(f.created_at)}\n→ {fmt_time(f.expired_at) if f.expired_at else 'now'}",
            Text(f.source_ref or DASH),
            style=style,
        )
    return _captioned(table, facts)


def state_table(facts: Sequence[Fact], title: str | None = None) -> Table:
    table = _table("predicate", "value", "since", "v", "source", title=title)
    for f in facts:
        table.add_row(
            Text(slot(f)), Text(f.object), fmt_time(f.valid_at), str(f.version), Text(f.source_ref or DASH)
        )
    return _captioned(table, facts)


def _captioned(table: Table, facts: Sequence[Fact]) -> Table:
    """A facts table says so when it has none."""
    if not facts:
        table.caption = "no facts"
    return table


def groups_table(rows: Sequence[Mapping[str, Any]], title: str | None = None) -> Table:
    table = _table("group", "episodes", "entities", "facts", "current", "turns from → to", title=title)
    table.columns[0].no_wrap = True
    for g in rows:
        span = f"{fmt_time(g.get('first'))[:10]} → {fmt_time(g.get('last'))[:10]}"
        table.add_row(
            Text(str(g["group"])),
            *(str(g.get(k, DASH)) for k in ("episodes", "entities", "facts", "current_facts")),
            span,
        )
    if not rows:
        table.caption = "no groups yet; try `tkg ingest FILE` or `tkg demo`"
    return table


# --- answers -------------------------------------------------------------------------------------


def evidence_table(evidence: Sequence[Evidence], limit: int = 8, *, related: bool = False,
                   support: Sequence[str | None] = ()) -> Table:
    """The evidence in its ranking, the turns that state the answer marked ▶ (and shown even past
    ``limit``); under an abstention the turns that were looked at, titled as related turns, not as
    support. Scores of different procedures are not comparable, so the table shows the rank;
    ``--json`` has the scores."""
    title = (
        "related turns (looked at; they do not answer it)" if related else "evidence (▶ states the answer)"
    )
    table = _table("#", "source", "time", "speaker", "text", title=title)
    shown = [(i, ev) for i, ev in enumerate(evidence, 1) if i <= limit or ev.source_ref in support]
    for i, ev in shown:
        mark = "▶" if ev.source_ref in support else ""
        table.add_row(
            f"{mark}{i}",
            Text(ev.source_ref or DASH),
            fmt_time(ev.valid_at),
            Text(ev.speaker or DASH),
            Text(ev.text),
        )
    if len(evidence) > len(shown):
        table.caption = f"{len(evidence) - len(shown)} more; --json shows all"
    return table


def show_answer(answer: Answer, *, as_of: datetime | None = None) -> None:
    """The answer line, the abstention flag, mode and procedure, then the evidence."""
    style = "bold yellow" if answer.abstained else "bold green"
    out.print(Text.assemble(("Q: ", "bold"), answer.question))
    out.print(Text.assemble(("A: ", "bold"), (answer.answer, style)))
    bits = [
        f"mode {answer.mode}",
        f"procedure {answer.procedure}",
        f"abstained {'yes' if answer.abstained else 'no'}",
    ]
    if as_of is not None:
        bits.append(f"as of {fmt_time(as_of)}")
    out.print(Text("   " + " · ".join(bits), style="dim"))
    why = (answer.trace.get("reading") or {}).get("reason") if answer.abstained else None
    if why:
        out.print(Text(f"   why: {why}", style="dim"))
    if answer.evidence:
        support = (answer.trace.get("reading") or {}).get("support") or ()
        out.print(evidence_table(answer.evidence, related=answer.abstained, support=support))


# --- generic rows --------------------------------------------------------------------------------


def rows_table(
    rows: Sequence[Mapping[str, Any]], title: str | None = None, width: int | None = None
) -> RenderableType:
    """Cypher rows as a table, columns in first-seen order; one block per row when too wide.

    Short values (dates, numbers, names) keep their width, the header folds instead; when
    they cannot fit in ``width`` (default: the terminal's), each row prints as its own
    key/value block, like psql's expanded view. Columns empty in every row are left out and
    named in the caption (``--json`` keeps every column).
    """
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    cells = {c: [fmt_value(row.get(c)) for row in rows] for c in columns}
    empty = [c for c in columns if rows and all(row.get(c) in (None, "", []) for row in rows)]
    shown = [c for c in columns if c not in empty]
    widest = {c: max((len(v) for v in cells[c]), default=0) for c in shown}
    note = f"empty in every row: {', '.join(empty)}" if empty else None
    table = Table(title=title, title_justify="left", header_style="bold", caption=note if rows else "no rows")
    for c in shown:
        table.add_column(c, overflow="fold", min_width=widest[c] if widest[c] <= 20 else None)
    for i in range(len(rows)):
        table.add_row(*(Text(cells[c][i]) for c in shown))
    if not rows or fits(table, width or out.width):
        return table
    blocks: list[RenderableType] = [Text(title, style="bold")] if title else []
    for i in range(len(rows)):
        blocks.append(kv_table([(c, cells[c][i]) for c in shown], title=f"row {i + 1}"))
    if note:
        blocks.append(Text(note, style="dim"))
    return Group(*blocks)


def fits(table: Table, width: int) -> bool:
    """Whether rich lays the table out within ``width`` (it crops, rather than folds, when not)."""
    probe = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    with probe.capture() as captured:
        probe.print(table)
    top = next((ln.rstrip() for ln in captured.get().splitlines() if ln.startswith("┏")), "┓")
    return top.endswith("┓")


def kv_table(pairs: Mapping[str, Any] | Iterable[tuple[str, Any]], title: str | None = None) -> Table:
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for key, value in items:
        table.add_row(str(key), value if isinstance(value, Text) else Text(fmt_value(value)))
    return table
