"""`tkg bench …`: measure retrieval quality, temporal accuracy, speed and the offline models.

Every benchmark that ingests starts from a fresh store: ``--store`` (or the global ``--store`` /
``TKG_STORE``) when given — a Kuzu path that does not exist yet, or a Neo4j server whose
benchmark groups are deleted first — else a temporary Kuzu database removed afterwards.
Tables go to stdout; with ``--json`` the last line of stdout is the report as one JSON object and
the tables go to stderr. Progress bars go to stderr on a terminal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from ..stores.factory import parse_store_url
from . import render
from .common import LLMOption, llm_spec, state
from .help_format import PlainGroup

bench_app = typer.Typer(
    name="bench",
    help="Benchmarks: LoCoMo retrieval, temporal questions, ingest speed, extraction and classifier accuracy,"
         " soak.\n\n"
    "Example: tkg bench qa chat_dev.json --json",
    no_args_is_help=True,
    cls=PlainGroup,
)

Json = Annotated[
    bool,
    typer.Option(
        "--json", help="Print tables on stderr and the report as one JSON object on the last line of stdout."
    ),
]
Store = Annotated[
    str | None,
    typer.Option(
        "--store",
        metavar="URL",
        show_default=False,
        help="Benchmark store: a new Kuzu path or bolt://… (default: the global --store/TKG_STORE, else a "
             "temporary Kuzu database).",
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
def _bench(ctx: typer.Context, store: str | None, embed_cache: bool = False,
           llm: str | None = None) -> Iterator[tuple[Any, Bars]]:
    from ..bench.fresh import bench_memory

    bars = Bars()
    with bench_memory(store or state(ctx).store, embed_cache=embed_cache, llm=llm_spec(llm)) as bm:
        if bm.mem.ctx.models.models:
            render.status(f"model stages: {bm.mem.ctx.models.describe()}")
        render.status(f"benchmark store: {bm.url} (model loaded in {bm.model_load_s}s, not timed)")
        try:
            yield bm, bars
        finally:
            bars.close()


def _emit(report: dict[str, Any], tables: list[Any], as_json: bool) -> None:
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


def _write_details(path: Path | None, rows: list[dict[str, Any]]) -> None:
    if path is None:
        return
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(render.jsonable(row), ensure_ascii=False) + "\n")
    render.status(f"wrote {len(rows)} question record(s) to {path}")


@bench_app.command("locomo")
def locomo(
    ctx: typer.Context,
    path: LocomoPath,
    as_json: Json = False,
    baselines: Annotated[
        bool,
        typer.Option(
            "--baselines",
            help="Also score BM25-only, dense-only and brute-force numpy retrieval on the same store.",
        ),
    ] = False,
    peers: Annotated[
        bool,
        typer.Option(
            "--peers", help="Also run graphiti-core's hybrid search on the same graph (Neo4j stores only)."
        ),
    ] = False,
    limit: Limit = None,
    samples: Samples = None,
    store: Store = None,
    embed_cache: EmbedCache = False,
    details: Details = None,
    llm: LLMOption = None,
) -> None:
    """Ingest a LoCoMo file into a fresh store, ask every question, score evidence Hit@k / MRR.

    Reports overall, per category and per routed mode; abstention on adversarial questions; latency p50/p95 (model load excluded); ingest throughput.

    Example: tkg bench locomo data/locomo10.json --baselines --json
    """  # noqa: E501
    from ..bench.locomo import run_locomo
    from ..bench.report import locomo_tables, peers_tables

    with _bench(ctx, store, embed_cache, llm) as (bm, bars):
        run = run_locomo(bm, path, samples=samples, limit=limit, baselines=baselines, progress=bars)
        tables = locomo_tables(run.report)
        if peers:
            from ..bench.peers import run_peers

            run.report["peers"] = run_peers(
                bm, run.questions, run.known, run.results, bars("graphiti", len(run.questions))
            )
            tables += peers_tables(run.report["peers"])
    _write_details(details, [r.to_dict() for r in run.results])
    _emit(run.report, tables, as_json)


@bench_app.command("qa")
def qa(
    ctx: typer.Context,
    path: Annotated[
        Path,
        typer.Argument(
            help="A LoCoMo-shaped .json file whose qa items carry mode and key.", show_default=False
        ),
    ],
    as_json: Json = False,
    show_fails: Annotated[
        bool,
        typer.Option(
            "--show-fails",
            help="Print each wrong answer with the wanted one, the routed mode and the procedure.",
        ),
    ] = False,
    limit: Limit = None,
    samples: Samples = None,
    store: Store = None,
    embed_cache: EmbedCache = False,
    details: Details = None,
    llm: LLMOption = None,
) -> None:
    """Answer accuracy on labelled conversations: by mode, abstention, answered precision, evidence hits.

    A question is right when its answer contains one string of every group of its key; an 'abstain'
    question is right when the answer is "No information available".

    Example: tkg bench qa chat_dev.json --show-fails
    """
    from ..bench.qa import load_items, run_qa
    from ..bench.report import qa_failures, qa_tables

    items = load_items(path, samples=samples, limit=limit)
    with _bench(ctx, store, embed_cache, llm) as (bm, bars):
        report, results = run_qa(bm, path, items, progress=bars)
    rows = [r.to_dict() for r in results]
    tables = qa_tables(report) + ([qa_failures(rows)] if show_fails else [])
    _write_details(details, rows)
    _emit(report, tables, as_json)


@bench_app.command("peers")
def peers(
    ctx: typer.Context,
    path: LocomoPath,
    as_json: Json = False,
    limit: Limit = None,
    samples: Samples = None,
    store: Store = None,
    embed_cache: EmbedCache = False,
) -> None:
    """graphiti-core's hybrid search (RRF recipes, no LLM) beside tkg on the same Neo4j graph and questions.

    Example: tkg bench peers data/locomo10.json --store bolt://127.0.0.1:7687
    """
    from ..bench.locomo import run_locomo
    from ..bench.peers import require_server, run_peers
    from ..bench.report import peers_tables

    with _bench(ctx, store, embed_cache) as (bm, bars):
        require_server(bm)
        run = run_locomo(bm, path, samples=samples, limit=limit, progress=bars)
        try:
            report = run_peers(
                bm, run.questions, run.known, run.results, bars("graphiti", len(run.questions))
            )
        finally:
            removed = bm.forget_groups(run.report["ingest"]["groups"])  # the server is left as it was
    render.status(f"removed the {len(removed)} group(s) this run wrote from {bm.url}")
    report["machine"], report["file"], report["ingest"] = (
        run.report["machine"],
        str(path),
        run.report["ingest"],
    )
    _emit(report, peers_tables(report), as_json)


@bench_app.command("temporal")
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
    store: Store = None,
    embed_cache: EmbedCache = False,
    details: Details = None,
    llm: LLMOption = None,
) -> None:
    """Generated conversations with changing facts: accuracy per question kind, latency, ingest, store size.

    With --scale and --json, each size's report is printed as a JSON line when it finishes and the summary (rows, growth, every run) is the last line.

    Example: tkg bench temporal --size 1000 --seed 0
    """  # noqa: E501
    from ..bench.report import scale_table, temporal_tables
    from ..bench.temporal import growth, run_temporal, scale_row
    from ..bench.temporal import plot as draw

    if scale is None:
        with _bench(ctx, store, embed_cache, llm) as (bm, bars):
            report = run_temporal(bm, size, seed, questions=questions, progress=bars)
        _write_details(details, report.pop("records"))
        _emit(report, temporal_tables(report), as_json)
        return
    sizes = _sizes(scale)
    reports, rows = [], []
    for n in sizes:
        with _bench(ctx, _scaled(store or state(ctx).store, n), embed_cache, llm) as (bm, bars):
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
    _emit(summary, scale_table(rows, grow), as_json)


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


@bench_app.command("ingest")
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
    with _bench(ctx, store, embed_cache, llm) as (bm, bars):
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
    _emit(
        report,
        [table(f"ingest {path.name}", ["", "value"], [*rows, ("store bytes", size["bytes"])])],
        as_json,
    )


@bench_app.command("soak")
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
    _emit(report, [table(f"soak, seed {seed}", ["", "value"], summary),
                   table("operations", ["op", "n", "p50 ms", "p95 ms", "max ms"], ops)], as_json)
    if not result["ok"]:
        raise typer.Exit(1)


@bench_app.command("extraction")
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
    _emit(
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


@bench_app.command("classifier")
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
    _emit(report, tables, as_json)


@bench_app.command("mcp")
def mcp(
    ctx: typer.Context,
    path: LocomoPath,
    as_json: Json = False,
    limit: Limit = None,
    samples: Samples = None,
    store: Store = None,
    embed_cache: EmbedCache = False,
) -> None:
    """The MCP server against the Python API on the same LoCoMo questions: start-up to first answer, p50/p95, overhead per call.

    Ingests into a fresh store, asks every question through Memory.ask in a Python process of its own (warmed like the server), then starts `tkg serve mcp` on stdio and asks them again through the mcp SDK's client; also times one cold `tkg ask` process. Overhead is reported as MCP time minus API time per question, and as the round trip minus the server's own time.

    Example: tkg bench mcp data/locomo_dev5.json --samples 1 --limit 100 --json
    """  # noqa: E501
    from ..bench.mcp_cost import run_mcp
    from ..bench.report import table

    with _bench(ctx, store, embed_cache) as (bm, bars):
        report = run_mcp(bm, path, samples=samples, limit=limit, embed_cache=embed_cache, progress=bars)
    lat, over = report["latency_ms"], report["overhead_ms"]
    rows = [
        (name, lat[key]["n"], lat[key]["p50"], lat[key]["p95"], lat[key]["mean"], lat[key]["max"])
        for name, key in (
            ("python api (Memory.ask)", "python_api"),
            ("mcp stdio (call_tool ask)", "mcp_stdio"),
        )
    ]
    _emit(
        report,
        [
            table(
                f"ask latency, {report['questions']} questions ({report['backend']})",
                ["path", "n", "p50 ms", "p95 ms", "mean ms", "max ms"],
                rows,
            ),
            table(
                "start-up and overhead",
                ["", "value"],
                [
                    ("server start to first answer (s)", report["start_to_first_answer_s"]),
                    ("server start to ready (s)", report["start_to_ready_s"]),
                    ("one cold `tkg ask --mode single_fact` process (s)", report["cli_cold_ask"]["seconds"]),
                    ("  of which answering (ms)", report["cli_cold_ask"]["answer_ms"]),
                    ("MCP overhead per call p50 (ms)", over["p50"]),
                    ("MCP overhead per call p95 (ms)", over["p95"]),
                    ("MCP overhead per call mean (ms)", over["mean"]),
                    ("MCP round trip minus server time p50 (ms)", report["mcp_transport_ms"]["p50"]),
                    ("MCP round trip minus server time p95 (ms)", report["mcp_transport_ms"]["p95"]),
                    ("same answer both ways", f"{report['same_answers']} / {report['questions']}"),
                ],
            ),
        ],
        as_json,
    )
