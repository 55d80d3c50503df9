"""`tkg serve mcp` started as a subprocess and driven by the `mcp` SDK's own client, on each store.

Per backend two servers run: one on stdio, not pinned (every call names its group), driven
through a whole session in one test; and one on streamable HTTP behind a bearer token, pinned
to a group and offering ``forget_group``, shared by the module's HTTP tests. Each server loads
the embedding model once (a few seconds), which is why they are shared. The conversation is
our own: Noor moves Porto → Ghent, and works at Tidewater. Groups are unique per run and are
deleted afterwards, so the shared Neo4j is left as it was.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, get_args

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

from tkg.errors import ConfigError
from tkg.mcpserver.run import TOKEN_ENV, parse_bind
from tkg.mcpserver.tools import ModeArg
from tkg.memory import Memory
from tkg.models import MODES
from tkg.stores import open_store

ROOT = Path(__file__).resolve().parent.parent
NEO4J_ENV = "TKG_TEST_NEO4J_URI"
TOKEN = "test-token-" + uuid.uuid4().hex
READS = {"ask", "state", "history", "search"}
T = TypeVar("T")
TURNS = [
    {
        "speaker": "Noor",
        "text": "Hi! I'm Noor. I live in Porto and I work at Tidewater.",
        "time": "2023-02-01T09:00:00Z",
        "source_ref": "n1",
    },
    {
        "speaker": "Sam",
        "text": "Porto sounds lovely. How is the job?",
        "time": "2023-02-01T09:01:00Z",
        "source_ref": "s1",
    },
    {
        "speaker": "Noor",
        "text": "Big news: I moved to Ghent last week.",
        "time": "2023-09-10T18:00:00Z",
        "source_ref": "n2",
    },
    {
        "speaker": "Sam",
        "text": "Ghent! Do you still work at Tidewater?",
        "time": "2023-09-10T18:02:00Z",
        "source_ref": "s2",
    },
]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}


def serve_args(url: str, *extra: str) -> list[str]:
    return ["-m", "tkg.cli", "serve", "mcp", "--store", url, *extra]


def run(fn: Callable[[], Awaitable[T]], seconds: float = 240) -> T:
    async def bounded() -> T:
        with anyio.fail_after(seconds):  # a hung server fails the test instead of stalling the suite
            return await fn()

    return anyio.run(bounded)


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error(result: CallToolResult, text: str) -> str:
    assert result.is_error
    message = result.content[0].text  # type: ignore[union-attr]
    assert text in message and "Traceback" not in message, message
    return message


@pytest.fixture(scope="module", params=["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "neo4j" and not os.environ.get(NEO4J_ENV):
        pytest.skip(f"{NEO4J_ENV} is not set")
    return str(request.param)


def store_url(backend: str, tmp: Path) -> str:
    return os.environ[NEO4J_ENV] if backend == "neo4j" else f"kuzu://{tmp}/mcp.kuzu"


def delete_groups(url: str, groups: list[str]) -> None:
    if url.startswith("kuzu://"):
        return  # a temporary directory
    with open_store(url) as store:
        for g in groups:
            store.named("group.delete", {"group_id": g})


# --- stdio, not pinned ---------------------------------------------------------------------------


def test_a_whole_session_over_stdio(backend: str, tmp_path: Path) -> None:
    url, group = store_url(backend, tmp_path), f"mcp-{uuid.uuid4().hex[:10]}"
    log = (tmp_path / "server.log").open("w+")
    params = StdioServerParameters(command=sys.executable, args=serve_args(url), env=env(), cwd=str(ROOT))

    async def session() -> None:
        async with Client(stdio_client(params, errlog=log), cache=None) as c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert names == {
                "add_episode", "add_episodes", "ask", "state", "history", "search",
            }  # no forget_group
            schemas = {t.name: t.input_schema for t in (await c.list_tools()).tools}
            assert set(schemas["ask"]["properties"]) == {"question", "group", "mode", "as_of"}
            assert schemas["add_episode"]["required"] == ["text", "speaker"]

            written = data(await c.call_tool("add_episodes", {"group": group, "episodes": TURNS[:2]}))
            assert written["episodes"] == 2 and written["facts"] >= 2 and written["group"] == group
            one = data(await c.call_tool("add_episode", {"group": group, **TURNS[2]}))
            assert one["episodes"] == 1 and one["superseded"] >= 1  # Porto → Ghent
            data(await c.call_tool("add_episode", {"group": group, **TURNS[3]}))
            again = data(await c.call_tool("add_episodes", {"group": group, "episodes": TURNS}))
            assert again["episodes"] == 0 and again["skipped_existing"] == 4  # idempotent

            answer = data(await c.call_tool("ask", {"question": "Where does Noor live now?", "group": group}))
            assert (
                answer["answer"] == "Ghent"
                and not answer["abstained"]
                and answer["mode"]
                and answer["procedure"]
            )
            assert answer["evidence"][0]["source_ref"] == "n2" and answer["evidence"][0]["speaker"] == "Noor"
            assert {"time", "text", "score"} <= set(answer["evidence"][0])
            before = data(
                await c.call_tool(
                    "ask", {"question": "Where did Noor live?", "group": group, "as_of": "March 2023"}
                )
            )
            assert before["answer"] == "Porto" and before["as_of"].startswith("2023-03-01")

            now = data(
                await c.call_tool("state", {"subject": "Noor", "predicate": "lives_in", "group": group})
            )
            assert [(f["object"], f["current"]) for f in now["facts"]] == [("Ghent", True)]
            then = data(
                await c.call_tool(
                    "state",
                    {"subject": "Noor", "predicate": "lives_in", "group": group, "as_of": "2023-05-01"},
                )
            )
            assert [f["object"] for f in then["facts"]] == ["Porto"]
            past = data(
                await c.call_tool("history", {"subject": "Noor", "predicate": "lives_in", "group": group})
            )
            assert [(f["object"], f["version"]) for f in past["facts"]] == [("Porto", 1), ("Ghent", 2)]
            assert (
                past["facts"][0]["invalid_at"] == past["facts"][1]["valid_at"]
                and past["facts"][0]["source_ref"] == "n1"
            )

            found = data(await c.call_tool("search", {"query": "Ghent", "group": group, "k": 2}))
            assert len(found["turns"]) == 2 and found["turns"][0]["source_ref"] in {"n2", "s2"}

            # errors: the message a CLI user reads, nothing written
            for tool in READS:
                args = {"question": "Where?", "subject": "Noor", "query": "Ghent"}
                needed = {k: v for k, v in args.items() if k in schemas[tool]["properties"]}
                error(await c.call_tool(tool, needed), "a group is required")
            error(
                await c.call_tool("ask", {"question": "Where?", "group": group + "-nope"}), "no group named"
            )
            error(
                await c.call_tool(
                    "ask", {"question": "Where?", "group": group, "as_of": "the day after never"}
                ),
                "cannot read",
            )
            error(await c.call_tool("ask", {"question": "Where?", "group": group, "mode": "guess"}), "mode")
            error(
                await c.call_tool("state", {"subject": "Noor", "predicate": "likes_cheese", "group": group}),
                "unknown predicate",
            )
            error(await c.call_tool("search", {"query": "Ghent", "group": group, "k": 0}), "k")
            bad_time = [
                TURNS[0] | {"source_ref": "x1"},
                {"speaker": "Noor", "text": "Later.", "time": "yesterday-ish"},
            ]
            error(
                await c.call_tool("add_episodes", {"group": group, "episodes": bad_time}), "invalid timestamp"
            )
            error(
                await c.call_tool("add_episode", {"group": group, "speaker": "Noor", "text": "   "}),
                "text is empty",
            )
            error(await c.call_tool("add_episode", {"group": group, "speaker": "Noor"}), "text")
            error(await c.call_tool("forget_group", {"group": group}), "forget_group")
            summary = (await c.read_resource(f"tkg://group/{group}/summary")).contents[0]
            assert (
                '"episodes": 4' in summary.text
                and '"Noor"' in summary.text
                and "recent_facts" in summary.text
            )  # type: ignore[union-attr]
            listed = (await c.read_resource("tkg://groups")).contents[0]
            assert group in listed.text  # type: ignore[union-attr]
            with pytest.raises(MCPError, match="no group named"):
                await c.read_resource(f"tkg://group/{group}-nope/summary")

    try:
        run(session)
    except BaseException:
        log.seek(0)
        print(log.read()[-4000:])
        raise
    finally:
        log.close()
        delete_groups(url, [group])


# --- streamable HTTP, pinned, with a token ---------------------------------------------------------


class HttpServer:
    def __init__(self, url: str, group: str, endpoint: str, process: subprocess.Popen[bytes]) -> None:
        self.url, self.group, self.endpoint, self.process = url, group, endpoint, process

    @asynccontextmanager
    async def client(self, token: str | None = TOKEN) -> AsyncIterator[Client]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with create_mcp_http_client(headers=headers) as http, Client(
            streamable_http_client(self.endpoint, http_client=http), cache=None
        ) as c:
            yield c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def http_server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    tmp = tmp_path_factory.mktemp("mcp-http")
    url, group, port = store_url(backend, tmp), f"mcp-pin-{uuid.uuid4().hex[:10]}", free_port()
    log = (tmp / "server.log").open("w+")
    args = serve_args(url, "--group", group, "--http", f"127.0.0.1:{port}", "--allow-forget")
    process = subprocess.Popen([sys.executable, *args], env=env() | {TOKEN_ENV: TOKEN}, cwd=ROOT,
                               stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 240
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                log.seek(0)
                pytest.fail(f"the HTTP server did not start: {log.read()[-3000:]}")
            time.sleep(0.2)
    try:
        yield HttpServer(url, group, f"http://127.0.0.1:{port}/mcp", process)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        delete_groups(url, [group])
        log.close()


def test_http_pinned_server_works_in_its_group_only(http_server: HttpServer) -> None:
    other = http_server.group + "-other"

    async def session() -> None:
        async with http_server.client() as c:
            assert "forget_group" in {t.name for t in (await c.list_tools()).tools}
            empty = data(
                await c.call_tool("ask", {"question": "Where does Noor live?"})
            )  # a pinned group may start empty
            assert empty["abstained"] and empty["group"] == http_server.group
            written = data(await c.call_tool("add_episodes", {"episodes": TURNS}))
            assert written["episodes"] == 4 and written["group"] == http_server.group
            same = data(
                await c.call_tool("add_episodes", {"episodes": TURNS[:1], "group": http_server.group})
            )
            assert same["skipped_existing"] == 1
            assert (
                data(await c.call_tool("ask", {"question": "Where does Noor live now?"}))["answer"] == "Ghent"
            )
            assert [
                f["object"]
                for f in data(await c.call_tool("history", {"subject": "Noor", "predicate": "lives_in"}))[
                    "facts"
                ]
            ] == ["Porto", "Ghent"]
            for tool, args in [
                ("add_episodes", {"episodes": TURNS}),
                ("ask", {"question": "Where?"}),
                ("state", {"subject": "Noor"}),
                ("history", {"subject": "Noor"}),
                ("search", {"query": "Ghent"}),
                ("forget_group", {}),
            ]:
                error(
                    await c.call_tool(tool, {**args, "group": other}),
                    f"pinned to group {http_server.group!r}",
                )
            listed = (await c.read_resource("tkg://groups")).contents[0].text  # type: ignore[union-attr]
            assert http_server.group in listed and other not in listed
            with pytest.raises(MCPError, match="pinned"):
                await c.read_resource(f"tkg://group/{other}/summary")

    run(session)
    if not http_server.url.startswith("kuzu://"):  # the server process holds Kuzu's lock
        with open_store(http_server.url) as store:
            assert store.named("group.counts", {"group_id": other})[0]["episodes"] == 0


def test_http_calls_run_concurrently(http_server: HttpServer) -> None:
    async def session() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        async with http_server.client() as c:
            data(await c.call_tool("add_episodes", {"episodes": TURNS}))

            async def one(i: int) -> None:
                if i % 4 == 3:
                    turn = {
                        "speaker": "Sam",
                        "text": f"Note number {i} about the weather.",
                        "time": f"2024-01-0{i % 9 + 1}T10:00:00Z",
                    }
                    out.append(data(await c.call_tool("add_episode", turn)))
                else:
                    out.append(data(await c.call_tool("ask", {"question": "Where does Noor work?"})))

            async with anyio.create_task_group() as tg:
                for i in range(12):
                    tg.start_soon(one, i)
        return out

    results = run(session)
    assert len(results) == 12 and sum(1 for r in results if "answer" in r) == 9
    assert all(r["answer"] == "Tidewater" for r in results if "answer" in r)


def test_http_without_the_token_is_unauthorised(http_server: HttpServer) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong-token-of-some-length"}):
        response = httpx.post(
            http_server.endpoint,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers=headers,
            timeout=10,
        )
        assert response.status_code == 401 and TOKEN not in response.text


def test_http_forget_group_deletes_the_pinned_group(http_server: HttpServer) -> None:
    async def session() -> dict[str, Any]:
        async with http_server.client() as c:
            data(await c.call_tool("add_episodes", {"episodes": TURNS[:2]}))
            gone = data(await c.call_tool("forget_group", {"group": http_server.group}))
            after = (await c.read_resource(f"tkg://group/{http_server.group}/summary")).contents[0].text  # type: ignore[union-attr]
            assert '"episodes": 0' in after
            return gone

    gone = run(session)
    assert gone["group"] == http_server.group and gone["episodes"] >= 2


# --- start-up checks ---------------------------------------------------------------------------------


def test_http_off_loopback_without_a_token_is_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "never.kuzu"
    started = time.monotonic()
    child = subprocess.run(
        [sys.executable, *serve_args(f"kuzu://{db}", "--http", "0.0.0.0:0")],
        env={k: v for k, v in env().items() if k != TOKEN_ENV},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 1 and TOKEN_ENV in child.stderr and "Traceback" not in child.stderr, (
        child.stderr
    )
    assert (
        not db.exists() and time.monotonic() - started < 60
    )  # refused before the store or the model is touched


def test_bind_rules() -> None:
    assert (parse_bind("8765", {}).host, parse_bind("[::1]:9", {}).host) == ("127.0.0.1", "::1")
    assert parse_bind("0.0.0.0:8765", {TOKEN_ENV: TOKEN}).token == TOKEN
    assert parse_bind("localhost:1", {TOKEN_ENV: TOKEN}).token == TOKEN  # set: required everywhere
    for bad, environ in [
        ("0.0.0.0:8765", {}),
        ("example.org:80", {}),
        ("127.0.0.1:x", {}),
        ("0.0.0.0:1", {TOKEN_ENV: "short"}),
    ]:
        with pytest.raises(ConfigError):
            parse_bind(bad, environ)
    assert tuple(get_args(ModeArg)) == MODES


def test_recent_facts_and_records_through_the_library(backend: str, tmp_path: Path) -> None:
    url, group = store_url(backend, tmp_path), f"mcp-lib-{uuid.uuid4().hex[:10]}"
    records = [
        {"speaker": t["speaker"], "text": t["text"], "timestamp": t["time"], "source_ref": t["source_ref"]}
        for t in TURNS
    ]
    try:
        with Memory.open(url) as mem:
            assert mem.ingest_records(records, group=group).episodes == 4
            rows = mem.ctx.store.named("fact.recent", {"group_id": group, "limit": 2})
            every = mem.cypher(
                "MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g RETURN r.valid_at AS v", {"g": group}
            )
            assert (
                len(every) >= 3
                and [r["valid_at"] for r in rows] == sorted((r["v"] for r in every), reverse=True)[:2]
            )
            summary = mem.summary(group, recent=1)
            assert summary["episodes"] == 4 and [s["speaker"] for s in summary["speakers"]] == ["Noor", "Sam"]
            assert len(summary["recent_facts"]) == 1 and summary["first"] < summary["last"]
            with pytest.raises(Exception, match="text is empty"):
                mem.ingest_records(
                    [{"speaker": "Noor", "text": "", "timestamp": "2024-01-01T00:00:00Z"}], group=group
                )
            assert mem.counts(group)["episodes"] == 4
    finally:
        delete_groups(url, [group])

