"""The model stages through the real openai and anthropic SDKs, against a loopback server.

Extraction: tkg keeps a model's fact only with a known predicate, a turn of the window and a
quote from that turn; failures (429, 500, a timeout, malformed JSON) retry or fall back to the
rules, counted, and write whole episodes only. Answers: a cited id must exist. Record/replay,
the response cache and the stage specs. The ingest path runs on Kuzu and Neo4j.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from llm_server import anthropic_tool, error_json, openai_json, serve
from reliability.common import shared_embedder
from typer.testing import CliRunner

from tkg.cli import app
from tkg.context import Context
from tkg.errors import ConfigError
from tkg.llm import ReplayMissing, Stages, stage_specs
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, EpisodeInput
from tkg.predicates import PredicateRegistry
from tkg.stores import GraphStore

T = datetime(2024, 3, 2, 9, 0, tzinfo=UTC)
TURNS = [
    ("Wren", "writing to you from our new place in Tromso, boxes everywhere"),
    ("Otto", "nice!! are you still with the ferry people?"),
    ("Wren", "handed in my notice last week, starting at the aquarium in May"),
]
GOOD = {"turn": "t1", "subject": "Wren", "predicate": "lives_in", "object": "Tromso", "qualifier": "",
        "polarity": "assert", "correction": False, "time": "", "quote": "our new place in Tromso"}
PROPOSED = [
    GOOD,
    {**GOOD, "turn": "t3", "object": "Aquarium", "predicate": "works_at", "time": "in May",
     "quote": "starting at the aquarium in May"},
    {**GOOD, "predicate": "resides_near"},  # not in the vocabulary
    {**GOOD, "predicate": "likes", "object": "boxes", "quote": "I adore boxes"},  # not said in t1
    {**GOOD, "turn": "t9"},  # no such turn
]


def episodes(group: str) -> list[EpisodeInput]:
    return [EpisodeInput(group, who, text, T, f"D1:{i}", listeners=("Otto",) if who == "Wren" else ("Wren",),
                         session="session_1") for i, (who, text) in enumerate(TURNS, 1)]


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for var in (
        "TKG_LLM", "TKG_LLM_EXTRACT", "TKG_LLM_ROUTE", "TKG_LLM_ANSWER", "TKG_LLM_RANK", "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TKG_LLM_CACHE", "0")
    monkeypatch.setenv("TKG_LLM_RETRIES", "0")
    monkeypatch.setenv("TKG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-key")


def memory(store: GraphStore, llm: Any) -> Memory:
    """A Memory over a fixture's store (not closed here: the fixture owns it)."""
    return Memory(Context(store, shared_embedder(), PredicateRegistry.load(), None, models=Stages.build(llm)))


def edges(mem: Memory, group: str) -> list[tuple[str, str, str]]:
    rows = mem.cypher(
        "MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity) WHERE r.group_id = $g "
        "RETURN r.name AS pred, o.name AS obj, r.extractor AS x ORDER BY pred, obj",
        {"g": group},
    )
    return [(r["pred"], r["obj"], r["x"]) for r in rows]


def test_extract_keeps_only_checked_facts_and_records_their_extractor(store: GraphStore, group: str) -> None:
    with serve([{"json": openai_json(json.dumps({"facts": PROPOSED}))}]) as (url, script):
        mem = memory(store, {"extract": f"openai:gpt-4o-mini@{url}/v1"})
        report = mem.ingest_episodes(episodes(group))
        again = mem.ingest_episodes(episodes(group))
    counts = report.llm["extract"]
    assert counts["proposed"] == 5 and counts["kept"] == 2
    assert (
        counts["dropped_unknown_predicate"]
        == counts["dropped_quote_not_in_turn"]
        == counts["dropped_unknown_turn"]
        == 1
    )
    model = f"openai:gpt-4o-mini@{url}/v1"
    # the rules read t1 too: one fact, both extractors named; t3 only the model read
    assert edges(mem, group) == [("lives_in", "Tromso", f"rules+{model}"), ("works_at", "Aquarium", model)]
    works = [f for f in mem.history("Wren", "works_at", group=group)]
    assert [f.object for f in works] == ["Aquarium"] and works[0].valid_at == datetime(2024, 5, 1, tzinfo=UTC)
    sent = script.requests[0]["json"]
    assert (
        sent["response_format"]["type"] == "json_schema" and sent["response_format"]["json_schema"]["strict"]
    )
    user = sent["messages"][1]["content"]
    assert "Speakers: Wren, Otto" in user and "[t3] 2024-03-02 09:00 Wren: handed in my notice" in user
    usage = mem.usage(group)["total"]
    assert (usage["calls"], usage["tokens_in"], usage["tokens_out"]) == (1, 300, 40)
    assert again.skipped_existing == 3 and len(script.requests) == 1  # idempotent: no second call


