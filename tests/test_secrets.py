"""Secrets: a password or API key given in a URL or the environment never comes back out.

Not in error messages or their tracebacks (causes included), not in any log record at DEBUG (the
Neo4j and OpenAI drivers log a lot there), not in an answer's trace, not in `tkg doctor` or any
other CLI output, and not in the ``repr`` of the objects a user can print.
"""

from __future__ import annotations

import json
import logging
import os
import random
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import httpx2
import pytest
from reliability.common import neo4j_url, shared_embedder, unique
from typer.testing import CliRunner

from tkg.bench.soak import conversation
from tkg.cli import app
from tkg.errors import ConfigError, ProviderError, StoreUnavailable, TkgError
from tkg.llm import AnthropicProvider, OpenAIProvider
from tkg.memory import Memory

SECRET = "s3cret-XYZ-7f2a"
KEY = "sk-proj-SECRETKEY0123456789abcdef"
runner = CliRunner()


@pytest.fixture
def debug_logs(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.DEBUG)
    for name in ("neo4j", "openai", "httpx", "httpcore", "anthropic", "tkg"):
        caplog.set_level(logging.DEBUG, logger=name)
    yield caplog


def everything_in(exc: BaseException) -> str:
    """An exception as a user could see it: message, repr, args and the whole chained traceback."""
    return "\n".join([str(exc), repr(exc), repr(exc.args), *traceback.format_exception(exc)])


def logged(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(f"{r.name} {r.getMessage()} {r.args!r}" for r in caplog.records)


def assert_secret_free(where: str, text: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in text, (
            f"{where} shows the secret {secret[:4]}…: …{text[max(0, text.find(secret) - 80) :][:200]}"
        )


# --- no server needed ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        f"bolt://neo4j:{SECRET}@127.0.0.1:1",
        f"neo4j://admin:{SECRET}@127.0.0.1:1?database=tkg",
        f"bolt+s://neo4j:{SECRET}@127.0.0.1:1",
    ],
)
def test_unreachable_store_errors_never_show_the_password(
    url: str, debug_logs: pytest.LogCaptureFixture
) -> None:
    with pytest.raises(StoreUnavailable) as failed:
        Memory.open(url, embedder=shared_embedder())
    assert "127.0.0.1:1" in str(failed.value)
    assert_secret_free("the error", everything_in(failed.value), SECRET)
    assert_secret_free("the DEBUG log", logged(debug_logs), SECRET)
    result = runner.invoke(app, ["--store", url, "groups"])
    assert result.exit_code == 1
    assert_secret_free("`tkg groups`", result.output, SECRET)


