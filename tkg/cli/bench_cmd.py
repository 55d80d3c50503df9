"""`tkg bench …`: measure retrieval quality, temporal accuracy, speed and the offline models.

The options, the fresh store and the output every benchmark shares are in `bench_common.py`; the
benchmarks that ask a LoCoMo file's questions (locomo, qa, peers, mcp) in `bench_questions_cmd.py`;
the generated, ingest-only, soak and offline-model benchmarks here.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from ..stores.factory import parse_store_url
from . import render
from .bench_common import (
    EmbedCache,
    Fresh,
    Json,
    Recorded,
    Store,
    bench_store,
    emit,
    with_options,
    write_details,
)
from .bench_questions_cmd import locomo, mcp, peers, qa
from .common import LLMOption, state
from .help_format import PlainGroup

bench_app = typer.Typer(
    name="bench",
    help="Benchmarks: LoCoMo retrieval, temporal questions, ingest speed, extraction and classifier accuracy,"
         " soak.\n\n"
    "Example: tkg bench qa chat_dev.json --json",
    no_args_is_help=True,
    cls=PlainGroup,
)


@with_options(fresh=Fresh, record=Recorded)
def temporal(
    ctx: typer.Context,
    as_json: Json = False,
    size: Annotated[int, typer.Option("--size", min=1, help="Episodes (turns) to generate in total.")] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", help="Generator seed: the same seed gives the same conversations.")
    ] = 0,
    questions: Annotated[
        int, typer.Option("--questions", min=1, help="Questions to ask, spread evenly over the kinds.")
    ] = 300,
    scale: Annotated[
        str | None,
        typer.Option(
            "--scale",
            metavar="SIZES",
            show_default=False,
            help="Comma-separated sizes, e.g. 1000,10000,100000: one fresh store each; prints how cost grows "
                 "with N.",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="PNG",
            show_default=False,
            help="With --scale: write a plot here (needs matplotlib, the 'plot' extra).",
        ),
    ] = None,
    *,
    fresh: Fresh,
    record: Recorded,
) -> None:
    """Generated conversations with changing facts: accuracy per question kind, latency, ingest, store size.

    With --scale and --json, each size's report is printed as a JSON line when it finishes and the summary (rows, growth, every run) is the last line.

    Example: tkg bench temporal --size 1000 --seed 0
    """  # noqa: E501
    from ..bench.report import scale_table, temporal_tables
    from ..bench.temporal import growth, run_temporal, scale_row
    from ..bench.temporal import plot as draw

    if scale is None:
        with bench_store(ctx, fresh, record.llm) as (bm, bars):
            report = run_temporal(bm, size, seed, questions=questions, progress=bars)
        write_details(record.details, report.pop("records"))
        emit(report, temporal_tables(report), as_json)
        return
    sizes = _sizes(scale)
    reports, rows = [], []
    for n in sizes:
        sized = replace(fresh, store=_scaled(fresh.store or state(ctx).store, n))
        with bench_store(ctx, sized, record.llm) as (bm, bars):
            rep = run_temporal(bm, n, seed, questions=questions, progress=bars)
            if bm.shared:
                from ..bench.temporal import cleanup

                cleanup(bm, n, seed)
        rep.pop("records")
        reports.append(rep)
        rows.append(scale_row(rep))
        if as_json:  # each size as soon as it is done, so a long run that dies keeps what it measured
            from ..bench.report import json_line

            sys.stdout.write(json_line(rep) + "\n")
            sys.stdout.flush()
        render.status(
            f"size {n}: ingest {rep['ingest']['seconds']}s, p95 {rep['latency_ms']['p95']} ms, accuracy "
            f"{rep['overall_accuracy']}"
        )
    grow = growth(rows)
    summary: dict[str, Any] = {
        "benchmark": "temporal-scale",
        "seed": seed,
        "rows": rows,
        "growth": grow,
        "runs": reports,
    }
    if plot is not None:
        why = draw(rows, str(plot), f"tkg temporal benchmark ({reports[0]['backend']})")
        summary["plot"] = None if why else str(plot)
        render.status(why or f"wrote {plot}")
    emit(summary, scale_table(rows, grow), as_json)


def _sizes(text: str) -> list[int]:
    from ..errors import InputError

    try:
        sizes = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise InputError(f"--scale takes comma-separated integers, e.g. 1000,10000; got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise InputError("--scale needs at least one size >= 1")
    return sorted(sizes)


def _scaled(url: str | None, n: int) -> str | None:
    """One store per size: Kuzu paths get a ``-<n>`` suffix; Neo4j is reused (groups deleted between
    sizes)."""
    if url is None or parse_store_url(url).path is None:
        return url
    return f"{url}-{n}"


def ingest(
    ctx: typer.Context,
    path: Annotated[
        Path, typer.Argument(help="A LoCoMo .json or a .jsonl conversation file.", show_default=False)
    ],
    as_json: Json = False,
    store: Store = None,
    embed_cache: EmbedCache = False,
    bulk: Annotated[
        bool | None,
        typer.Option(
            "--bulk/--no-bulk",
            show_default=False,
            help="Force the bulk load on or off (default: on, the store is fresh).",
        ),
    ] = None,
    llm: LLMOption = None,
) -> None:
    """Ingest throughput only: turns, seconds, turns/s into a fresh store (model load excluded).

    Example: tkg bench ingest data/locomo10.json --embed-cache --no-bulk
    """
    from ..bench.fresh import machine
    from ..bench.locomo import ingest_turns
    from ..bench.report import table
    from ..ingest.loaders import load

    episodes = load(path).episodes
    with bench_store(ctx, Fresh(store, embed_cache), llm) as (bm, bars):
        result = ingest_turns(bm, episodes, bars("ingest", len(episodes)), bulk=bulk)
        size = bm.size()
        notes = list(bm.notes)
    result.pop("refs")
    report = {
        "benchmark": "ingest",
        "file": str(path),
        "store": bm.url,
        "machine": machine(),
        "embed_cache": embed_cache,
        "ingest": result,
        "store_size": size,
        "target_turns_per_s": 100,
        "notes": notes,
    }
    rows = [
        (k, result[k])
        for k in ("turns", "seconds", "turns_per_s", "chunks", "entities", "facts", "superseded")
    ]
    emit(
        report,
        [table(f"ingest {path.name}", ["", "value"], [*rows, ("store bytes", size["bytes"])])],
        as_json,
    )


def soak(
    ctx: typer.Context,
    as_json: Json = False,
    minutes: Annotated[
        float, typer.Option("--minutes", min=0.01, help="How long to run, wall clock (0.5 = 30 s).")
    ] = 5.0,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            help="Operation and conversation seed: the same seed gives the same sequence of choices.",
        ),
    ] = 0,
    groups: Annotated[
        int,
        typer.Option(
            "--groups", min=2, help="Groups alive at once (one is forgotten now and then and replaced)."
        ),
    ] = 4,
    store: Store = None,
    embed_cache: EmbedCache = False,
) -> None:
    """Random ingest, re-ingest, ask, state, history and forget across groups, checking invariants as it goes.

    Every few operations it checks that each group holds exactly the episodes it was given, whole, with no edge across groups and one current value per single-valued slot; that evidence never comes from another group; and that forgetting a group leaves the others byte for byte. Its groups are forgotten at the end, so a shared Neo4j is left as it was. Exits 1 when anything broke.

    Example: tkg bench soak --minutes 1 --seed 7 --store bolt://127.0.0.1:7687 --json
    """  # noqa: E501
    import shutil
    import tempfile

    from ..bench.fresh import machine
    from ..bench.report import table
    from ..bench.soak import soak as run_soak
    from ..embed import get_embedder
    from ..errors import InputError

    url, tmp = store or state(ctx).store, None
    if url is None:
        tmp = Path(tempfile.mkdtemp(prefix="tkg-soak-"))
        url = f"kuzu://{tmp}/soak.kuzu"
    spec = parse_store_url(url)
    if spec.path is not None and tmp is None and spec.path.exists():
        raise InputError(f"{spec.target} already exists; a benchmark needs a fresh store (give a new path)")
    embedder = get_embedder(None, cache=embed_cache)
    embedder.embed(["warm-up: load the model before anything is timed"])
    render.status(f"soak store: {spec.redacted}, {minutes} min, seed {seed}")
    try:
        result = run_soak(url, minutes, seed, embedder=embedder, groups=groups)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    report = {"benchmark": "soak", "machine": machine(), "embed_cache": embed_cache, **result,
              "url": spec.redacted if tmp is None else "temporary kuzu"}
    summary = [("seconds", result["seconds"]), ("operations", sum(result["ops"].values())),
               ("invariant checks", result["checks"]), ("episodes ingested", result["episodes_ingested"]),
               ("groups created", result["groups_created"]), ("groups forgotten", result["groups_forgotten"]),
               ("violations", len(result["violations"])), ("errors", result["error_count"]),
               ("ok", result["ok"])]  # fmt: skip
    ops = [
        (op, n, *(result["latency_ms"][op][k] for k in ("p50", "p95", "max")))
        for op, n in sorted(result["ops"].items())
    ]
    for line in [*result["violations"], *result["errors"]]:
        render.error(line)
    emit(report, [table(f"soak, seed {seed}", ["", "value"], summary),
                   table("operations", ["op", "n", "p50 ms", "p95 ms", "max ms"], ops)], as_json)
    if not result["ok"]:
        raise typer.Exit(1)


def extraction(
    as_json: Json = False,
    file: Annotated[Path, typer.Option("--file", help="The labelled JSONL set.")] = Path(
        "tests/data/extraction_labelled.jsonl"
    ),
    locomo: Annotated[
        Path | None,
        typer.Option(
            "--locomo",
            metavar="PATH",
            show_default=False,
            help="Also count the facts extracted from a LoCoMo-shaped file, per predicate, with sampled "
                 "examples to spot-check.",
        ),
    ] = None,
) -> None:
    """Precision / recall / F1 of fact extraction against labelled sentences, per split and predicate.

    Example: tkg bench extraction --locomo data/locomo10.json --json
    """
    from ..bench.report import table
    from ..extract.evaluate import evaluate

    report = evaluate(file)
    errors = report.pop("errors", [])
    report = {"benchmark": "extraction", "file": str(file), **report, "error_count": len(errors)}
    extra = []
    if locomo is not None:
        from ..extract.survey import survey_locomo

        report["locomo"] = survey_locomo(locomo)
        counts = report["locomo"]["counts"]
        extra.append(
            table(
                f"facts extracted from {locomo.name} ({report['locomo']['turns']} turns)",
                ["predicate", "facts"],
                [*counts.items(), ("all", sum(counts.values()))],
            )
        )
    rows = [("all", *(report["overall"][k] for k in ("precision", "recall", "f1", "tp", "fp", "fn")))]
    rows += [(f"split {s}", *(v["overall"][k] for k in ("precision", "recall", "f1", "tp", "fp", "fn")))
             for s, v in report.get("splits", {}).items()]
    rows += [
        (p, *(v[k] for k in ("precision", "recall", "f1", "tp", "fp", "fn")))
        for p, v in report["per_predicate"].items()
    ]
    emit(
        report,
        [
            table(
                f"extraction ({report['sentences']} sentences; time accuracy {report['time_accuracy']})",
                ["", "precision", "recall", "f1", "tp", "fp", "fn"],
                rows,
            ),
            *extra,
        ],
        as_json,
    )


def classifier(as_json: Json = False) -> None:
    """Accuracy of the offline mode classifier on its held-out questions, per mode.

    Example: tkg bench classifier
    """
    from planners.classifier import evaluate_classifier

    from ..bench.report import table

    report = {"benchmark": "classifier", **evaluate_classifier()}
    rows: list[tuple[Any, ...]] = []
    for mode, row in (report.get("confusion") or {}).items():
        n = sum(row.values())
        rows.append((mode, n, row.get(mode, 0), round(row.get(mode, 0) / n, 3) if n else None))
    rows.append(("all (held out)", report.get("n_heldout"), None, report.get("accuracy")))
    tables = [
        table(
            f"mode classifier (trained on {report.get('n_train')} questions)",
            ["mode", "n", "correct", "accuracy"],
            rows,
        )
    ]
    errors = report.get("errors") or []
    if errors:
        tables.append(table("misrouted held-out questions", ["question", "expected", "predicted"],
                            ([e["question"], e["expected"], e["predicted"]] for e in errors)))
    emit(report, tables, as_json)


for _name, _command in (
    ("locomo", locomo), ("qa", qa), ("peers", peers), ("temporal", temporal), ("ingest", ingest),
    ("soak", soak), ("extraction", extraction), ("classifier", classifier), ("mcp", mcp),
):
    bench_app.command(_name)(_command)
