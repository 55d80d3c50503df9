"""`tkg bench qa`: key matching, the summary's arithmetic on toy results, the command end to end."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tkg.bench.qa import QAItem, QAResult, key_match, summarise
from tkg.cli import app

runner = CliRunner()


def _result(
    mode: str, right: bool, abstained: bool, label_mode: str | None = None, rank: int | None = 1
) -> QAResult:
    key = (("no information",),) if mode == "abstain" else (("x",),)
    item = QAItem("g", f"q-{mode}-{right}-{abstained}", mode, key, () if mode == "abstain" else ("D1:1",), "")
    answer = "No information available" if abstained else "x"
    return QAResult(item, answer, abstained, right, label_mode or mode, "lookup", rank, 10.0, ["D1:1"], {})


def test_key_needs_one_string_of_every_group() -> None:
    assert key_match("She lives in Malmö with Kenji", [["malm"], ["kenji", "fiancé"]])
    assert not key_match("She lives in Malmö", [["malm"], ["kenji", "fiancé"]])
    assert key_match("BRÚJULA", [["brújula", "brujula"]])
    assert not key_match("anything", [])


def test_summary_counts_abstention_precision_and_agreement() -> None:
    results = [
        _result("abstain", True, True),  # abstained rightly
        _result("abstain", False, False),  # answered an abstain question
        _result("latest_version", True, False),
        _result("latest_version", False, False, label_mode="single_fact", rank=None),
        _result("single_fact", False, True),  # false abstention
    ]
    s = summarise(results)
    assert s["n"] == 5 and s["accuracy"] == 0.4
    assert s["abstain_right"] == 0.5
    assert s["answered_precision"] == round(1 / 3, 3)  # one right among three answered
    assert s["false_abstention"] == round(1 / 3, 3)
    assert s["mode_agreement"] == round(2 / 3, 3)  # the abstain questions are left out
    assert s["by_mode"]["latest_version"] == {"accuracy": 0.5, "n": 2}
    assert s["evidence_hit@1"] == round(2 / 3, 3) and s["evidence_n"] == 3


def _tiny(path: Path, *, broken: bool = False) -> None:
    turns = [("Wren", "I finally moved to Tallinn last week, the old town is gorgeous."),
             ("Ottilie", "Congrats! Are you still at Harbourline?"),
             ("Wren", "Yes, still at Harbourline, working remotely now.")]
    qa = [
        {
            "question": "Where does Wren live now?",
            "answer": "Tallinn",
            "evidence": ["D1:1"],
            "mode": "latest_version",
            "key": [["tallinn"]],
        },
        {
            "question": "What is the name of Ottilie's horse?",
            "answer": "No information available",
            "evidence": [],
            "mode": "abstain",
            "key": [["no information"]],
        },
    ]
    if broken:
        del qa[1]["key"]
    sample = {"sample_id": "tiny-qa", "qa": qa,
              "conversation": {"speaker_a": "Wren", "speaker_b": "Ottilie",
                               "session_1_date_time": "6:10 pm on 2 March, 2024",
                               "session_1": [{"speaker": s, "dia_id": f"D1:{i}", "text": t}
                                             for i, (s, t) in enumerate(turns, 1)]}}
    path.write_text(json.dumps([sample]), encoding="utf-8")


def test_bench_qa_end_to_end_on_kuzu(tmp_path: Path) -> None:
    data, details = tmp_path / "tiny.json", tmp_path / "q.jsonl"
    _tiny(data)
    result = runner.invoke(
        app,
        [
            "bench",
            "qa",
            str(data),
            "--json",
            "--show-fails",
            "--details",
            str(details),
            "--store",
            f"kuzu://{tmp_path}/q.kuzu",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert {
        "accuracy", "by_mode", "abstain_right", "answered_precision", "false_abstention", "mode_agreement",
        "evidence_hit@1", "evidence_hit@5", "latency_ms", "n",
    } <= set(report)
    rows = [json.loads(line) for line in details.read_text().splitlines()]
    assert report["n"] == len(rows) == 2
    # the report's accuracy is the share of rows whose answer matches the key
    assert report["accuracy"] == round(sum(key_match(r["answer"], r["key"]) for r in rows) / 2, 3)
    assert report["abstain_right"] == float(rows[1]["abstained"])


def test_bench_qa_refuses_a_question_without_a_key(tmp_path: Path) -> None:
    data = tmp_path / "broken.json"
    _tiny(data, broken=True)
    result = runner.invoke(app, ["bench", "qa", str(data), "--store", f"kuzu://{tmp_path}/b.kuzu"])
    assert result.exit_code != 0
    assert "key must be" in result.stderr and "qa 1" in result.stderr
    assert not (tmp_path / "b.kuzu").exists()
