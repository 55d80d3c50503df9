"""Gates, payload TOML loading and overrides, and the router's mode choice and trace."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from planners.gates import (
    GateResult,
    abstention_gate,
    aggregation_gate,
    empty_retrieval_fallback,
    recency_gate,
    relation_chain_gate,
    run_query_gates,
    summary_gate,
    time_anchor_gate,
)
from planners.payloads import INDEXES, default_payloads, load_payloads, widen
from planners.router import route
from tkg.errors import ConfigError
from tkg.models import MODES

GATE_CASES = [
    # (gate, fires on, near-miss that must not fire)
    (relation_chain_gate, "Where does Marco's sister live?", "Where does Marco live?"),
    (relation_chain_gate, "What is Priya's manager's home town?", "What is Priya's home town?"),
    (relation_chain_gate, "Who does the person who lives in Lisbon work for?", "Who lives in Lisbon?"),
    (relation_chain_gate, "What is the home town of Priya's boss?", "What is the name of Priya's dog?"),
    (relation_chain_gate, "Where is Aiko's husband from?", "Where does Priya work and live?"),
    (recency_gate, "Where does Priya live now?", "Do you know where Priya lives?"),
    (recency_gate, "Is Marco still at Globex?", "Was Marco at Globex?"),
    (recency_gate, "What is Dana's current job?", "What currency does Dana use?"),
    (recency_gate, "Does Lena live in Oslo anymore?", "Does Lena live in Oslo?"),
    (recency_gate, "What does Aiko do these days?", "What does Aiko do?"),
    (time_anchor_gate, "Where did Priya live in March 2023?", "Where did Priya live?"),
    (time_anchor_gate, "When did Dana move to Oslo?", "When is Dana's birthday?"),
    (time_anchor_gate, "Where did Jonah work before he joined Acme?", "Has Jonah been to Kyoto before?"),
    (time_anchor_gate, "What did Farah do last summer?", "What did Farah do?"),
    (time_anchor_gate, "Where did Ines work after college?", "Who looks after Ines's dog?"),
    (time_anchor_gate, "As of 2021, who was Olu's manager?", "Who is Olu's manager?"),
    (time_anchor_gate, "What did Mei plan in May?", "Mei may plan a trip."),
    (summary_gate, "Summarize what Priya said about work.", "What did Priya say about work?"),
    (summary_gate, "Tell me everything about Marco.", "Tell me where Marco lives."),
    (summary_gate, "What has Dana been up to?", "What has Dana been eating?"),
    (summary_gate, "Give me an overview of Lena's family.", "Who is in Lena's family?"),
    (aggregation_gate, "How many pets does Priya have?", "How old is Priya?"),
    (aggregation_gate, "Which books has Marco read?", "Which city does Marco live in?"),
    (aggregation_gate, "List the places Dana visited.", "Is Dana a good listener?"),
    (aggregation_gate, "What are all the jobs Lena has had?", "Does Lena work all the time?"),
]


@pytest.mark.parametrize(("gate", "fires", "near_miss"), GATE_CASES)
def test_gate_fires_and_not_on_near_miss(
    gate: Callable[[str], GateResult], fires: str, near_miss: str
) -> None:
    hit, miss = gate(fires), gate(near_miss)
    assert hit.fired, hit
    assert not miss.fired, miss
    assert hit.reason and miss.reason and hit.name == miss.name


def test_time_gate_reason_quotes_the_anchor() -> None:
    assert "March 2023" in time_anchor_gate("Where did Priya live in March 2023?").reason


def test_run_query_gates_runs_all_in_precedence_order() -> None:
    results = run_query_gates("How many pets did Priya's sister have in 2022?")
    assert [g.name for g in results] == ["summary", "aggregation", "relation_chain", "time_anchor", "recency"]
    assert {g.name for g in results if g.fired} == {"aggregation", "relation_chain", "time_anchor"}


def test_empty_retrieval_fallback_is_wider() -> None:
    base = default_payloads().for_mode("relation_chain")
    wide = empty_retrieval_fallback(base)
    assert wide.depth >= 2 * base.depth and wide.depth >= 20
    assert set(wide.indexes) == set(INDEXES) and wide.fusion == "rrf" and not wide.graph
    assert wide.procedure == base.procedure
    assert empty_retrieval_fallback(wide).name == wide.name  # no "+fallback+fallback"


def test_abstention_gate_follows_policy() -> None:
    lookup, summary = default_payloads().for_mode("single_fact"), default_payloads().for_mode("long_form")
    assert abstention_gate(False, lookup) and not abstention_gate(True, lookup)
    # a summary about someone never mentioned abstains too; a payload set to "none" never does
    assert abstention_gate(False, summary) and not abstention_gate(True, summary)
    assert not abstention_gate(False, replace(summary, abstention="none"))


def test_default_payloads_cover_every_mode() -> None:
    table = default_payloads()
    procedures = {m: table.for_mode(m).procedure for m in MODES}
    assert procedures["relation_chain"] == "graph_chain" and procedures["aggregation"] == "aggregation"
    for mode in MODES:
        p = table.for_mode(mode)
        assert set(p.indexes) <= set(INDEXES) and {i for i, _ in p.weights} == set(p.indexes)
        json.dumps(p.to_dict())


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_override_keeps_unset_keys_and_can_share_payloads(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """
[modes]
latest_version = "lookup"

