"""`tkg bench mcp`: what the MCP server costs against the Python API, on the same store and questions.

One fresh store gets the LoCoMo samples and the ingesting Memory is closed (Kuzu admits one
process); every question is asked through ``Memory.ask`` in a process of its own (a spawned child:
a Memory just opened, the model loaded, one untimed warm-up question), and then ``tkg serve mcp``
is started as a subprocess over stdio and driven by the `mcp` SDK's client, which asks the same
questions again. Both paths thus start alike; neither runs in the process that ingested.
Reported: the time from spawning the server to its first answer (the start-up an assistant waits
for once); one cold ``tkg ask --mode single_fact`` process (a lookup embeds its question, so it
loads the model: what such a question costs without a server); p50/p95 of both paths; the
overhead of MCP per call, both as each question's MCP time minus its API time and as the round
trip minus the server's own time (``server_ms``), which leaves out the two processes' differences.
The server runs without the embedding cache unless asked, so it cannot reuse the API run's
query embeddings. On Neo4j the benchmark's groups are deleted at the end.

Example::

    >>> with bench_memory(None) as bm:  # doctest: +SKIP
    ...     report = run_mcp(bm, ingest_questions(bm, Path("locomo_dev5.json"), samples=1, limit=100))
    >>> report["mcp_transport_ms"]["p50"]  # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from ..errors import TkgError
from ..mcpserver.run import open_warm
from ..memory import Memory
from ..models import Tick
from .fresh import BenchMemory, finished
from .locomo import Ingested
from .metrics import latency_summary, percentile
from .questions import LocomoQuestion


def run_mcp(bm: BenchMemory, got: Ingested, *, embed_cache: bool = False) -> dict[str, Any]:
    """The whole comparison on the store ``got`` was ingested into; closes ``bm.mem`` half-way (see
    the module docstring)."""
    questions, groups, bar = got.questions, got.groups, got.bar
    bm.mem.close()  # Kuzu admits one process: the API's process and then the server's open the store next
    bar("python api (own process)", len(questions))
    api_ms, api_answers = _api_in_child(bm.raw_url, questions, embed_cache)
    env = {
        **os.environ,
        "TKG_STORE": bm.raw_url,
        "HF_HUB_OFFLINE": "1",
    }  # the URL stays out of the process list
    if not embed_cache:
        env["TKG_EMBED_CACHE"] = "0"
    try:
        mcp = anyio.run(_mcp, questions, env, bar("mcp stdio", len(questions)))
        cold = _cold_cli(questions[0], env)
    finally:
        if bm.shared:  # a shared server is left as it was
            with Memory.open(bm.raw_url, embedder=bm.embedder) as mem:
                for g in groups:
                    mem.forget(g)
    overhead = [m - a for m, a in zip(mcp["ms"], api_ms, strict=True)]
    transport = [m - s for m, s in zip(mcp["ms"], mcp["server_ms"], strict=True)]
    same = sum(1 for m, a in zip(mcp["answers"], api_answers, strict=True) if m == a)
    return {
        "benchmark": "mcp",
        "file": str(got.path),
        "store": bm.url,
        "backend": bm.backend,
        "machine": got.machine,
        **finished(),
        "questions": len(questions),
        "groups": sorted(groups),
        "ingest": got.ingest,
        "embed_cache": embed_cache,
        "start_to_first_answer_s": mcp["first_answer_s"],
        "start_to_ready_s": mcp["ready_s"],
        "cli_cold_ask": cold,
        "latency_ms": {"python_api": latency_summary(api_ms), "mcp_stdio": latency_summary(mcp["ms"])},
        "overhead_ms": {
            "p50": round(percentile(overhead, 50), 2),
            "p95": round(percentile(overhead, 95), 2),
            "mean": round(sum(overhead) / len(overhead), 2),
        },
        "mcp_transport_ms": {
            "p50": round(percentile(transport, 50), 2),
            "p95": round(percentile(transport, 95), 2),
            "mean": round(sum(transport) / len(transport), 2),
        },
        "server_ms": latency_summary(mcp["server_ms"]),
        "same_answers": same,
        "notes": list(bm.notes),
    }


def _api_in_child(
    url: str, questions: list[LocomoQuestion], embed_cache: bool
) -> tuple[list[float], list[str]]:
    """Each question through ``Memory.ask`` in a new Python process (`api_child`), started like the
    server (`open_warm`, then the first question once, untimed), not in the process that ingested
    and holds its garbage. The store URL goes over stdin, not argv."""
    job = {"url": url, "questions": [[q.question, q.group] for q in questions]}
    env = {**os.environ, "HF_HUB_OFFLINE": "1"} | ({} if embed_cache else {"TKG_EMBED_CACHE": "0"})
    child = subprocess.run([sys.executable, "-c", "from tkg.bench.mcp_cost import api_child; api_child()"],
                           input=json.dumps(job), capture_output=True, text=True, timeout=3600, env=env)
    if child.returncode != 0:
        raise TkgError(f"the Python API run failed: {child.stderr.strip()[-800:]}")
    out = json.loads(child.stdout.strip().splitlines()[-1])
    return out["ms"], out["answers"]


def api_child() -> None:
    """The child's side of `_api_in_child`: read the job from stdin, print one JSON line of timings."""
    job = json.loads(sys.stdin.read())
    ms, answers = [], []
    with open_warm(job["url"], None) as mem:  # the server's own start: model loaded, one question asked
        first, group = job["questions"][0]
        mem.ask(first, group=group)
        for question, group in job["questions"]:
            started = time.perf_counter()
            answers.append(mem.ask(question, group=group).answer)
            ms.append((time.perf_counter() - started) * 1000)
    sys.stdout.write(json.dumps({"ms": ms, "answers": answers}) + "\n")


