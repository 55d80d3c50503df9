"""`tkg doctor`: is this installation ready? The checks live in tkg/doctor.py; this renders them."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from . import render
from .common import JSON_HELP, state


def doctor(
    ctx: typer.Context, as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False
) -> None:
    """Check the installation: store reachable, schema, indexes online, embedding model, versions.

    Exits 1 when any check fails. The store URL is shown with its password removed.

    Example: tkg --store bolt://127.0.0.1:7687 doctor
    """
    # imported here, not at the top: it loads numpy, which `tkg --help` need not
    from ..doctor import run_checks, versions

    checks, shown = run_checks(state(ctx).store)
    ok = all(c.ok for c in checks)
    info = versions()
    if as_json:
        render.emit_json(
            {"ok": ok, "store": shown, "checks": [c.to_dict() for c in checks], "versions": info}
        )
    else:
        rows = [
            (
                c.name,
                Text.assemble(("ok   " if c.ok else "FAIL ", "bold green" if c.ok else "bold red"), c.detail),
            )
            for c in checks
        ]
        render.out.print(render.kv_table(rows, title=f"tkg doctor — {shown}"))
        render.out.print(
            render.kv_table({k: v or "not installed" for k, v in info.items()}, title="versions")
        )
    if not ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
