"""graphiti-core reads a graph tkg wrote, on the real Neo4j: its own hybrid searches (no LLM), the
turns its results point at, no warning from the server on any search, and `tkg bench peers`
leaving the server as it found it."""

from __future__ import annotations

import json
import logging
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tkg.bench.fresh import BenchMemory, bench_memory
from tkg.bench.locomo import ingest_questions, load_questions, run_locomo
from tkg.bench.peers import open_graphiti, run_peers
from tkg.cli import app
from tkg.errors import ConfigError
from tkg.memory import Memory

pytestmark = pytest.mark.neo4j
NEO4J_ENV = "TKG_TEST_NEO4J_URI"

TURNS = [
    ("Ilse", "I moved to Ghent last spring and I work at Corvane Labs as a chemist."),
    ("Tobin", "Nice. I still live in Porto and I teach piano at the conservatory."),
    ("Ilse", "My brother Ruben lives in Tallinn with his cat Pixel."),
    ("Tobin", "I adopted a dog called Mango last week."),
    ("Ilse", "I left Corvane Labs and now I work at Halden Foods."),
    ("Tobin", "I sold my old bike and bought a kayak."),
]
QUESTIONS = [
    ("Where does Ilse work now?", ["D1:5"]),
    ("Where does Ruben live?", ["D1:3"]),
    ("What is the name of Tobin's dog?", ["D1:4"]),
    ("What does Tobin teach?", ["D1:2"]),
]


def conversation_file(folder: Path, sample: str) -> Path:
    """A LoCoMo-shaped file of our own sentences, with questions whose evidence is known."""
    session = [{"speaker": s, "dia_id": f"D1:{i}", "text": t} for i, (s, t) in enumerate(TURNS, 1)]
    qa = [{"question": q, "answer": "", "evidence": ev, "category": 4} for q, ev in QUESTIONS]
    data = [
        {
            "sample_id": sample,
            "qa": qa,
            "conversation": {
                "speaker_a": "Ilse",
                "speaker_b": "Tobin",
                "session_1_date_time": "9:00 am on 4 May, 2023",
                "session_1": session,
            },
        }
    ]
    path = folder / f"{sample}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def neo4j_url() -> str:
    url = os.environ.get(NEO4J_ENV)
    if not url:
        pytest.skip(f"{NEO4J_ENV} is not set")
    return url


@pytest.fixture
def peers_run(neo4j_url: str, tmp_path: Path) -> Iterator[tuple[BenchMemory, Path, str]]:
    sample = f"peers-{uuid.uuid4().hex[:10]}"
    path = conversation_file(tmp_path, sample)
    with bench_memory(neo4j_url) as bm:
        try:
            yield bm, path, sample
        finally:
            bm.forget_groups([sample])


def test_graphiti_searches_a_tkg_graph_without_a_warning(
    peers_run: tuple[BenchMemory, Path, str], caplog: pytest.LogCaptureFixture
) -> None:
    bm, path, sample = peers_run
    run = run_locomo(bm, ingest_questions(bm, path))
    assert run.report["ingest"]["turns"] == len(TURNS)
    with caplog.at_level(logging.DEBUG):
        report = run_peers(bm, run.questions, run.known, run.results)
    said = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING]
    assert not said, said  # e.g. 01N52: a property graphiti reads that tkg's graph never had
    for name in ("graphiti_edges", "graphiti_combined"):
        scores = report["systems"][name]["retrieval"]
        assert scores["n"] == len(QUESTIONS) and scores["hit@10"] > 0, (name, scores)


def test_graphiti_edges_point_at_the_turns_tkg_wrote(peers_run: tuple[BenchMemory, Path, str]) -> None:
    import asyncio

    from graphiti_core.search.search_config_recipes import EDGE_HYBRID_SEARCH_RRF

    bm, path, sample = peers_run
    run_locomo(bm, ingest_questions(bm, path))
    turns = {r["uuid"] for r in bm.mem.cypher(
        "MATCH (e:Episodic) WHERE e.group_id = $g RETURN e.uuid AS uuid", {"g": sample})}
    graphiti = open_graphiti(bm)
    loop = asyncio.new_event_loop()
    try:
        found = loop.run_until_complete(
            graphiti.search_("Where does Ruben live?", config=EDGE_HYBRID_SEARCH_RRF, group_ids=[sample])
        )
    finally:
        loop.run_until_complete(graphiti.close())
        loop.close()
    assert found.edges, "graphiti found no fact edge in tkg's graph"
    assert all(e.group_id == sample and set(e.episodes) <= turns and e.episodes for e in found.edges)
    assert any("Tallinn" in e.fact for e in found.edges)
    said = {r["uuid"]: r["at"] for r in bm.mem.cypher(
        "MATCH (e:Episodic) WHERE e.group_id = $g RETURN e.uuid AS uuid, e.valid_at AS at", {"g": sample})}
    assert all(e.reference_time is not None and e.reference_time == said[e.episodes[0]] for e in found.edges)


def test_bench_peers_removes_the_groups_it_wrote(neo4j_url: str, tmp_path: Path) -> None:
    sample = f"peers-{uuid.uuid4().hex[:10]}"
    path = conversation_file(tmp_path, sample)
    result = CliRunner().invoke(app, ["bench", "peers", str(path), "--store", neo4j_url, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(report["systems"]) == {"tkg", "graphiti_edges", "graphiti_combined"}
    assert "removed the 1 group(s)" in result.stderr
    with Memory.open(neo4j_url) as mem:
        assert sample not in {g["group_id"] for g in mem.groups()}
        assert mem.counts(sample)["entities"] == 0


def test_peers_refuse_an_embedded_store(tmp_path: Path) -> None:
    path = conversation_file(tmp_path, "peers-kuzu")
    assert load_questions(path)
    with (
        bench_memory(f"kuzu://{tmp_path}/peers.kuzu") as bm,
        pytest.raises(ConfigError, match="needs a Neo4j store"),
    ):
        open_graphiti(bm)