def test_a_429_is_retried_with_backoff(
    monkeypatch: pytest.MonkeyPatch, store: GraphStore, group: str
) -> None:
    monkeypatch.setenv("TKG_LLM_RETRIES", "2")
    script_ = [
        error_json(429, "Rate limit reached for gpt-4o-mini"),
        {"json": openai_json(json.dumps({"facts": [GOOD]}))},
    ]
    with serve(script_) as (url, script):
        mem = memory(store, {"extract": f"openai:gpt-4o-mini@{url}/v1"})
        report = mem.ingest_episodes(episodes(group))
    assert len(script.requests) == 2 and report.llm["extract"]["kept"] == 1
    assert "fallback_windows" not in report.llm["extract"]


@pytest.mark.parametrize("backend", ["kuzu"], indirect=True)
@pytest.mark.parametrize("failure, counted, says", [
    ([error_json(500, "The server had an error")] * 3, "provider_errors", "HTTP 500"),
    ([{"json": openai_json("{}"), "delay": 2.0}], "provider_errors", "timed out"),
    ([{"json": openai_json("{'facts': [")}, {"json": openai_json("not json")}], "invalid_outputs", ""),
], ids=["500", "timeout", "malformed"])
def test_a_failing_window_falls_back_to_the_rules_counted(
    monkeypatch: pytest.MonkeyPatch,
    store: GraphStore,
    group: str,
    failure: list[dict[str, Any]],
    counted: str,
    says: str,
) -> None:
    monkeypatch.setenv("TKG_LLM_RETRIES", "2" if "500" in json.dumps(failure) else "0")
    monkeypatch.setenv("TKG_LLM_TIMEOUT", "0.5")
    with serve(failure) as (url, script):
        mem = memory(store, {"extract": f"openai:gpt-4o-mini@{url}/v1"})
        report = mem.ingest_episodes(episodes(group))
    counts = report.llm["extract"]
    assert counts["fallback_windows"] == 1 and counts[counted] >= 1
    if counted == "invalid_outputs":  # retried once, then the rules
        assert counts["retries"] == 1 and len(script.requests) == 2
    else:
        warning = report.llm["warnings"][0]
        assert "extract stage" in warning and "openai:gpt-4o-mini" in warning and says in warning
    assert report.episodes == 3  # whole episodes, with the rules' facts only
    assert all(x == "rules" for _, _, x in edges(mem, group))
    assert mem.usage(group)["total"]["fallbacks"] == 1


def _answer_stage(store: GraphStore, group: str, reply: dict[str, Any]) -> tuple[Any, Any]:
    offline = memory(store, None)
    offline.ingest_episodes(episodes(group))
    with serve([{"json": anthropic_tool("answer", reply)}]) as (url, script):
        mem = memory(store, {"answer": f"anthropic:claude-haiku-4-5@{url}"})
        return mem.ask("Where does Wren live now?", group=group), script


@pytest.mark.parametrize("backend", ["kuzu"], indirect=True)
def test_answer_stage_cites_evidence_that_exists(store: GraphStore, group: str) -> None:
    ans, script = _answer_stage(store, group, {"answer": "In Tromso.", "cited": ["E1"]})
    assert ans.answer == "In Tromso." and "Tromso" in ans.evidence[0].text
    assert ans.trace["model"]["answer"]["cited"] == ["E1"]
    assert ans.trace["usage"][0] == {
        "stage": "answer",
        "model": ans.trace["model"]["answer"]["model"],
        "calls": 1,
        "cached": 0,
        "fallbacks": 0,
        "tokens_in": 300,
        "tokens_out": 40,
    }
    sent = script.requests[0]["json"]
    assert (
        sent["tool_choice"] == {"type": "tool", "name": "answer"} and "[E1]" in sent["messages"][0]["content"]
    )