async def _mcp(questions: list[LocomoQuestion], env: dict[str, str], tick: Tick | None) -> dict[str, Any]:
    """Spawn the server on stdio, time it to its first answer, then time every question as a tool call."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "tkg.cli", "serve", "mcp"], env=env)
    ms: list[float] = []
    answers: list[str] = []
    server_ms: list[float] = []
    with tempfile.TemporaryFile("w+") as log:
        started = time.perf_counter()
        try:
            async with Client(stdio_client(params, errlog=log), cache=None) as client:
                ready = time.perf_counter() - started
                await _ask(client, questions[0])
                first_s = time.perf_counter() - started
                for q in questions:
                    t = time.perf_counter()
                    answer, took = await _ask(client, q)
                    ms.append((time.perf_counter() - t) * 1000)
                    answers.append(answer)
                    server_ms.append(took)
                    if tick:
                        tick(1)
        except BaseException:
            log.seek(0)
            sys.stderr.write(log.read()[-3000:])
            raise
    return {"ready_s": round(ready, 2), "first_answer_s": round(first_s, 2), "ms": ms, "answers": answers,
            "server_ms": server_ms}


async def _ask(client: Any, q: LocomoQuestion) -> tuple[str, float]:
    """The answer and the server's own time for it (``server_ms``)."""
    result = await client.call_tool("ask", {"question": q.question, "group": q.group})
    if result.is_error:
        raise TkgError(f"the MCP server failed a question: {result.content[0].text}")
    return str(result.structured_content["answer"]), float(result.structured_content["server_ms"])


def _cold_cli(q: LocomoQuestion, env: dict[str, str]) -> dict[str, Any]:
    """One ``tkg ask --mode single_fact`` in a new process (a lookup embeds the question, so the model
    loads): its seconds, the procedure that answered and the answer's own time (the rest is start-up)."""
    started = time.perf_counter()
    args = ["-m", "tkg.cli", "ask", q.question, "--group", q.group, "--mode", "single_fact", "--json"]
    child = subprocess.run([sys.executable, *args], env=env,
                           capture_output=True, text=True, timeout=600)
    seconds = round(time.perf_counter() - started, 2)
    if child.returncode != 0:
        raise TkgError(f"tkg ask failed: {child.stderr.strip()[-500:]}")
    answer = json.loads(child.stdout)
    return {"seconds": seconds, "question": q.question, "procedure": answer.get("procedure"),
            "answer_ms": (answer.get("trace") or {}).get("timings_ms", {}).get("total")}
