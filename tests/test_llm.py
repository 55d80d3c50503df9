"""LLM providers against recorded responses, and the prompt builders and parsers."""

from __future__ import annotations

from typing import Any

import httpx
import httpx2
import pytest
from http_replay import Replay
from hypothesis import given
from hypothesis import strategies as st

from tkg.errors import ConfigError, ProviderError
from tkg.llm import (
    AnthropicProvider,
    LLMProvider,
    OpenAIProvider,
    get_provider,
    parse_ranking,
    parse_synthesis,
    rank_prompt,
    redact_secrets,
    synthesis_prompt,
)
from tkg.models import NO_INFORMATION

EVIDENCE = [
    "Ines: I finally moved to Lisbon last month, the light here is amazing.",
    "Ines: The bakery shifts start at 5am, so I'm up before the trams.",
    "Jonah: My sister still lives in Porto.",
]
PASSAGES = [
    "Jonah: I used to work at the ferry terminal.",
    "Jonah: I applied at the harbour office last week.",
    "Ines: Pixel chewed my shoes again.",
    "Jonah: The harbour office gave me the job, I start on Monday.",
]
KEY_OPENAI = "sk-test-REVOKED-4f7a9c2e1b"
KEY_ANTHROPIC = "sk-ant-test-REVOKED-91c3e5a7"


def openai_provider(name: str, *, http: object = httpx2, **kw: object) -> tuple[OpenAIProvider, Any]:
    rec = Replay(name, http=http)
    return OpenAIProvider("gpt-4o-mini", http_client=rec.client(), api_key="test", **kw), rec  # type: ignore[arg-type]


def anthropic_provider(name: str, **kw: object) -> tuple[AnthropicProvider, Any]:
    rec = Replay(name)
    return AnthropicProvider("claude-haiku-4-5", http_client=rec.client(), api_key="test", **kw), rec  # type: ignore[arg-type]


# --- prompts ---------------------------------------------------------------------------


def test_synthesis_prompt_numbers_evidence_and_states_the_rules() -> None:
    system, prompt = synthesis_prompt("Where does\nInes live now?", [*EVIDENCE, "line one\n  line two"])
    assert "ONLY the numbered evidence" in system
    assert f"answer exactly:\n{NO_INFORMATION}" in system
    assert "CITED:" in system
    lines = prompt.splitlines()
    assert lines[0] == "Evidence:"
    assert lines[1] == f"[1] {EVIDENCE[0]}"
    assert lines[4] == "[4] line one line two"  # one line per item, so numbering stays unambiguous
    assert lines[-1] == "Question: Where does Ines live now?"


def test_synthesis_prompt_without_evidence_says_so() -> None:
    _, prompt = synthesis_prompt("Who is Bo?", [])
    assert "(no evidence)" in prompt


@pytest.mark.parametrize(
    ("reply", "n", "expected"),
    [
        ("ANSWER: Lisbon [1]\nCITED: 1", 3, ("Lisbon", [0])),
        ("ANSWER: Lisbon, since last month.\nCITED: 2, 1, 2", 3, ("Lisbon, since last month.", [1, 0])),
        ("answer: Porto\ncited: [3], [7]", 3, ("Porto", [2])),  # 7 is out of range
        ("ANSWER: Porto\nCITED: 7", None, ("Porto", [6])),  # without n nothing is dropped
        ("ANSWER: No information available.\nCITED: none", 3, (NO_INFORMATION, [])),
        ("ANSWER: no information available\nCITED: 2", 3, (NO_INFORMATION, [])),
        (
            "She moved to Lisbon [1] and works at a bakery [2].",
            3,
            ("She moved to Lisbon and works at a bakery.", [0, 1]),
        ),
        ("ANSWER: It started in\nthe spring [2]\nCITED: 2", 3, ("It started in the spring", [1])),
        ("", 3, (NO_INFORMATION, [])),
        ("CITED: 1", 3, (NO_INFORMATION, [])),
    ],
)
def test_parse_synthesis(reply: str, n: int | None, expected: tuple[str, list[int]]) -> None:
    assert parse_synthesis(reply, n) == expected