[payloads.lookup]
depth = 25
indexes = ["fact", "chunk"]
weights = { fact = 3.0 }
""",
    )
    table = load_payloads(path)
    p = table.for_mode("single_fact")
    assert p.depth == 25 and p.indexes == ("fact", "chunk")
    assert p.weight("fact") == 3.0 and p.weight("chunk") == 1.0 and p.weight("sentence") == 0.0
    assert p.procedure == "lookup" and p.fanout == default_payloads().for_mode("single_fact").fanout
    assert table.for_mode("latest_version") is p
    assert table.sources[-1] == str(path)
    assert route("Where does Priya live now?", payloads=table).payload.depth >= 25


def test_new_payload_must_be_complete(tmp_path: Path) -> None:
    path = _write(tmp_path, '[payloads.tiny]\ndepth = 3\n[modes]\nsingle_fact = "tiny"\n')
    with pytest.raises(ConfigError, match="tiny.*missing"):
        load_payloads(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[payloads.lookup]\ndepht = 3\n", "unknown key.*depht"),
        ('[modes]\nsingle_facts = "lookup"\n', "unknown mode 'single_facts'"),
        ('[modes]\nsingle_fact = "nope"\n', "names payload 'nope'"),
        ('[payloads.lookup]\nfusion = "magic"\n', "fusion"),
        ('[payloads.lookup]\nindexes = ["chunk", "graph"]\n', "indexes"),
        ('[payloads.lookup]\nindexes = ["chunk"]\n', r"weights.*expected one of chunk"),
        ('[payloads.lookup]\nprocedure = "guess"\n', "unknown procedure"),
        ("[payloads.lookup]\nhop_limit = 9\n", "hop_limit"),
        ("[payloads.lookup]\ngraph = 1\n", "graph"),
        ("[routing]\nx = 1\n", "unknown section"),
        ("[payloads.lookup\n", "not valid TOML"),
    ],
)
def test_bad_payload_files_raise_config_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_payloads(_write(tmp_path, text))


def test_missing_payload_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_payloads(tmp_path / "absent.toml")


def test_widen_never_narrows() -> None:
    table = default_payloads()
    lookup, agg = table.for_mode("single_fact"), table.for_mode("aggregation")
    wide = widen(lookup, agg)
    assert wide.procedure == lookup.procedure and wide.fusion == lookup.fusion
    for key in ("depth", "hop_limit", "fanout", "neighbours"):
        assert getattr(wide, key) == max(getattr(lookup, key), getattr(agg, key))
    assert set(wide.indexes) == set(lookup.indexes) | set(agg.indexes)


class FixedClassifier:
    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.seen: list[str] = []

    def classify(self, question: str) -> str:
        self.seen.append(question)
        return self.mode


def test_classifier_mode_without_gates() -> None:
    clf = FixedClassifier("single_fact")
    r = route("Where does Priya work?", classifier=clf)
    assert clf.seen == ["Where does Priya work?"]
    assert (r.mode, r.mode_source, r.procedure) == ("single_fact", "classifier", "lookup")
    assert r.payload == r.initial_payload
    assert all(not g["fired"] and g["effect"] == "none" for g in r.gates)


def test_gate_escalates_the_classifier_mode() -> None:
    r = route("Where does Marco's sister live now?", classifier=FixedClassifier("single_fact"))
    assert (r.mode, r.mode_source, r.procedure) == ("relation_chain", "gate:relation_chain", "graph_chain")
    assert r.classifier_mode == "single_fact"
    assert r.initial_payload == default_payloads().for_mode("single_fact")
    effects = {g["name"]: g["effect"] for g in r.gates if g["fired"]}
    assert effects["relation_chain"] == "mode → relation_chain"
    assert "widened" in effects["recency"]
    assert r.payload.depth == default_payloads().for_mode("latest_version").depth  # widened by recency


def test_gates_never_demote() -> None:
    r = route("How is Evan doing these days?", classifier=FixedClassifier("long_form"))
    assert (r.mode, r.mode_source) == ("long_form", "classifier")
    assert next(g for g in r.gates if g["name"] == "recency")["fired"]


def test_caller_mode_wins_but_gates_widen_payload() -> None:
    r = route("How many pets does Priya have?", mode="single_fact", classifier=FixedClassifier("long_form"))
    assert (r.mode, r.mode_source, r.procedure) == ("single_fact", "caller", "lookup")
    assert r.classifier_mode is None and "classify" not in r.timings_ms
    assert r.payload.depth == default_payloads().for_mode("aggregation").depth > r.initial_payload.depth


def test_as_of_means_time_anchored_unless_caller_mode() -> None:
    when = datetime(2023, 3, 1, tzinfo=UTC)
    r = route("Where does Priya live?", as_of=when, classifier=FixedClassifier("single_fact"))
    assert (r.mode, r.mode_source, r.procedure) == ("time_anchored", "gate:as_of", "temporal")
    assert r.gates[0]["name"] == "as_of" and r.gates[0]["effect"] == "mode → time_anchored"
    assert r.as_of == when
    r2 = route("Where does Priya live?", as_of=when, mode="latest_version")
    assert (r2.mode, r2.mode_source) == ("latest_version", "caller")
    naive = route("Where does Priya live?", as_of=datetime(2023, 3, 1))
    assert naive.as_of is not None and naive.as_of.tzinfo is not None


def test_unknown_modes_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown mode"):
        route("Where does Priya live?", mode="guess")
    with pytest.raises(ConfigError, match="classifier"):
        route("Where does Priya live?", classifier=FixedClassifier("bogus"))


def test_route_trace_is_json_and_timed() -> None:
    r = route("Which countries did Greta visit in 2022?")
    d = r.to_dict()
    assert json.loads(json.dumps(d))["mode"] == r.mode == "aggregation"
    assert {"gates", "payload", "total"} <= set(d["timings_ms"])
    assert all(set(g) == {"name", "fired", "reason", "effect"} for g in d["gates"])
    assert d["procedure"] == d["payload"]["procedure"] == r.procedure
    assert d["timings_ms"]["total"] >= d["timings_ms"]["gates"]


def test_router_on_heldout_questions_keeps_90_percent() -> None:
    from planners.classifier import evaluate_classifier

    assert evaluate_classifier(lambda q: route(q).mode)["accuracy"] >= 0.90
