"""`tkg cypher`: run Cypher against the store, read-only unless --write.

The query comes from the command line, a file, or by name from the shipped exploration
queries (``cypher/queries/NAME.cypher``). Parameters stay parameters: ``--param k=v`` values
are never spliced into the text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..cypher import exploration_query_path, list_exploration_queries, split_statements
from ..errors import InputError
from . import render
from .common import JSON_HELP, check_params, open_memory, parse_params, query_params


def exploration_queries() -> list[dict[str, Any]]:
    """Every shipped query: name, what it does (its first comment line) and its parameters."""
    out = []
    for name, description in list_exploration_queries().items():
        text = exploration_query_path(name).read_text(encoding="utf-8")
        out.append({"name": name, "description": description, "params": query_params(text)})
    return out


def _query_text(query: str | None, file: Path | None, name: str | None) -> tuple[str, str]:
    given = [what for what, value in (("QUERY", query), ("--file", file), ("--name", name)) if value]
    if len(given) != 1:
        if not given:
            raise InputError("give a query: QUERY, --file F or --name NAME (see `tkg cypher --list`)")
        raise InputError(f"give only one of QUERY, --file and --name (got {', '.join(given)})")
    if name:
        return exploration_query_path(name).read_text(encoding="utf-8"), f"query {name}"
    if file:
        try:
            return file.read_text(encoding="utf-8"), str(file)
        except FileNotFoundError:
            raise InputError("no such file", source=str(file)) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read: {exc}", source=str(file)) from None
    assert query is not None
    return query, "query"


def cypher(
    ctx: typer.Context,
    query: Annotated[
        str | None,
        typer.Argument(help="Cypher text, in quotes (or use --file / --name).", show_default=False),
    ] = None,
    file: Annotated[
        Path | None,
        typer.Option("--file", "-f", help="Read the query from this .cypher file.", show_default=False),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", "-n", help="Run a shipped exploration query by name (see --list).", show_default=False
        ),
    ] = None,
    list_queries: Annotated[
        bool, typer.Option("--list", help="List the shipped exploration queries and their parameters.")
    ] = False,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            "-p",
            metavar="NAME=VALUE",
            help="A query parameter (repeatable). VALUE is read as JSON when it parses, an ISO date "
            "(2023-07-01) becomes a UTC datetime, anything else is a string.",
            show_default=False,
        ),
    ] = None,
    write: Annotated[
        bool, typer.Option("--write", help="Allow the query to change the graph (default: read-only).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Run Cypher against the store: read-only unless --write, parameters passed as parameters.

    Use $group_id (not $group, which Kuzu reserves) to scope a query to one group.

    Example: tkg cypher --name fact_history --param group_id=priya-marco --param subject=Priya

    Example: tkg cypher "MATCH (e:Entity) WHERE e.group_id = $group_id RETURN e.name AS name" -p group_id=priya-marco
    """  # noqa: E501
    if list_queries:
        queries = exploration_queries()
        if as_json:
            render.emit_json({"queries": queries})
            return
        listing = [
            {
                "name": q["name"],
                "params": ", ".join(f"${p}" for p in q["params"]),
                "what it does": q["description"],
            }
            for q in queries
        ]
        render.out.print(
            render.rows_table(listing, title="exploration queries (tkg cypher --name NAME --param k=v ...)")
        )
        return
    params = parse_params(param)
    text, label = _query_text(query, file, name)
    statements = split_statements(text)
    if not statements:
        raise InputError(f"{label} has no statement to run")
    per_statement = check_params(statements, params)
    rows: list[dict[str, Any]] = []
    with open_memory(ctx) as mem:
        for statement, used in zip(statements, per_statement, strict=True):
            rows = mem.cypher(statement, used, write=write)
    if as_json:
        render.emit_json({"rows": rows, "count": len(rows)})
        return
    render.out.print(render.rows_table(rows))
    render.status(f"{len(rows)} row(s)")


def register(app: typer.Typer) -> None:
    app.command("cypher")(cypher)
