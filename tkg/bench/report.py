"""Benchmark reports for people (rich tables) and programs (one JSON line).

With ``--json`` the last line of stdout is the whole report as one compact JSON object, so
``tkg bench locomo f.json --json | tail -n 1 | jq .retrieval`` works whatever was printed before.

Example::

    >>> json_line({"retrieval": {"hit@10": 0.8}})
    '{"retrieval": {"hit@10": 0.8}}'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from ..cli.render import jsonable

RANK_KEYS = ("hit@1", "hit@3", "hit@5", "hit@10", "mrr", "n")


def json_line(data: Any) -> str:
    """The report as one line of JSON (datetimes as ISO 8601)."""
    return json.dumps(jsonable(data), ensure_ascii=False, separators=(", ", ": "))


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def table(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> Table:
    t = Table(title=title, title_justify="left", header_style="bold")
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i == 0 else "right")
    for row in rows:
        t.add_row(*(_fmt(v) for v in row))
    return t


def _ranks(
    title: str, first: str, items: Mapping[str, Mapping[str, Any]], extra: Sequence[str] = ()
) -> Table:
    return table(
        title,
        [first, *RANK_KEYS, *extra],
        ([name, *(s.get(k) for k in RANK_KEYS), *(s.get(k) for k in extra)] for name, s in items.items()),
    )


def locomo_tables(r: Mapping[str, Any]) -> list[Table]:
    """Overall, per category, per mode, abstention/latency/ingest, and baselines when present."""
    out = [_ranks("evidence retrieval (categories 1–4)", "", {"tkg": r["retrieval"]}),
           _ranks("by LoCoMo category", "category", r["by_category"]),
           _ranks("by routed mode (categories 1–4)", "mode", r["by_mode"], extra=("routed",))]
    ab, lat, ing = r["abstention"], r["latency_ms"], r["ingest"]
    rows = [("adversarial (cat 5) abstained", ab["adversarial_abstained"], f"n={ab['adversarial_n']}"),
            ("false abstention (cat 1–4)", ab["false_abstention"], f"n={ab['answerable_n']}"),
            ("query latency p50 / p95 ms", lat["p50"], lat["p95"]),
            ("ingest turns / seconds", ing["turns"], ing["seconds"]),
            ("ingest turns/s", ing["turns_per_s"], ""),
            ("ingest time embedding (share)", ing.get("embed_s"), ing.get("embed_share")),
            ("embedding ms per question (mean)", r.get("query_embed_ms_mean"), ""),
            ("model load s (excluded)", r.get("model_load_s"), "")]
    if r.get("router_agreement"):
        rows.append(("router agreement", r["router_agreement"]["agree"], f"n={r['router_agreement']['n']}"))
    out.append(table("abstention, latency, ingest", ["", "value", ""], rows))
    out.extend(timing_tables(r))
    if r.get("baselines"):
        out.append(baselines_table(r))
    return out


def baselines_table(r: Mapping[str, Any]) -> Table:
    rows: list[list[Any]] = [["tkg", *(r["retrieval"].get(k) for k in ("hit@1", "hit@5", "hit@10", "mrr")),
                              r["latency_ms"]["p50"], r["latency_ms"]["p95"], "", ""]]
    for name, b in r["baselines"].items():
        s, lat, ratio = b["retrieval"], b["latency_ms"], b["ratio_to_tkg"]
        rows.append([name, *(s.get(k) for k in ("hit@1", "hit@5", "hit@10", "mrr")), lat["p50"], lat["p95"],
                     ratio.get("hit@10"), ratio.get("p50")])
    return table(
        "baselines (same store, same questions)",
        ["", "hit@1", "hit@5", "hit@10", "mrr", "p50 ms", "p95 ms", "hit@10 ÷ tkg", "p50 ÷ tkg"],
        rows,
    )


def temporal_tables(r: Mapping[str, Any]) -> list[Table]:
    acc = r["accuracy"]
    rows = [
        [
            k,
            a["accuracy"],
            a["n"],
            a["abstained"],
            a["evidence_hit@10"],
            a["latency_ms"]["p50"],
            a["latency_ms"]["p95"],
        ]
        for k, a in acc.items()
    ]
    rows.append(
        [
            "all",
            r["overall_accuracy"],
            sum(a["n"] for a in acc.values()),
            None,
            None,
            r["latency_ms"]["p50"],
            r["latency_ms"]["p95"],
        ]
    )
    out = [table(f"temporal accuracy — {r['size']} episodes, {r['groups']} group(s), seed {r['seed']}",
                 ["kind", "accuracy", "n", "abstained", "evidence hit@10", "p50 ms", "p95 ms"], rows)]
    ing, size = r["ingest"], r["store_size"]
    out.append(
        table(
            "ingest and store",
            ["", "value"],
            [
                ("turns", ing["turns"]),
                ("seconds", ing["seconds"]),
                ("turns/s", ing["turns_per_s"]),
                ("share of ingest embedding", ing.get("embed_share")),
                ("embedding ms per question", r.get("query_embed_ms_mean")),
                ("fact versions", ing["facts"]),
                ("superseded", ing["superseded"]),
                ("entities", ing["entities"]),
                ("store bytes", size["bytes"]),
                ("nodes", size["nodes"]),
                ("edges", size["edges"]),
                ("router agreement", (r.get("router_agreement") or {}).get("agree")),
            ],
        )
    )
    out.extend(timing_tables(r))
    return out


def timing_tables(r: Mapping[str, Any]) -> list[Table]:
    """Latency by procedure and mean time by stage, for the reports that carry them."""
    out = [procedure_table(r)] if r.get("latency_by_procedure_ms") else []
    return out + ([stage_table(r)] if r.get("stage_mean_ms") else [])


def procedure_table(r: Mapping[str, Any]) -> Table:
    return table(
        "latency by procedure (ms)",
        ["procedure", "n", "p50", "p95", "mean"],
        ([p, v["n"], v["p50"], v["p95"], v["mean"]] for p, v in r["latency_by_procedure_ms"].items()),
    )


def stage_table(r: Mapping[str, Any]) -> Table:
    """Mean ms per answer stage (dotted trace paths), over the answers that went through it."""
    return table("mean time per answer stage (ms; n = answers that ran it)", ["stage", "mean ms", "n"],
                 ([k, v["mean"], v["n"]] for k, v in r["stage_mean_ms"].items()))


def scale_table(rows: Sequence[Mapping[str, Any]], growth: Mapping[str, Any]) -> list[Table]:
    out = [
        table(
            "scale",
            ["episodes", "ingest s", "turns/s", "MB", "nodes", "edges", "p50 ms", "p95 ms", "accuracy"],
            (
                [
                    r["size"],
                    r["ingest_s"],
                    r["turns_per_s"],
                    round(r["bytes"] / 1e6, 1) if r["bytes"] else None,
                    r["nodes"],
                    r["edges"],
                    r["p50_ms"],
                    r["p95_ms"],
                    r["accuracy"],
                ]
                for r in rows
            ),
        )
    ]
    if growth:
        out.append(table(f"growth from {growth['from']} to {growth['to']} episodes (×)", ["measure", "×"],
                         [(k, v) for k, v in growth.items() if k not in ("from", "to")]))
    return out


def qa_tables(r: Mapping[str, Any]) -> list[Table]:
    """Answer accuracy by labelled mode, then abstention, precision, routing, evidence and latency."""
    rows = [[m, v["accuracy"], v["n"]] for m, v in r["by_mode"].items()]
    rows.append(["all", r["accuracy"], r["n"]])
    lat = r["latency_ms"]
    return [table("answer accuracy by labelled mode", ["mode", "accuracy", "n"], rows),
            table("abstention, precision, routing, evidence", ["", "value"], [
                ("abstain questions answered 'No information available'", r["abstain_right"]),
                ("answered precision (right among answered)", r["answered_precision"]),
                ("false abstention (answerable abstained)", r["false_abstention"]),
                ("mode agreement with the label (abstain left out)", r["mode_agreement"]),
                ("evidence hit@1 / hit@5", f"{_fmt(r['evidence_hit@1'])} / {_fmt(r['evidence_hit@5'])}"),
                ("latency p50 / p95 ms", f"{_fmt(lat['p50'])} / {_fmt(lat['p95'])}"),
                ("ingest turns/s", r["ingest"]["turns_per_s"])])]


def qa_failures(results: Iterable[Mapping[str, Any]]) -> Table:
    """Each wrong answer beside the wanted one, with the mode and procedure that produced it."""
    return table("wrong answers", ["question", "answer", "wanted", "label → mode", "procedure", "kind"],
                 ([f"{r['group']}: {r['question']}", r["answer"][:80], r["wanted"][:80],
                   f"{r['label']} → {r['mode']}", r["procedure"],
                   ((r.get("reading") or {}).get("asked") or {}).get("kind", "")]
                  for r in results if not r["right"]))


def peers_tables(r: Mapping[str, Any]) -> list[Table]:
    rows = []
    for name, s in r["systems"].items():
        rows.append(
            [
                name,
                *(s["retrieval"].get(k) for k in ("hit@1", "hit@5", "hit@10", "mrr", "n")),
                s["latency_ms"]["p50"],
                s["latency_ms"]["p95"],
                (s.get("ratio_to_tkg") or {}).get("hit@10"),
                (s.get("ratio_to_tkg") or {}).get("p50"),
            ]
        )
    return [
        table(
            "peers on the same Neo4j graph (categories 1–4)",
            [
                "system", "hit@1", "hit@5", "hit@10", "mrr", "n", "p50 ms", "p95 ms", "hit@10 ÷ tkg",
                "p50 ÷ tkg",
            ],
            rows,
        )
    ]


def show(tables: Iterable[Table], console: Console) -> None:
    for t in tables:
        console.print(t)
