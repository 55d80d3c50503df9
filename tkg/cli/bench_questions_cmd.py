"""`tkg bench locomo | qa | peers | mcp`: the benchmarks that ask a LoCoMo-shaped file's questions.

Each ingests the file into a fresh store (see `bench_common.py`), asks every question and scores
the evidence (locomo), the answers (qa), graphiti-core beside tkg (peers) or the MCP server beside
the Python API (mcp).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from . import render
from .bench_common import (
    Bars,
    Fresh,
    Json,
    LocomoPath,
    Recorded,
    Sampled,
    bench_store,
    emit,
    with_options,
    write_details,
)


@with_options(pick=Sampled, fresh=Fresh, record=Recorded)
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
    *,
    pick: Sampled,
    fresh: Fresh,
    record: Recorded,
) -> None:
    """Ingest a LoCoMo file into a fresh store, ask every question, score evidence Hit@k / MRR.

    Reports overall, per category and per routed mode; abstention on adversarial questions; latency p50/p95 (model load excluded); ingest throughput.

    Example: tkg bench locomo data/locomo10.json --baselines --json
    """  # noqa: E501
    from ..bench.locomo import ingest_questions, run_locomo
    from ..bench.report import locomo_tables, peers_tables

    with bench_store(ctx, fresh, record.llm) as (bm, bars):
        got = ingest_questions(bm, path, samples=pick.samples, limit=pick.limit, progress=bars)
        run = run_locomo(bm, got, baselines=baselines)
        tables = locomo_tables(run.report)
        if peers:
            from ..bench.peers import run_peers

            run.report["peers"] = run_peers(
                bm, run.questions, run.known, run.results, bars("graphiti", len(run.questions))
            )
            tables += peers_tables(run.report["peers"])
    write_details(record.details, [r.to_dict() for r in run.results])
    emit(run.report, tables, as_json)


@with_options(pick=Sampled, fresh=Fresh, record=Recorded)
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
    *,
    pick: Sampled,
    fresh: Fresh,
    record: Recorded,
) -> None:
    """Answer accuracy on labelled conversations: by mode, abstention, answered precision, evidence hits.

    A question is right when its answer contains one string of every group of its key; an 'abstain'
    question is right when the answer is "No information available".

    Example: tkg bench qa chat_dev.json --show-fails
    """
    from ..bench.qa import load_items, run_qa
    from ..bench.report import qa_failures, qa_tables

    items = load_items(path, samples=pick.samples, limit=pick.limit)
    with bench_store(ctx, fresh, record.llm) as (bm, bars):
        report, results = run_qa(bm, path, items, progress=bars)
    rows = [r.to_dict() for r in results]
    tables = qa_tables(report) + ([qa_failures(rows)] if show_fails else [])
    write_details(record.details, rows)
    emit(report, tables, as_json)


# a question benchmark's report, its tables, and a line to say once its store is closed (or None)
Measured = tuple[dict[str, Any], list[Any], str | None]


def _on_questions(measure: Callable[[Any, Bars, Path, Sampled, Fresh], Measured]) -> Callable[..., None]:
    """A command that measures something over a LoCoMo file's questions on a fresh store (peers,
    mcp): ``measure`` runs while the store is open; its docstring is the command's help."""

    def command(
        ctx: typer.Context, path: LocomoPath, as_json: Json = False, *, pick: Sampled, fresh: Fresh
    ) -> None:
        with bench_store(ctx, fresh) as (bm, bars):
            report, tables, closing = measure(bm, bars, path, pick, fresh)
        if closing:
            render.status(closing)
        emit(report, tables, as_json)

    command.__name__ = command.__qualname__ = measure.__name__
    command.__doc__ = measure.__doc__
    return with_options(pick=Sampled, fresh=Fresh)(command)


def _peers(bm: Any, bars: Bars, path: Path, pick: Sampled, fresh: Fresh) -> Measured:
    """graphiti-core's hybrid search (RRF recipes, no LLM) beside tkg on the same Neo4j graph and questions.

    Example: tkg bench peers data/locomo10.json --store bolt://127.0.0.1:7687
    """
    from ..bench.locomo import ingest_questions, run_locomo
    from ..bench.peers import require_server, run_peers
    from ..bench.report import peers_tables

    require_server(bm)
    run = run_locomo(bm, ingest_questions(bm, path, samples=pick.samples, limit=pick.limit, progress=bars))
    try:
        report = run_peers(bm, run.questions, run.known, run.results, bars("graphiti", len(run.questions)))
    finally:
        removed = bm.forget_groups(run.report["ingest"]["groups"])  # the server is left as it was
    report["machine"], report["file"], report["ingest"] = (
        run.report["machine"],
        str(path),
        run.report["ingest"],
    )
    return report, peers_tables(report), f"removed the {len(removed)} group(s) this run wrote from {bm.url}"


def _mcp(bm: Any, bars: Bars, path: Path, pick: Sampled, fresh: Fresh) -> Measured:
    """The MCP server against the Python API on the same LoCoMo questions: start-up to first answer, p50/p95, overhead per call.

    Ingests into a fresh store, asks every question through Memory.ask in a Python process of its own (warmed like the server), then starts `tkg serve mcp` on stdio and asks them again through the mcp SDK's client; also times one cold `tkg ask` process. Overhead is reported as MCP time minus API time per question, and as the round trip minus the server's own time.

    Example: tkg bench mcp data/locomo_dev5.json --samples 1 --limit 100 --json
    """  # noqa: E501
    from ..bench.locomo import ingest_questions
    from ..bench.mcp_cost import run_mcp
    from ..bench.report import table

    got = ingest_questions(bm, path, samples=pick.samples, limit=pick.limit, progress=bars)
    report = run_mcp(bm, got, embed_cache=fresh.embed_cache)
    lat, over = report["latency_ms"], report["overhead_ms"]
    rows = [
        (name, lat[key]["n"], lat[key]["p50"], lat[key]["p95"], lat[key]["mean"], lat[key]["max"])
        for name, key in (
            ("python api (Memory.ask)", "python_api"),
            ("mcp stdio (call_tool ask)", "mcp_stdio"),
        )
    ]
    return (
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
        None,
    )


peers = _on_questions(_peers)
mcp = _on_questions(_mcp)