@pytest.mark.parametrize("backend", ["kuzu"], indirect=True)
@pytest.mark.parametrize("reply", [{"answer": "Oslo", "cited": ["E42"]}, {"answer": "Oslo", "cited": []}])
def test_an_answer_citing_unknown_or_no_evidence_keeps_the_offline_one(
    store: GraphStore, group: str, reply: dict[str, Any]) -> None:
    ans, _ = _answer_stage(store, group, reply)
    step = ans.trace["model"]["answer"]
    assert ans.answer == step["offline_answer"] != "Oslo"
    assert "offline answer stands" in step["fell_back"] and step["rejected"] == "Oslo"


@pytest.mark.parametrize("backend", ["kuzu"], indirect=True)
def test_no_information_from_the_model_is_an_abstention(store: GraphStore, group: str) -> None:
    ans, _ = _answer_stage(store, group, {"answer": "No information available.", "cited": []})
    assert ans.answer == NO_INFORMATION and ans.abstained


@pytest.mark.parametrize("backend", ["kuzu"], indirect=True)
def test_responses_are_cached_by_stage_model_and_prompt(monkeypatch: pytest.MonkeyPatch, store: GraphStore,
                                                        group: str) -> None:
    monkeypatch.setenv("TKG_LLM_CACHE", "1")
    memory(store, None).ingest_episodes(episodes(group))
    reply = {"json": anthropic_tool("answer", {"answer": "Tromso", "cited": ["E1"]})}
    with serve([reply]) as (url, script):
        mem = memory(store, {"answer": f"anthropic:claude-haiku-4-5@{url}"})
        first = mem.ask("Where does Wren live now?", group=group)
        second = mem.ask("Where does Wren live now?", group=group)
    assert first.answer == second.answer == "Tromso" and len(script.requests) == 1
    assert second.trace["usage"][0]["cached"] == 1


@pytest.mark.parametrize("backend", ["kuzu"], indirect=True)
def test_record_writes_prompts_and_replay_answers_from_them(
    store: GraphStore, new_group: Any, tmp_path: Path
) -> None:
    rec = tmp_path / "rec"
    first, second, third = new_group(), new_group(), new_group()
    report = memory(store, {"extract": f"record:{rec}"}).ingest_episodes(episodes(first))
    assert report.llm["extract"] == {"deferred": 1, "fallback_windows": 1, "windows": 1}
    prompts = sorted(rec.glob("*.prompt.json"))
    assert len(prompts) == 1
    prompt = json.loads(prompts[0].read_text())
    assert set(prompt) == {"stage", "system", "user", "output_schema"} and prompt["stage"] == "extract"
    assert "lives_in" in prompt["system"] and prompt["output_schema"]["name"] == "facts"

    with pytest.raises(ReplayMissing, match="no response for the extract prompt"):
        memory(store, {"extract": f"replay:{rec}"}).ingest_episodes(episodes(second))
    mem = memory(store, {"extract": f"replay:{rec}"})
    assert mem.counts(second)["episodes"] == 0  # nothing half-written

    # the other group's prompt differs only by nothing the model sees: same turns, same speakers
    said = {**GOOD, "time": "yesterday"}  # a time the turn does not say: the fact keeps the turn's time
    Path(str(prompts[0]).replace(".prompt.", ".response.")).write_text(json.dumps({"facts": [said]}))
    report = mem.ingest_episodes(episodes(third))
    assert report.llm["extract"]["kept"] == 1 and report.llm["extract"]["time_not_in_turn"] == 1
    assert [f.valid_at for f in mem.history("Wren", "lives_in", group=third)] == [T]
    assert edges(mem, third) == [("lives_in", "Tromso", f"rules+replay:{rec}")]


