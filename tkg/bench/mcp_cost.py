"""`tkg bench mcp`: what the MCP server costs against the Python API, on the same store and questions.

One fresh store gets the LoCoMo samples; every question is asked through ``Memory.ask`` in this
process (one untimed warm-up first), then the Memory is closed (Kuzu admits one process) and
``tkg serve mcp`` is started as a subprocess over stdio and driven by the `mcp` SDK's client,
which asks the same questions again. Reported: the time from spawning the server to its first
answer (the start-up an assistant waits for once), a cold ``tkg ask`` process for comparison
(what every question costs without a server), p50/p95 of both paths, and the per-call overhead
of MCP (each question's MCP time minus its API time). The server runs without the embedding
cache unless asked, so it cannot reuse the API run's query embeddings.

Example::

    >>> with bench_memory(None) as bm:  # doctest: +SKIP
    ...     report = run_mcp(bm, Path("locomo_dev5.json"), samples=1, limit=100)
    >>> report["overhead_ms"]["p50"]  # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from ..errors import TkgError
from ..ingest.loaders import load
from .fresh import BenchMemory, finished, machine
from .locomo import LocomoQuestion, ingest_turns, load_questions
from .metrics import latency_summary, percentile

Tick = Callable[[int], None] | None


def run_mcp(
    bm: BenchMemory, path: Path, *, samples: int | None = None, limit: int | None = None, embed_cache: bool = False,
    progress: Callable[[str, int], Any] | None = None,
) -> dict[str, Any]:
    """The whole comparison on one store; closes ``bm.mem`` half-way (see the module docstring)."""
    questions = load_questions(path, samples=samples, limit=limit)
    host = machine()
    bar = progress or (lambda label, total: None)
    groups = {q.group for q in questions}
    episodes = [e for e in load(path).episodes if e.group in groups]
    ingest = ingest_turns(bm, episodes, bar("ingest", len(episodes)))
    ingest.pop("refs")
    api_ms, api_answers = _api(bm, questions, bar("python api", len(questions)))
    bm.mem.close()  # Kuzu admits one process: the server opens the store next
    env = {**os.environ, "TKG_STORE": bm.raw_url, "HF_HUB_OFFLINE": "1"}  # the URL stays out of the process list
    if not embed_cache:
        env["TKG_EMBED_CACHE"] = "0"
    mcp = anyio.run(_mcp, questions, env, bar("mcp stdio", len(questions)))
    cold = _cold_cli(questions[0], env)
    overhead = [m - a for m, a in zip(mcp["ms"], api_ms, strict=True)]
    same = sum(1 for m, a in zip(mcp["answers"], api_answers, strict=True) if m == a)
    return {
        "benchmark": "mcp", "file": str(path), "store": bm.url, "backend": bm.backend, "machine": host, **finished(),
        "questions": len(questions), "groups": sorted(groups), "ingest": ingest, "embed_cache": embed_cache,
        "start_to_first_answer_s": mcp["first_answer_s"], "start_to_ready_s": mcp["ready_s"],
        "cli_cold_ask": cold,
        "latency_ms": {"python_api": latency_summary(api_ms), "mcp_stdio": latency_summary(mcp["ms"])},
        "overhead_ms": {"p50": round(percentile(overhead, 50), 2), "p95": round(percentile(overhead, 95), 2),
                        "mean": round(sum(overhead) / len(overhead), 2)},
        "same_answers": same, "notes": list(bm.notes),
    }


def _api(bm: BenchMemory, questions: list[LocomoQuestion], tick: Tick) -> tuple[list[float], list[str]]:
    """Each question through ``Memory.ask`` in this process, after one untimed warm-up."""
    bm.mem.ask(questions[0].question, group=questions[0].group)
    ms, answers = [], []
    for q in questions:
        started = time.perf_counter()
        answers.append(bm.mem.ask(q.question, group=q.group).answer)
        ms.append((time.perf_counter() - started) * 1000)
        if tick:
            tick(1)
    return ms, answers


async def _mcp(questions: list[LocomoQuestion], env: dict[str, str], tick: Tick) -> dict[str, Any]:
    """Spawn the server on stdio, time it to its first answer, then time every question as a tool call."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "tkg.cli", "serve", "mcp"], env=env)
    ms, answers = [], []
    with tempfile.TemporaryFile("w+") as log:
        started = time.perf_counter()
        try:
            async with Client(stdio_client(params, errlog=log), cache=None) as client:
                ready = time.perf_counter() - started
                await _ask(client, questions[0])
                first_s = time.perf_counter() - started
                for q in questions:
                    t = time.perf_counter()
                    answers.append(await _ask(client, q))
                    ms.append((time.perf_counter() - t) * 1000)
                    if tick:
                        tick(1)
        except BaseException:
            log.seek(0)
            sys.stderr.write(log.read()[-3000:])
            raise
    return {"ready_s": round(ready, 2), "first_answer_s": round(first_s, 2), "ms": ms, "answers": answers}


async def _ask(client: Any, q: LocomoQuestion) -> str:
    result = await client.call_tool("ask", {"question": q.question, "group": q.group})
    if result.is_error:
        raise TkgError(f"the MCP server failed a question: {result.content[0].text}")
    return str(result.structured_content["answer"])


def _cold_cli(q: LocomoQuestion, env: dict[str, str]) -> dict[str, Any]:
    """One ``tkg ask`` in a new process, what each question costs without a server: its seconds,
    the procedure that answered and the answer's own time (the rest is start-up)."""
    started = time.perf_counter()
    child = subprocess.run([sys.executable, "-m", "tkg.cli", "ask", q.question, "--group", q.group, "--json"], env=env,
                           capture_output=True, text=True, timeout=600)
    seconds = round(time.perf_counter() - started, 2)
    if child.returncode != 0:
        raise TkgError(f"tkg ask failed: {child.stderr.strip()[-500:]}")
    answer = json.loads(child.stdout)
    return {"seconds": seconds, "question": q.question, "procedure": answer.get("procedure"),
            "answer_ms": (answer.get("trace") or {}).get("timings_ms", {}).get("total")}