def test_rank_prompt_numbers_passages() -> None:
    system, prompt = rank_prompt("Where does Jonah work?", PASSAGES)
    assert "Do not answer the question" in system
    assert f"[4] {PASSAGES[3]}" in prompt.splitlines()
    assert prompt.endswith("Question: Where does Jonah work?")


@pytest.mark.parametrize(
    ("reply", "expected_listed"),
    [
        ("4, 2", [3, 1]),
        ("[4] > [2] > [1]", [3, 1, 0]),
        ("Passage 2, then 2 again, then 9 and 0", [1]),
        ("none", []),
    ],
)
def test_parse_ranking(reply: str, expected_listed: list[int]) -> None:
    assert parse_ranking(reply, 4, complete=False) == expected_listed
    full = parse_ranking(reply, 4)
    assert full[: len(expected_listed)] == expected_listed
    assert sorted(full) == [0, 1, 2, 3]
    assert full[len(expected_listed) :] == sorted(full[len(expected_listed) :])  # the rest keep their order


@given(st.text(max_size=80), st.integers(min_value=0, max_value=12))
def test_parse_ranking_never_invents_or_loses_passages(reply: str, n: int) -> None:
    listed = parse_ranking(reply, n, complete=False)
    assert len(set(listed)) == len(listed)
    assert all(0 <= i < n for i in listed)
    assert sorted(parse_ranking(reply, n)) == list(range(n))


def test_redact_secrets() -> None:
    msg = redact_secrets(f"key {KEY_OPENAI} and sk-proj-abcdef123456 and custom-secret", "custom-secret")
    assert KEY_OPENAI not in msg and "sk-proj-abcdef123456" not in msg and "custom-secret" not in msg
    assert msg.count("***") == 3


# --- OpenAI ----------------------------------------------------------------------------


def test_openai_synthesis_from_recorded_responses() -> None:
    provider, rec = openai_provider("openai_chat_synthesis.json")
    assert isinstance(provider, LLMProvider)
    system, prompt = synthesis_prompt("Where does Ines live now?", EVIDENCE)
    assert parse_synthesis(provider.complete(system, prompt, max_tokens=200), len(EVIDENCE)) == (
        "Lisbon",
        [0],
    )
    system, prompt = synthesis_prompt("What is the name of Jonah's cat?", EVIDENCE)
    assert parse_synthesis(provider.complete(system, prompt, max_tokens=200), len(EVIDENCE)) == (
        NO_INFORMATION,
        [],
    )
    rec.assert_all_served()
    first = rec.bodies[0]
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert first["messages"][0]["content"] == system
    assert rec.requests[0].headers["authorization"] == "Bearer test"


def test_openai_rank_with_a_plain_httpx_client() -> None:
    provider, rec = openai_provider("openai_chat_rank.json", http=httpx)
    system, prompt = rank_prompt("Where does Jonah work?", PASSAGES)
    assert parse_ranking(provider.complete(system, prompt, max_tokens=50), len(PASSAGES)) == [3, 1, 0, 2]
    rec.assert_all_served()


def test_openai_error_is_readable_and_never_shows_the_key() -> None:
    provider, rec = openai_provider("openai_chat_errors.json", max_retries=0)
    provider._key = KEY_OPENAI  # the key the server echoes back
    with pytest.raises(ProviderError) as err:
        provider.complete("s", "p", max_tokens=10)
    message = str(err.value)
    assert "OpenAI gpt-4o-mini failed with HTTP 401" in message
    assert "Incorrect API key provided" in message
    assert KEY_OPENAI not in message and "REVOKED" not in message
    with pytest.raises(ProviderError, match="returned no text .finish_reason: length"):
        provider.complete("s", "p", max_tokens=1)
    rec.assert_all_served()


