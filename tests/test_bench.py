"""The benchmark commands: metrics on toy data, the temporal generator and its answer key, tiny runs.

The end-to-end runs use a temporary Kuzu database and a LoCoMo-shaped file written here, so they
need neither the LoCoMo data nor a server.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tkg.bench.metrics import (
    RankScore,
    answer_correct,
    distinct_refs,
    first_hit_rank,
    latency_summary,
    normalise_evidence,
    percentile,
)
from tkg.bench.temporal import growth
from tkg.bench.temporal_gen import Turn, generate
from tkg.bench.temporal_questions import KINDS, build_questions
from tkg.bench.temporal_text import FILLER
from tkg.cli import app

runner = CliRunner()


# --- metrics -------------------------------------------------------------------------------------


def test_evidence_ids_are_normalised_and_junk_dropped() -> None:
    assert normalise_evidence(["D1:3", " D2:4 ", "D8:6; D9:17", "D:11:26", "D", "d3:01,D3:2", "D1:3"]) == [
        "D1:3", "D2:4", "D8:6", "D9:17", "D11:26", "D3:1", "D3:2"]


def test_hit_rank_counts_distinct_turns_only() -> None:
    refs = ["D1:1", "D1:1", "D1:1", None, "D2:2", "D2:2", "D3:3"]
    assert distinct_refs(refs) == ["D1:1", "D2:2", "D3:3"]
    assert first_hit_rank(refs, {"D3:3"}) == 3  # the 7th item, but only the 3rd distinct turn
    assert first_hit_rank(refs, {"D9:9"}) is None
    assert first_hit_rank([" D2:2"], {"D2:2"}) == 1


def test_rank_score_on_toy_ranks() -> None:
    s = RankScore()
    for rank in (1, 2, 5, None, 11):
        s.add(rank)
    summary = s.summary()
    assert summary["n"] == 5
    assert (
        summary["hit@1"] == 0.2
        and summary["hit@3"] == 0.4
        and summary["hit@5"] == 0.6
        and summary["hit@10"] == 0.6
    )
    assert summary["mrr"] == round((1 + 1 / 2 + 1 / 5 + 1 / 11) / 5, 3)
    assert RankScore().summary()["hit@10"] == 0.0


def test_percentiles_interpolate() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.5
    assert percentile(values, 95) == pytest.approx(95.05)
    assert latency_summary([5.0])["p95"] == 5.0
    assert latency_summary([])["n"] == 0


def test_answers_match_whole_words_after_normalising() -> None:
    assert answer_correct("She lives in Kraków now.", [["Krakow"]])
    assert not answer_correct("She lives in Krakowia.", [["Krakow"]])
    assert answer_correct("Three cities so far", [["3", "three"]])
    assert not answer_correct("Mochi and Biscuit", [["Mochi"]], forbidden=["Biscuit"])
    assert not answer_correct("anything", [])


def test_growth_compares_with_log_and_linear() -> None:
    rows = [{"size": 1000, "ingest_s": 10.0, "bytes": 100, "p50_ms": 10.0, "p95_ms": 20.0},
            {"size": 100000, "ingest_s": 1000.0, "bytes": 10000, "p50_ms": 15.0, "p95_ms": 30.0}]
    g = growth(rows)
    assert g["linear"] == 100.0 and g["log"] == round(5 / 3, 2)
    assert g["ingest_s"] == 100.0 and g["p95_ms"] == 1.5 and g["p95_within_log"] and g["p95_vs_log"] == 0.9
    assert g["p50_ms"] == 1.5 and g["p50_within_log"]
    rows[1]["p95_ms"] = 34.0  # ×1.7 against log ×1.67: faster than log, with no slack for noise
    assert not growth(rows)["p95_within_log"] and growth(rows)["p95_vs_log"] == 1.02


# --- the temporal generator ----------------------------------------------------------------------


def test_generator_is_deterministic_and_sized() -> None:
    a, b, c = generate(450, seed=3), generate(450, seed=3), generate(450, seed=4)
    assert [(t.group, t.speaker, t.text, t.at, t.ref) for t in a.turns] == [
        (t.group, t.speaker, t.text, t.at, t.ref) for t in b.turns
    ]
    assert [t.text for t in a.turns] != [t.text for t in c.turns]
    assert len(a.turns) == 450 and len(a.groups) == 3
    assert [q.text for q in build_questions(a)] == [q.text for q in build_questions(b)]
    refs = [(t.group, t.ref) for t in a.turns]
    assert len(set(refs)) == len(refs)  # evidence must point at exactly one turn
    assert all(t.at.tzinfo is not None for t in a.turns)


def test_generated_text_varies_and_filler_states_no_facts() -> None:
    from tkg.extract import extract
    from tkg.predicates import PredicateRegistry

    data = generate(2000, seed=0)
    shapes = {t.template for t in data.turns if t.template.startswith("MOVE/")}
    assert len(shapes) >= 4  # not one sentence shape per fact type
    reg, when = PredicateRegistry.load(), datetime(2021, 5, 1, tzinfo=UTC)
    stated = [
        (line, extract(line.format(l="Boris"), speaker="Amara", listeners=["Boris"], when=when, registry=reg))
        for line in FILLER
    ]
    assert [line for line, facts in stated if facts] == []


def _history(turns: list[Turn], group: str, person: str, slot: str) -> list[tuple[datetime, str]]:
    """(start, value) for a single-valued slot, corrections applied — recomputed here independently."""
    out: list[tuple[datetime, str]] = []
    for t in turns:
        for c in t.changes:
            if t.group == group and c.person == person and c.slot == slot and c.op == "set":
                if c.corrects is not None and out and out[-1][1] == c.corrects:
                    out.pop()
                out.append((c.start, c.value))
    return out


def _span(phrase: str) -> tuple[datetime, datetime]:
    if m := re.search(r"on (\d{4})-(\d{2})-(\d{2})", phrase):
        start = datetime(int(m[1]), int(m[2]), int(m[3]), tzinfo=UTC)
        return start, start + timedelta(days=1)
    if m := re.search(r"on (\d{1,2}) (\w+) (\d{4})", phrase):
        start = datetime.strptime(f"{m[1]} {m[2]} {m[3]}", "%d %B %Y").replace(tzinfo=UTC)
        return start, start + timedelta(days=1)
    m = re.search(r"in (\w+) (\d{4})", phrase)
    assert m, phrase
    start = datetime.strptime(f"1 {m[1]} {m[2]}", "%d %B %Y").replace(tzinfo=UTC)
    return start, (start + timedelta(days=32)).replace(day=1)


def _value_at(history: list[tuple[datetime, str]], when: datetime) -> str | None:
    found = None
    for start, value in history:
        if start <= when:
            found = value
    return found


def test_answer_key_agrees_with_the_turns() -> None:
    data = generate(1600, seed=11)
    questions = build_questions(data)
    kinds = {q.kind for q in questions}
    assert (
        {
            "current", "correction", "as_of", "late_as_of", "history_count", "history_list", "chain2",
            "chain3", "chain_past", "pets_now", "pets_count",
        }
        <= kinds
        <= set(KINDS)
    )
    checked = 0
    for q in questions:
        if q.kind in ("current", "correction") and q.slot != "partner":
            history = _history(data.turns, q.group, q.subject, q.slot)
            assert q.expected == ((history[-1][1],),), q
            checked += 1
        elif q.kind == "as_of":
            history = _history(data.turns, q.group, q.subject, q.slot)
            start, end = _span(q.text)
            assert (
                _value_at(history, start)
                == _value_at(history, end - timedelta(seconds=1))
                == q.expected[0][0]
            ), q
            checked += 1
        elif q.kind == "chain2":
            boss = _history(data.turns, q.group, q.subject, "reports_to")[-1][1]
            assert q.expected[0][0] == _history(data.turns, q.group, boss, "lives_in")[-1][1]
            checked += 1
        elif q.kind == "history_count" and q.slot == "works_at":
            values = {v for _, v in _history(data.turns, q.group, q.subject, "works_at")}
            assert str(len(values)) in q.expected[0]
            checked += 1
        elif q.kind == "pets_now":
            assert q.expected and not {e[0] for e in q.expected} & set(q.forbidden)
    assert checked > 50


def test_question_limit_spreads_over_kinds() -> None:
    questions = build_questions(generate(3000, seed=2), limit=44)
    assert len(questions) == 44
    counts: dict[str, int] = {}
    for q in questions:
        counts[q.kind] = counts.get(q.kind, 0) + 1
    assert max(counts.values()) - min(counts.values()) <= 1


# --- tiny end-to-end runs on Kuzu ----------------------------------------------------------------


def _last_json(stdout: str) -> dict[str, Any]:
    data = json.loads(stdout.strip().splitlines()[-1])
    assert isinstance(data, dict)
    return data


def test_bench_temporal_size_10_on_kuzu(tmp_path: Path) -> None:
    details = tmp_path / "q.jsonl"
    result = runner.invoke(app, ["bench", "temporal", "--size", "10", "--json", "--store", f"kuzu://{tmp_path}/t.kuzu",
                                 "--details", str(details)])
    assert result.exit_code == 0, result.output
    report = _last_json(result.stdout)
    assert report["ingest"]["turns"] == 10 and report["size"] == 10
    asked = sum(a["n"] for a in report["accuracy"].values())
    assert asked == len(details.read_text().splitlines()) > 0
    assert 0.0 <= report["overall_accuracy"] <= 1.0
    assert report["store_size"]["bytes"] > 0 and report["store_size"]["nodes"] >= 10
    assert report["latency_ms"]["n"] == asked


def _tiny_locomo(path: Path) -> None:
    turns = [
        ("Noor", "I moved to Ghent last spring, the canals are lovely."),
        ("Felix", "Nice! I still live in Porto."),
        ("Noor", "My dog Pixel loves the parks here."),
        ("Felix", "I started a new job at Vantorix."),
        ("Noor", "I play the cello in a small orchestra."),
        ("Felix", "I'm training for a marathon in May."),
    ]
    sample = {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Noor",
            "speaker_b": "Felix",
            "session_1_date_time": "9:05 am on 3 February, 2024",
            "session_1": [
                {"speaker": s, "dia_id": f"D1:{i}", "text": t} for i, (s, t) in enumerate(turns, 1)
            ],
        },
        "qa": [
            {"question": "Where does Noor live?", "answer": "Ghent", "evidence": ["D1:1"], "category": 4},
            {
                "question": "What instrument does Noor play?",
                "answer": "cello",
                "evidence": [" D1:5"],
                "category": 4,
            },
            {
                "question": "Where does Felix work?",
                "answer": "Vantorix",
                "evidence": ["D1:4; D1:2"],
                "category": 1,
            },
            {
                "question": "What is Felix's cat called?",
                "adversarial_answer": "Tom",
                "evidence": ["D1:3"],
                "category": 5,
            },
        ],
    }
    path.write_text(json.dumps([sample]), encoding="utf-8")


def test_bench_locomo_with_baselines_on_kuzu(tmp_path: Path) -> None:
    data = tmp_path / "tiny.json"
    _tiny_locomo(data)
    result = runner.invoke(app, ["bench", "locomo", str(data), "--baselines", "--json", "--store", f"kuzu://{tmp_path}/l.kuzu"])
    assert result.exit_code == 0, result.output
    report = _last_json(result.stdout)
    assert report["retrieval"]["n"] == 3  # category 5 is not a retrieval question
    assert set(report["retrieval"]) >= {"hit@1", "hit@3", "hit@5", "hit@10", "mrr", "n"}
    assert report["retrieval"]["hit@1"] <= report["retrieval"]["hit@10"] <= 1.0
    assert set(report["by_category"]) == {"multi-hop", "single-hop"}
    assert report["abstention"]["adversarial_n"] == 1 and report["abstention"]["answerable_n"] == 3
    assert report["ingest"]["turns"] == 6 and report["latency_ms"]["n"] == 4
    for name in ("bm25", "dense", "numpy"):
        assert report["baselines"][name]["retrieval"]["n"] == 3
    # six turns: every turn is within the first ten, so exhaustive search must find every gold turn
    assert report["baselines"]["numpy"]["retrieval"]["hit@10"] == 1.0


def test_fresh_store_refuses_an_existing_kuzu_path(tmp_path: Path) -> None:
    (tmp_path / "used.kuzu").write_text("x")
    result = runner.invoke(app, ["bench", "temporal", "--size", "5", "--store", f"kuzu://{tmp_path}/used.kuzu"])
    assert result.exit_code == 1
    assert "fresh store" in result.stderr


def test_bench_soak_a_few_seconds_on_kuzu(tmp_path: Path) -> None:
    url = f"kuzu://{tmp_path}/s.kuzu"
    result = runner.invoke(
        app, ["bench", "soak", "--minutes", "0.05", "--seed", "3", "--groups", "2", "--json", "--store", url]
    )
    assert result.exit_code == 0, result.output
    report = _last_json(result.stdout)
    assert report["benchmark"] == "soak" and report["seed"] == 3 and report["url"] == url
    assert report["ok"] is True and report["violations"] == [] and report["error_count"] == 0
    assert report["ops"].get("ingest", 0) >= 1 and report["episodes_ingested"] >= 1
    assert report["checks"] >= 2  # at least the final check of each live group
    assert 3.0 <= report["seconds"] < 60
    assert set(report["latency_ms"]["ingest"]) == {"p50", "p95", "max"}


def test_bench_extraction_counts_facts_of_a_locomo_file_per_predicate() -> None:
    example = Path(__file__).resolve().parent.parent / "examples" / "priya_marco.json"
    result = runner.invoke(app, ["bench", "extraction", "--locomo", str(example), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    counts = report["locomo"]["counts"]
    assert counts["lives_in"] >= 3 and sum(counts.values()) == report["locomo"]["candidates"]
    assert report["locomo"]["turns"] == 63 and all(report["locomo"]["examples"][p] for p in counts)


def test_bench_ingest_forces_the_bulk_load_either_way(tmp_path: Path) -> None:
    data = Path(__file__).parent / "data" / "cli" / "small.jsonl"
    for flag, bulk in (("--bulk", True), ("--no-bulk", False)):
        result = runner.invoke(app, ["bench", "ingest", str(data), "--json", flag, "--store", f"kuzu://{tmp_path}/i{flag}.kuzu"])
        assert result.exit_code == 0, result.output
        report = _last_json(result.stdout)
        assert report["ingest"]["bulk"] is bulk and report["ingest"]["turns"] > 0