def test_stage_specs_read_the_environment_then_the_argument() -> None:
    env = {
        "TKG_LLM": "openai:gpt-4o-mini",
        "TKG_LLM_ANSWER": "anthropic:claude-haiku-4-5",
        "TKG_LLM_RANK": "none",
    }
    assert stage_specs(None, env) == {"extract": "openai:gpt-4o-mini", "route": "openai:gpt-4o-mini",
                                      "answer": "anthropic:claude-haiku-4-5"}
    assert stage_specs({"route": "none"}, env) == {
        "extract": "openai:gpt-4o-mini",
        "answer": "anthropic:claude-haiku-4-5",
    }
    assert stage_specs("none", env) == {}
    assert stage_specs(None, {}) == {} and not Stages.build(None).models
    with pytest.raises(ConfigError, match="unknown LLM stage"):
        stage_specs({"summarise": "openai:x"}, {})
    with pytest.raises(ConfigError, match="unknown LLM spec"):
        Stages.build("gemini:pro")


def test_a_provider_down_names_the_stage_and_model(store: GraphStore, group: str) -> None:
    with serve([]) as (url, _):
        down = f"openai:gpt-4o-mini@{url.rsplit(':', 1)[0]}:9/v1"  # nothing listens on port 9
    mem = memory(store, {"extract": down})
    report = mem.ingest_episodes(episodes(group))
    assert report.llm["extract"]["provider_errors"] == 1
    assert report.llm["warnings"][0].startswith(f"the extract stage's model {down} failed")



def test_usage_rows_are_summed_per_group_and_forgotten_with_it(store: GraphStore, new_group: Any) -> None:
    mine, other = new_group(), new_group()
    row = {"stage": "extract", "model": "openai:gpt-4o-mini", "calls": 1, "cached": 0, "fallbacks": 0,
           "tokens_in": 120, "tokens_out": 30}
    for group, n in ((mine, 2), (other, 1)):
        with store.transaction() as tx:
            tx.named("usage.create_many", {"group_id": group, "created_at": T, "rows": [
                {**row, "uuid": f"{group}-{i}", "episode_uuid": f"{group}-ep{i}"} for i in range(n)]})
    got = store.named("usage.summary", {"group_id": mine})
    assert got == [
        {
            "stage": "extract",
            "model": "openai:gpt-4o-mini",
            "calls": 2,
            "cached": 0,
            "fallbacks": 0,
            "tokens_in": 240,
            "tokens_out": 60,
            "episodes": 2,
        }
    ]
    with store.transaction() as tx:
        tx.named("group.delete", {"group_id": mine})
    assert store.named("usage.summary", {"group_id": mine}) == []
    assert store.named("usage.summary", {"group_id": other})[0]["tokens_in"] == 120


def test_cli_llm_option_usage_and_a_fallback_said_on_stderr(tmp_path: Path) -> None:
    data = tmp_path / "turns.jsonl"
    data.write_text(
        "\n".join(
            json.dumps(
                {
                    "group": "cli-llm",
                    "speaker": who,
                    "text": text,
                    "timestamp": T.isoformat(),
                    "source_ref": f"D1:{i}",
                }
            )
            for i, (who, text) in enumerate(TURNS, 1)
        )
    )
    url, rec = f"kuzu://{tmp_path}/cli.kuzu", tmp_path / "rec"
    runner = CliRunner()
    ingested = runner.invoke(
        app, ["--store", url, "ingest", str(data), "--llm", f"extract=record:{rec}", "--json"]
    )
    assert ingested.exit_code == 0, ingested.output
    assert (
        json.loads(ingested.stdout)["llm"]["extract"]["deferred"] == 1
        and len(list(rec.glob("*.prompt.json"))) == 1
    )
    usage = runner.invoke(app, ["--store", url, "usage", "--group", "cli-llm", "--json"])
    assert usage.exit_code == 0 and json.loads(usage.stdout)["total"]["fallbacks"] == 1
    with serve([]) as (server, _):
        down = f"openai:gpt-4o-mini@{server.rsplit(':', 1)[0]}:9/v1"
    asked = runner.invoke(
        app, ["--store", url, "ask", "Where does Wren live now?", "-g", "cli-llm", "--llm", f"answer={down}"]
    )
    assert asked.exit_code == 0, asked.output
    assert f"note: the answer stage ({down}) fell back" in asked.stderr and "failed" in asked.stderr
