"""Commands that change or list what a store holds: ingest, forget, groups."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from . import render
from .common import FormatChoice, Json, LLMOption, SomeGroup, group_option, open_memory, require_group


@contextmanager
def progress_bar(total: int | None, label: str) -> Iterator[Callable[[int], None]]:
    """A tqdm bar on stderr, shown only on a terminal (so pipes and --json stay clean)."""
    from tqdm import tqdm

    bar = tqdm(
        total=total, desc=label, unit="turn", file=sys.stderr, disable=None, leave=False, dynamic_ncols=True
    )
    try:
        yield bar.update
    finally:
        bar.close()


def ingest_summary(report: dict[str, Any]) -> None:
    rows: list[tuple[str, Any]] = [
        ("groups", ", ".join(report.get("groups") or []) or render.DASH),
        ("episodes written", report.get("episodes")),
        ("already there", report.get("skipped_existing")),
        ("empty, left out", report.get("skipped_empty")),
        ("chunks", report.get("chunks")),
        ("new entities", report.get("entities")),
        ("new fact versions", report.get("facts")),
        ("superseded", report.get("superseded")),
        ("retracted", report.get("retracted")),
        ("re-asserted", report.get("reasserted")),
        (
            "bulk load",
            f"yes (indexes built in {report.get('index_build_s')} s)" if report.get("bulk") else "no",
        ),
        ("model load", f"{report.get('model_load_s')} s (not in seconds or turns/s)"),
        ("seconds", report.get("seconds")),
        ("turns/s", report.get("turns_per_s")),
    ]
    render.out.print(render.kv_table(rows, title="ingest"))
    for warning in report.get("warnings") or []:
        render.status(f"warning: {warning}")
    model = report.get("llm") or {}
    if model.get("extract"):
        counts = " · ".join(f"{k} {v}" for k, v in model["extract"].items())
        render.status(f"extract stage: {counts}")
    for warning in model.get("warnings") or []:
        render.status(f"warning: the model fell back to the rules: {warning}")


def ingest(
    ctx: typer.Context,
    path: Annotated[
        Path, typer.Argument(help="A LoCoMo-shaped .json or a .jsonl conversation file.", show_default=False)
    ],
    format: Annotated[
        FormatChoice | None,
        typer.Option(
            "--format",
            help="The file's format (default: from the suffix, .json → locomo, .jsonl → jsonl).",
            show_default=False,
        ),
    ] = None,
    group: Annotated[
        str | None,
        group_option("Put every turn in this group (default: the file's sample_id / group field)."),
    ] = None,
    bulk: Annotated[
        bool | None,
        typer.Option(
            "--bulk/--no-bulk",
            help="Bulk load: build the search indexes once at the end instead of row by row (faster for a "
            "large first load into an empty Kuzu store; searches wait until it ends). Default: on for 500+ "
            "turns into an empty store.",
            show_default=False,
        ),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", min=1, metavar="N", help="Ingest only the file's first N turns.", show_default=False
        ),
    ] = None,
    llm: LLMOption = None,
    as_json: Json = False,
) -> None:
    """Ingest a conversation: episodes, chunks, entities and versioned facts.

    The whole file is validated before anything is written; re-running skips the turns already stored. A progress bar goes to stderr on a terminal. Ctrl-C stops it with exit status 130 and says how many episodes were committed: those stay, and running the same command again goes on from there. Seconds and turns/s leave out loading the embedding model (shown apart).

    Example: tkg ingest examples/priya_marco.json --limit 20
    """  # noqa: E501
    from ..ingest.loaders import load
    from ..ingest.pipeline import IngestInterrupted  # imported here: `tkg ask` never loads the ingest modules

    fmt = format.value if format else None
    loaded = load(path, format=fmt, group=group)  # fail on a bad file before loading a model
    turns = len(loaded.episodes[:limit])
    try:
        with open_memory(ctx, llm=llm) as mem, progress_bar(turns, f"ingest {path.name}") as tick:
            render.status(f"ingesting {turns} turn(s) from {path} into {mem.url}")
            report = mem.ingest(path, format=fmt, group=group, progress=tick, bulk=bulk, limit=limit)
    except IngestInterrupted as stop:
        render.status(f"interrupted: {stop.report.episodes} episode(s) committed and kept "
                      f"({stop.report.skipped_existing} already there); run the same command again to go on")
        raise typer.Exit(130) from None
    data = report.to_dict()
    if as_json:
        render.emit_json(data)
        return
    ingest_summary(data)


def forget(
    ctx: typer.Context,
    group: Annotated[str, group_option("The group to delete, with everything in it.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: Json = False,
) -> None:
    """Delete a group completely (episodes, chunks, entities, facts) and report what it held.

    Asks for confirmation on stderr unless --yes is given. Exits 1, deleting nothing, when the answer
    is no, or when there is no one to ask (no terminal, end of input: a script must pass --yes).

    Example: tkg forget --group priya-marco --yes
    """
    with open_memory(ctx) as mem:
        counts = require_group(mem, group)
        if not yes:
            question = (f"Delete group {group!r} ({counts['episodes']} episodes, {counts['facts']} facts) "
                        f"from {mem.url}?")
            try:
                confirmed = typer.confirm(question, err=True)
            except typer.Abort:  # end of input: nobody there to answer
                render.err.print()  # end the prompt's line
                render.error(f"nothing deleted: forget asks before deleting and got no answer; "
                             f"pass --yes to delete group {group!r} without asking")
                raise typer.Exit(1) from None
            if not confirmed:
                if not sys.stdin.isatty():
                    render.err.print()  # a piped answer is not echoed: end the prompt's line
                render.error(f"nothing deleted: group {group!r} is as it was")
                raise typer.Exit(1)
        result = mem.forget(group)
    if as_json:
        render.emit_json(
            {k: result.get(k) for k in ("group", "episodes", "chunks", "entities", "facts", "current_facts")}
        )
        return
    render.out.print(
        f"forgot group {group!r}: {result['episodes']} episodes, {result['chunks']} chunks, "
        f"{result['entities']} entities, {result['facts']} facts",
        markup=False,
    )


def groups(ctx: typer.Context, as_json: Json = False) -> None:
    """List the groups in the store with their counts and time span.

    Example: tkg groups --json
    """
    with open_memory(ctx) as mem:
        keys = ("episodes", "chunks", "entities", "facts", "current_facts", "first", "last")
        rows = [{"group": row["group_id"], **{k: row.get(k) for k in keys}} for row in mem.groups()]
        url = mem.url
    if as_json:
        render.emit_json({"store": url, "groups": rows})
        return
    table = render.groups_table(rows, title=f"groups in {url}")
    render.out.print(table)


def reembed(
    ctx: typer.Context,
    group: SomeGroup = None,
    as_json: Json = False,
) -> None:
    """Re-embed a group (or all) with the current embedder: chunks, entity names and fact sentences.

    Needed when a store was written with another embedding model (questions and ingest refuse it
    until then); each group is replaced in one transaction and then records the new model.

    Example: tkg reembed --group priya-marco
    """
    with open_memory(ctx) as mem:
        done = mem.reembed(group)
        url = mem.url
    if as_json:
        render.emit_json({"store": url, "groups": done})
        return
    for row in done:
        render.out.print(
            f"re-embedded group {row['group']!r} with {row['model']}: {row['chunks']} chunks, "
            f"{row['facts']} facts, {row['entities']} entity names",
            markup=False,
        )


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)
    app.command("forget")(forget)
    app.command("groups")(groups)
    app.command("reembed")(reembed)