def test_openai_timeout_becomes_provider_error() -> None:
    def slow(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("timed out", request=request)

    client = httpx2.Client(transport=httpx2.MockTransport(slow))
    provider = OpenAIProvider("gpt-4o-mini", http_client=client, api_key="test", max_retries=0, timeout=0.5)
    with pytest.raises(ProviderError, match="OpenAI gpt-4o-mini failed: .*timed out"):
        provider.complete("s", "p")


def test_openai_without_temperature() -> None:
    provider, rec = openai_provider("openai_chat_rank.json", temperature=None)
    # the recording expects temperature 0, so leaving it out is a visible mismatch
    with pytest.raises(ProviderError, match="replay mismatch: openai_chat_rank.json: temperature is None"):
        provider.complete(*rank_prompt("Where does Jonah work?", PASSAGES), max_tokens=50)
    assert "temperature" not in rec.bodies[0]


# --- Anthropic -------------------------------------------------------------------------


def test_anthropic_synthesis_from_recorded_response() -> None:
    provider, rec = anthropic_provider("anthropic_messages_synthesis.json")
    assert isinstance(provider, LLMProvider)
    system, prompt = synthesis_prompt("Where does Ines live now?", EVIDENCE)
    answer = parse_synthesis(provider.complete(system, prompt, max_tokens=200), len(EVIDENCE))
    assert answer == ("Ines lives in Lisbon.", [0])
    rec.assert_all_served()
    body = rec.bodies[0]
    assert body["system"] == system
    assert body["messages"] == [{"role": "user", "content": prompt}]


def test_anthropic_retries_an_overloaded_reply_then_ranks() -> None:
    provider, rec = anthropic_provider("anthropic_messages_rank.json", max_retries=1)
    system, prompt = rank_prompt("Where does Jonah work?", PASSAGES)
    assert parse_ranking(provider.complete(system, prompt, max_tokens=50), 4, complete=False) == [3, 1, 0]
    rec.assert_all_served()  # two requests: the 529 and the retry


def test_anthropic_retries_are_bounded() -> None:
    provider, rec = anthropic_provider("anthropic_messages_rank.json", max_retries=0)
    with pytest.raises(ProviderError, match="Anthropic claude-haiku-4-5 failed with HTTP 529"):
        provider.complete("s", "p", max_tokens=50)
    assert len(rec.requests) == 1


def test_anthropic_error_never_shows_the_key() -> None:
    provider, rec = anthropic_provider("anthropic_errors.json", max_retries=0)
    provider._key = KEY_ANTHROPIC
    with pytest.raises(ProviderError) as err:
        provider.complete("s", "p")
    assert "HTTP 401" in str(err.value)
    assert KEY_ANTHROPIC not in str(err.value) and "REVOKED" not in str(err.value)
    rec.assert_all_served()


# --- configuration ---------------------------------------------------------------------


def test_get_provider_defaults_to_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TKG_LLM", raising=False)
    assert get_provider() is None
    assert get_provider("none") is None
    monkeypatch.setenv("TKG_LLM", "")
    assert get_provider() is None


def test_get_provider_from_spec_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY_OPENAI)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY_ANTHROPIC)
    provider = get_provider("openai:gpt-4o-mini")
    assert isinstance(provider, OpenAIProvider) and provider.name == "openai:gpt-4o-mini"
    assert provider.client.timeout == 30.0 and provider.client.max_retries == 2
    monkeypatch.setenv("TKG_LLM", "anthropic:claude-haiku-4-5")
    provider = get_provider()
    assert isinstance(provider, AnthropicProvider) and provider.model == "claude-haiku-4-5"
    assert provider.client.timeout == 30.0 and provider.client.max_retries == 2


def test_get_provider_rejects_unknown_specs() -> None:
    with pytest.raises(ConfigError, match="unknown LLM provider 'mistral:large'"):
        get_provider("mistral:large")


@pytest.mark.parametrize(
    ("spec", "var"), [("openai:gpt-4o-mini", "OPENAI_API_KEY"), ("anthropic:x", "ANTHROPIC_API_KEY")]
)
def test_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch, spec: str, var: str) -> None:
    monkeypatch.delenv(var, raising=False)
    with pytest.raises(ProviderError, match=f"set {var}"):
        get_provider(spec)
