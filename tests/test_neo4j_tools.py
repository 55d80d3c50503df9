"""Tests of tools/neo4j/{start,stop}.sh and the Neo4j they give the suite.

Why: every Neo4j-backed test relies on these scripts; if the server is not the 5.26 we target, or
full-text/vector indexes do not work, or a second start silently clobbers the first, the failures
elsewhere would be confusing. The `neo4j` tests use the instance tools/test.sh started
(TKG_TEST_NEO4J_URI); the others need no server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from neo4j import Driver, GraphDatabase

REPO = Path(__file__).resolve().parents[1]
START = REPO / "tools" / "neo4j" / "start.sh"
STOP = REPO / "tools" / "neo4j" / "stop.sh"
URI = os.environ.get("TKG_TEST_NEO4J_URI", "")

needs_neo4j = pytest.mark.skipif(not URI, reason="TKG_TEST_NEO4J_URI is unset (tools/test.sh sets it)")


def script_env(**overrides: str) -> dict[str, str]:
    """The caller's environment without auth, plus overrides (scripts read TKG_NEO4J_* only)."""
    env = {k: v for k, v in os.environ.items() if k != "TKG_NEO4J_PASSWORD"}
    env.update(overrides)
    return env


def run_script(script: Path, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(script)], env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def running(pid: int) -> bool:
    """Alive and not a zombie (init reaps the exited launcher a moment after stop.sh returns)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.fixture
def driver() -> Iterator[Driver]:
    with GraphDatabase.driver(URI) as d:
        yield d


@pytest.mark.neo4j
@needs_neo4j
def test_server_is_neo4j_5_26_community(driver: Driver) -> None:
    records = driver.execute_query("CALL dbms.components() YIELD name, versions, edition").records
    kernel = [r for r in records if r["name"] == "Neo4j Kernel"]
    assert len(kernel) == 1
    assert kernel[0]["versions"][0].startswith("5.26.")
    assert kernel[0]["edition"] == "community"


@pytest.mark.neo4j
@needs_neo4j
def test_vector_and_fulltext_indexes_answer(driver: Driver) -> None:
    tag = uuid.uuid4().hex[:12]
    label, vec, ft = f"ToolsProbe_{tag}", f"tools_vec_{tag}", f"tools_ft_{tag}"
    try:
        driver.execute_query(
            f"CREATE VECTOR INDEX {vec} FOR (n:{label}) ON n.embedding OPTIONS {{indexConfig: "
            "{`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}"
        )
        driver.execute_query(f"CREATE FULLTEXT INDEX {ft} FOR (n:{label}) ON EACH [n.text]")
        driver.execute_query("CALL db.awaitIndexes(60)")
        driver.execute_query(
            f"UNWIND $rows AS r CREATE (:{label} {{text: r.text, embedding: r.embedding}})",
            rows=[
                {"text": "Maya moved to Lisbon in spring", "embedding": [1.0, 0.0, 0.0]},
                {"text": "Tom adopted a grey cat", "embedding": [0.0, 1.0, 0.0]},
            ],
        )
        # Index updates become visible shortly after commit; poll instead of sleeping blindly.
        deadline = time.monotonic() + 30
        while True:
            nearest = driver.execute_query(
                "CALL db.index.vector.queryNodes($index, 2, $q) YIELD node, score "
                "RETURN node.text AS text ORDER BY score DESC",
                index=vec,
                q=[0.9, 0.2, 0.0],
            ).records
            hits = driver.execute_query(
                "CALL db.index.fulltext.queryNodes($index, 'lisbon') YIELD node RETURN node.text AS text",
                index=ft,
            ).records
            if (len(nearest) == 2 and hits) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert [r["text"] for r in nearest] == ["Maya moved to Lisbon in spring", "Tom adopted a grey cat"]
        assert [r["text"] for r in hits] == ["Maya moved to Lisbon in spring"]
    finally:
        driver.execute_query(f"MATCH (n:{label}) DETACH DELETE n")
        driver.execute_query(f"DROP INDEX {vec} IF EXISTS")
        driver.execute_query(f"DROP INDEX {ft} IF EXISTS")


@pytest.mark.neo4j
@needs_neo4j
def test_second_start_on_busy_port_fails_at_once(tmp_path: Path) -> None:
    port = urlparse(URI).port
    assert port is not None
    home = tmp_path / "second"
    began = time.monotonic()
    result = run_script(START, script_env(TKG_NEO4J_PORT=str(port), TKG_NEO4J_HOME=str(home)))
    assert result.returncode != 0
    assert f"port {port} on 127.0.0.1 is already in use" in result.stderr
    assert "bolt://" not in result.stdout
    assert time.monotonic() - began < 10
    assert not (home / "neo4j.pid").exists()


@pytest.mark.neo4j
@pytest.mark.slow
@needs_neo4j
def test_start_then_stop_frees_the_port(tmp_path: Path) -> None:
    """A full cycle on another port: the URI is the last stdout line, stop.sh ends the process."""
    port, home = free_port(), tmp_path / "cycle"
    env = script_env(TKG_NEO4J_PORT=str(port), TKG_NEO4J_HOME=str(home))
    try:
        started = run_script(START, env, timeout=180)
        assert started.returncode == 0, started.stderr[-2000:]
        uri = started.stdout.strip().splitlines()[-1]
        assert uri == f"bolt://127.0.0.1:{port}"
        assert f"export TKG_NEO4J_HOME={home}" in started.stderr
        pid = int((home / "neo4j.pid").read_text())
        with GraphDatabase.driver(uri) as d:
            assert d.execute_query("RETURN 40 + 2 AS n").records[0]["n"] == 42
    finally:
        stopped = run_script(STOP, env, timeout=120)
    assert stopped.returncode == 0, stopped.stderr
    assert not (home / "neo4j.pid").exists()
    assert not running(pid)
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_stop_without_pid_file_is_a_no_op(tmp_path: Path) -> None:
    result = run_script(STOP, script_env(TKG_NEO4J_HOME=str(tmp_path)))
    assert result.returncode == 0
    assert "nothing to stop" in result.stderr


def test_stop_ignores_a_stale_pid_of_another_process(tmp_path: Path) -> None:
    """A recycled pid must never be killed: here it is a sleep that is no tkg launcher."""
    with subprocess.Popen(["sleep", "30"]) as other:
        try:
            (tmp_path / "neo4j.pid").write_text(f"{other.pid}\n")
            result = run_script(STOP, script_env(TKG_NEO4J_HOME=str(tmp_path)))
            assert result.returncode == 0
            assert "stale pid file" in result.stderr
            assert other.poll() is None
            assert not (tmp_path / "neo4j.pid").exists()
        finally:
            other.kill()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"TKG_NEO4J_PORT": "bolt"}, "TKG_NEO4J_PORT must be a number"),
        ({"TKG_NEO4J_PASSWORD": "short"}, "at least 8 characters"),
    ],
)
def test_start_rejects_bad_settings_before_doing_anything(
    tmp_path: Path, overrides: dict[str, str], message: str
) -> None:
    home = tmp_path / "home"
    result = run_script(START, {**script_env(TKG_NEO4J_HOME=str(home)), **overrides})
    assert result.returncode != 0
    assert message in result.stderr
    assert not home.exists()