def test_password_from_the_environment_is_never_shown(
    monkeypatch: pytest.MonkeyPatch, debug_logs: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("TKG_NEO4J_USER", "neo4j")
    monkeypatch.setenv("TKG_NEO4J_PASSWORD", SECRET)
    with pytest.raises(StoreUnavailable) as failed:
        Memory.open("bolt://127.0.0.1:1", embedder=shared_embedder())
    assert_secret_free("the error", everything_in(failed.value), SECRET)
    for args in (["groups"], ["doctor"], ["doctor", "--json"]):
        result = runner.invoke(app, ["--store", "bolt://127.0.0.1:1", *args])
        assert_secret_free(f"`tkg {' '.join(args)}`", result.output, SECRET)
    assert_secret_free("the DEBUG log", logged(debug_logs), SECRET)


@pytest.mark.parametrize(
    "url",
    [f"bolt://neo4j:{SECRET}@127.0.0.1:notaport", f"bolt://neo4j:{SECRET}@:7687", f"bolt://neo4j:{SECRET}@h:1?x=1"],
)
def test_bad_urls_are_reported_without_the_password(url: str) -> None:
    with pytest.raises(ConfigError) as failed:
        Memory.open(url, embedder=shared_embedder())
    assert_secret_free("the error", everything_in(failed.value), SECRET)
    result = runner.invoke(app, ["--store", url, "doctor"])
    assert_secret_free("`tkg doctor`", result.output, SECRET)


def leaky_server(http: Any) -> Any:
    """An API (on the SDK's own httpx flavour) that echoes the key it was sent in its error, as real ones
    do."""

    def handle(request: Any) -> Any:
        sent = request.headers.get("authorization", "") + " " + request.headers.get("x-api-key", "")
        return http.Response(
            401, json={"error": {"message": f"Incorrect API key provided: {sent.strip()}", "type": "auth"}}
        )

    return http.Client(transport=http.MockTransport(handle))


@pytest.mark.parametrize("provider_cls, http", [(OpenAIProvider, httpx), (AnthropicProvider, httpx2)])
def test_api_keys_stay_out_of_errors_logs_reprs_and_traces(
    provider_cls: type[Any], http: Any, tmp_path: Path, debug_logs: pytest.LogCaptureFixture
) -> None:
    with leaky_server(http) as http:
        provider = provider_cls(api_key=KEY, http_client=http, max_retries=0)
        with pytest.raises(ProviderError) as failed:
            provider.complete("system", "prompt")
        assert_secret_free("the provider error", everything_in(failed.value), KEY)
        assert_secret_free("repr(provider)", repr(provider), KEY)
        group = unique("secrets")
        with Memory.open(f"kuzu://{tmp_path}/s.kuzu", embedder=shared_embedder(), llm=provider) as mem:
            mem.ingest_episodes(conversation(random.Random(1), group, 4))
            answer = mem.ask("Where does Priya live?", group=group)
            assert_secret_free("the answer and its trace", json.dumps(answer.to_dict(), default=str), KEY)
            assert_secret_free("repr(memory)", repr(mem) + repr(mem.ctx), KEY)
    assert_secret_free("the DEBUG log", logged(debug_logs), KEY)


def test_api_keys_in_the_environment_stay_out_of_doctor(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY + "-anthropic")
    for args in (["doctor"], ["doctor", "--json"]):
        result = runner.invoke(app, ["--store", f"kuzu://{tmp_path}/d.kuzu", *args])
        assert_secret_free("`tkg doctor`", result.output, KEY)


# --- against the test Neo4j, with a password in the URL ---------------------------------------------


def with_password(url: str) -> tuple[str, str]:
    """The test server's URL carrying a password, and that password (the server's own if it has one)."""
    parts = urlsplit(url)
    if parts.password:
        return url, parts.password
    secret = os.environ.get("TKG_NEO4J_PASSWORD") or SECRET  # a server without auth accepts any password
    user = parts.username or os.environ.get("TKG_NEO4J_USER") or "neo4j"
    netloc = f"{user}:{secret}@{parts.hostname}:{parts.port or 7687}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment)), secret


@pytest.mark.neo4j
def test_a_working_neo4j_session_never_shows_the_password(debug_logs: pytest.LogCaptureFixture) -> None:
    url, secret = with_password(neo4j_url())
    group = unique("secrets")
    seen: list[str] = []
    with Memory.open(url, embedder=shared_embedder()) as mem:
        try:
            mem.ingest_episodes(conversation(random.Random(2), group, 6))
            answer = mem.ask("Where does Priya live?", group=group)
            seen += [json.dumps(answer.to_dict(), default=str), repr(answer)]
            seen += [repr(f) for f in mem.history("Priya", group=group)] if any(
                e["name"] == "Priya"
                for e in mem.ctx.store.named("entity.list", {"group_id": group})) else []  # fmt: skip
            seen += [
                repr(mem),
                repr(mem.ctx),
                repr(mem.ctx.store),
                mem.ctx.store.url,
                repr(vars(mem.ctx.store)),
            ]
            seen += [json.dumps(mem.groups(), default=str), json.dumps(mem.cypher("RETURN 1 AS x"))]
            try:
                mem.cypher("THIS IS NOT CYPHER")
            except TkgError as exc:
                seen.append(everything_in(exc))
        finally:
            mem.forget(group)
    for args in (["doctor"], ["doctor", "--json"], ["groups", "--json"]):
        result = runner.invoke(app, ["--store", url, *args])
        seen.append(result.output)
    assert "***" in mem.ctx.store.url
    assert_secret_free("a session's outputs", "\n".join(seen), secret)
    assert_secret_free("the DEBUG log", logged(debug_logs), secret)
    assert any(r.name.startswith("neo4j") for r in debug_logs.records), (
        "the driver's DEBUG log was not captured"
    )

