"""`tkg demo`: the whole tour on the shipped example, offline, in a throwaway database.

It ingests ``examples/priya_marco.json`` and shows, each under the command that would print
it: the ingest summary, a history, a state, three questions (latest version, a relation
chain, an as-of) and one exploration query.
"""

from __future__ import annotations

import shutil
import tempfile
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from ..cypher import exploration_query_path, split_statements
from ..errors import NotFound
from . import render
from .commands_data import ingest_summary, progress_bar
from .common import open_memory, state

EXAMPLE = "priya_marco.json"
QUESTIONS: tuple[tuple[str, datetime | None], ...] = (
    ("Where does Priya live now?", None),  # latest version
    ("Where does Priya's sister live?", None),  # relation chain
    ("Where did Priya live?", datetime(2023, 7, 1, tzinfo=UTC)),  # as of a date
)
EXPLORATION = "supersession_chain"


def find_example(name: str = EXAMPLE) -> Path:
    """The example file: ``examples/`` in a source checkout, else ``tkg/_examples`` in a wheel."""
    repo = Path(__file__).resolve().parents[2] / "examples" / name
    if repo.is_file():
        return repo
    packaged = resources.files("tkg").joinpath("_examples").joinpath(name)
    if packaged.is_file():
        return Path(str(packaged))
    raise NotFound(
        f"the example {name} is missing from this installation (looked in {repo.parent} and tkg/_examples)"
    )


def demo(
    ctx: typer.Context,
    keep: Annotated[
        bool, typer.Option("--keep", help="Keep the temporary database and print how to query it.")
    ] = False,
) -> None:
    """Ingest the example conversation and tour history, state, questions and a Cypher query.

    Runs offline in a fresh temporary Kuzu database unless --store is given on the command line (TKG_STORE is ignored here, so the demo never writes into your configured store).

    Example: tkg demo --keep
    """  # noqa: E501
    example = find_example()
    chosen = state(ctx)
    tmp = None if chosen.store_on_command_line else tempfile.mkdtemp(prefix="tkg-demo-")
    url = chosen.store if tmp is None else f"kuzu://{tmp}/demo.kuzu"
    try:
        with open_memory(ctx, url) as mem:
            shown = mem.url
            render.heading(f"$ tkg ingest {example.name}   (store: {shown})")
            with progress_bar(None, "ingest") as tick:
                report = mem.ingest(example, progress=tick)
            ingest_summary(report.to_dict())
            group = report.groups[0] if report.groups else "priya-marco"

            render.heading(f"$ tkg history Priya lives_in --group {group}")
            render.out.print(render.history_table(mem.history("Priya", "lives_in", group=group)))

            render.heading(f"$ tkg state Priya --group {group}")
            render.out.print(render.state_table(mem.state("Priya", group=group)))

            for question, as_of in QUESTIONS:
                flag = f" --as-of {as_of.date().isoformat()}" if as_of else ""
                render.heading(f'$ tkg ask "{question}" --group {group}{flag}')
                render.show_answer(mem.ask(question, group=group, as_of=as_of), as_of=as_of)

            params = {"group_id": group, "subject": "Priya", "predicate": "lives_in"}
            render.heading(
                f"$ tkg cypher --name {EXPLORATION} "
                + " ".join(f"--param {k}={v}" for k, v in params.items())
            )
            text = exploration_query_path(EXPLORATION).read_text(encoding="utf-8")
            rows = mem.cypher(split_statements(text)[0], params)
            render.out.print(render.rows_table(rows))
    finally:
        if tmp is not None and not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    if tmp is not None and keep:
        render.status(f"kept the demo database: tkg --store {url} groups")


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
