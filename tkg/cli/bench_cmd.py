"""`tkg bench …`: benchmark commands (placeholders until the bench engineer fills them in).

Each command exits 1 with a clear message, so scripts that call them fail loudly rather than
silently measuring nothing.
"""

from __future__ import annotations

import typer

from . import render

bench_app = typer.Typer(
    name="bench",
    help="Benchmarks: LoCoMo QA, temporal questions, ingest speed, extraction and classifier accuracy.",
    no_args_is_help=True,
)


def _not_yet(name: str) -> None:
    render.error(f"`tkg bench {name}` is not implemented yet")
    raise typer.Exit(1)


@bench_app.command("locomo")
def locomo() -> None:
    """Answer LoCoMo questions and score them (not implemented yet).

    Example: tkg bench locomo
    """
    _not_yet("locomo")


@bench_app.command("temporal")
def temporal() -> None:
    """Score as-of and latest-version questions on changing facts (not implemented yet).

    Example: tkg bench temporal
    """
    _not_yet("temporal")


@bench_app.command("ingest")
def ingest() -> None:
    """Measure ingest throughput in turns per second (not implemented yet).

    Example: tkg bench ingest
    """
    _not_yet("ingest")


@bench_app.command("extraction")
def extraction() -> None:
    """Score fact extraction against labelled turns (not implemented yet).

    Example: tkg bench extraction
    """
    _not_yet("extraction")


@bench_app.command("classifier")
def classifier() -> None:
    """Score the mode classifier against labelled questions (not implemented yet).

    Example: tkg bench classifier
    """
    _not_yet("classifier")
