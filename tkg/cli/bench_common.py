"""What the `tkg bench …` commands share: their options, progress bars, the fresh store, the output.

Every benchmark that ingests starts from a fresh store: ``--store`` (or the global ``--store`` /
``TKG_STORE``) when given — a Kuzu path that does not exist yet, or a Neo4j server whose
benchmark groups are deleted first — else a temporary Kuzu database removed afterwards.
Tables go to stdout; with ``--json`` the last line of stdout is the report as one JSON object and
the tables go to stderr. Progress bars go to stderr on a terminal.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated, Any, get_type_hints

import typer

from . import render
from .common import LLMOption, llm_spec, state, store_option

Json = Annotated[
    bool,
    typer.Option(
        "--json", help="Print tables on stderr and the report as one JSON object on the last line of stdout."
    ),
]
Store = Annotated[
    str | None,
    store_option(
        "Benchmark store: a new Kuzu path or bolt://… (default: the global --store/TKG_STORE, else a "
        "temporary Kuzu database)."
    ),
]
EmbedCache = Annotated[
    bool,
    typer.Option(
        "--embed-cache/--no-embed-cache",
        help="Use the embedding cache (off by default, so ingest speed is the model's own).",
    ),
]
Details = Annotated[
    Path | None,
    typer.Option(
        "--details",
        metavar="JSONL",
        show_default=False,
        help="Also write one JSON line per question (answer, evidence rank, latency) to this file.",
    ),
]
Limit = Annotated[
    int | None, typer.Option("--limit", min=1, show_default=False, help="Ask at most N questions per sample.")
]
Samples = Annotated[
    int | None,
    typer.Option("--samples", min=1, show_default=False, help="Use only the first K samples of the file."),
]
LocomoPath = Annotated[
    Path,
    typer.Argument(help="A LoCoMo-shaped .json file (samples with conversation and qa).", show_default=False),
]



@dataclass(frozen=True)
class Sampled:
    """Which of a file's questions a benchmark asks (``--limit``, ``--samples``)."""

    limit: Limit = None
    samples: Samples = None


@dataclass(frozen=True)
class Fresh:
    """The store a benchmark starts from (``--store``, ``--embed-cache``)."""

    store: Store = None
    embed_cache: EmbedCache = False


@dataclass(frozen=True)
class Recorded:
    """What a benchmark keeps besides its report (``--details``) and the model stages (``--llm``)."""

    details: Details = None
    llm: LLMOption = None


def with_options(**groups: type[Any]) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give a command the options of ``groups`` (dataclasses such as `Fresh`), after its own.

    typer reads a command's options from its signature; the options several benchmarks take are
    declared once, as the fields of a group, and the command gets each group built, by the name it
    is given here (``@with_options(fresh=Fresh)`` → ``fresh: Fresh``).
    """

    def add(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name not in groups]
        taken = {  # the parameters each group adds, in its fields' order
            name: [
                inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default,
                                  annotation=get_type_hints(kind, include_extras=True)[f.name])
                for f in fields(kind)
            ]
            for name, kind in groups.items()
        }

        def run(**given: Any) -> None:
            for name, kind in groups.items():
                given[name] = kind(**{p.name: given.pop(p.name) for p in taken[name]})
            command(**given)

        run.__name__, run.__qualname__, run.__doc__ = command.__name__, command.__qualname__, command.__doc__
        run.__module__ = command.__module__
        run.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [*own, *(p for params in taken.values() for p in params)]
        )
        return run

    return add


class Bars:
    """tqdm bars on stderr (shown only on a terminal), closed together at the end."""

    def __init__(self) -> None:
        self._bars: list[Any] = []

    def __call__(self, label: str, total: int) -> Callable[[int], None]:
        from tqdm import tqdm

        render.status(f"{label}: {total}")
        bar = tqdm(total=total, desc=label, file=sys.stderr, disable=None, leave=False, dynamic_ncols=True)
        self._bars.append(bar)
        return bar.update

    def close(self) -> None:
        for bar in self._bars:
            bar.close()


@contextmanager
def bench_store(ctx: typer.Context, fresh: Fresh, llm: str | None = None) -> Iterator[tuple[Any, Bars]]:
    """A fresh benchmark store (a `BenchMemory`) and the run's progress bars, closed at the end."""
    from ..bench.fresh import bench_memory

    bars = Bars()
    url = fresh.store or state(ctx).store
    with bench_memory(url, embed_cache=fresh.embed_cache, llm=llm_spec(llm)) as bm:
        if bm.mem.ctx.models.models:
            render.status(f"model stages: {bm.mem.ctx.models.describe()}")
        render.status(f"benchmark store: {bm.url} (model loaded in {bm.model_load_s}s, not timed)")
        try:
            yield bm, bars
        finally:
            bars.close()


def emit(report: dict[str, Any], tables: list[Any], as_json: bool) -> None:
    """The tables (stdout, or stderr with ``--json``), the report's notes, then the JSON line."""
    from rich.console import Console

    from ..bench.report import json_line, show
    from ..llm.usage import PROCESS, summarize

    report.setdefault("usage", summarize(PROCESS.rows()))  # the model stages' tokens and cost; zeros offline
    console = render.err if as_json else render.out
    if not console.is_terminal:  # a log file: wide enough that benchmark tables never wrap
        console = Console(stderr=as_json, highlight=False, width=160)
    show(tables, console)
    for note in report.get("notes") or []:
        render.status(f"note: {note}")
    if as_json:
        sys.stdout.write(json_line(report) + "\n")
        sys.stdout.flush()


def write_details(path: Path | None, rows: list[dict[str, Any]]) -> None:
    """With ``--details``: one JSON line per question record."""
    if path is None:
        return
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(render.jsonable(row), ensure_ascii=False) + "\n")
    render.status(f"wrote {len(rows)} question record(s) to {path}")

