"""graphiti-core's own hybrid search on the Neo4j graph tkg wrote, next to tkg, on the same questions.

No LLM is involved: graphiti gets our local embedder (wrapped as its ``EmbedderClient``), an LLM
client that raises if anything calls it, and a cross-encoder that raises too (the RRF recipes
never rerank with it). Returned edges are mapped to turns through their ``episodes`` uuids and
returned episodes directly, then scored like tkg's evidence (first gold turn among the first k
distinct turns). If graphiti cannot read the graph, the error is reported as it is: that is a
layout bug on our side, not something to work around here.

Example::

    >>> report = run_peers(bm, questions, known, tkg_results)  # doctest: +SKIP
    >>> report["systems"]["graphiti_edges"]["retrieval"]["hit@10"]  # doctest: +SKIP
    0.42
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from ..models import Tick
from ..stores.factory import parse_store_url
from .locomo import QuestionResult, scorable
from .metrics import RankScore, first_hit_rank, latency_summary, ratio

if TYPE_CHECKING:
    from .fresh import BenchMemory
    from .questions import LocomoQuestion

os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")
LIMIT = 10


class PeerError(RuntimeError):
    """graphiti-core failed on our graph; the message says where."""


def _clients(bm: BenchMemory) -> tuple[Any, Any, Any]:
    """graphiti's embedder (ours, wrapped), a no-LLM client and an unused cross-encoder."""
    from graphiti_core.cross_encoder.client import CrossEncoderClient
    from graphiti_core.embedder.client import EmbedderClient
    from graphiti_core.llm_client.client import LLMClient

    embedder = bm.mem.ctx.embedder

    class LocalEmbedderClient(EmbedderClient):
        async def create(self, input_data: Any) -> list[float]:
            text = input_data if isinstance(input_data, str) else " ".join(map(str, input_data))
            return embedder.embed_one(text)

        async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
            return [[float(x) for x in row] for row in embedder.embed(input_data_list)]

    class NoLLM(LLMClient):
        async def _generate_response(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            raise PeerError("graphiti tried to call an LLM during search; the benchmark allows none")

    class NoCrossEncoder(CrossEncoderClient):
        async def rank(self, query: str, passages: list[str]) -> list[tuple[str, float]]:
            raise PeerError("graphiti tried to rerank with a cross-encoder; the RRF recipes should not")

    return LocalEmbedderClient(), NoLLM(None), NoCrossEncoder()


def require_server(bm: BenchMemory) -> str:
    """The benchmark store's server address; an embedded store is refused (graphiti-core reads a Neo4j
    server)."""
    uri = bm.mem.ctx.store.server_uri
    if uri is None:
        raise ConfigError(
            "the peers benchmark needs a Neo4j store (graphiti-core does not read tkg's Kuzu layout); "
            "pass --store bolt://HOST:PORT"
        )
    return str(uri)


def open_graphiti(bm: BenchMemory) -> Any:
    """A Graphiti instance on the same Neo4j server and database as the benchmark store."""
    uri = require_server(bm)
    from graphiti_core import Graphiti
    from graphiti_core.driver.neo4j_driver import Neo4jDriver

    spec = parse_store_url(bm.raw_url)
    driver = Neo4jDriver(uri, spec.user, spec.password, database=spec.database or "neo4j")
    embedder, llm, cross = _clients(bm)
    return Graphiti(graph_driver=driver, llm_client=llm, embedder=embedder, cross_encoder=cross)


def _turns(bm: BenchMemory, group: str, uuids: Iterable[str]) -> dict[str, str | None]:
    ids = list(dict.fromkeys(uuids))
    if not ids:
        return {}
    return {
        r["uuid"]: r["source_ref"]
        for r in bm.mem.ctx.store.named("episode.source_refs", {"group_id": group, "uuids": ids})
    }


def _edge_turns(edges: list[Any]) -> list[str]:
    return [u for e in edges for u in (e.episodes or [])]


def _interleave(a: list[str], b: list[str]) -> list[str]:
    out: list[str] = []
    for i in range(max(len(a), len(b))):
        out.extend(x[i] for x in (a, b) if i < len(x))
    return out


def run_peers(
    bm: BenchMemory, questions: list[LocomoQuestion], known: dict[str, set[str]], tkg: list[QuestionResult],
    tick: Tick | None = None,
) -> dict[str, Any]:
    """graphiti's EDGE_HYBRID_SEARCH_RRF and COMBINED_HYBRID_SEARCH_RRF against tkg's own results."""
    from graphiti_core.search.search_config_recipes import COMBINED_HYBRID_SEARCH_RRF, EDGE_HYBRID_SEARCH_RRF

    graphiti = open_graphiti(bm)
    configs = {"graphiti_edges": EDGE_HYBRID_SEARCH_RRF.model_copy(update={"limit": LIMIT}),
               "graphiti_combined": COMBINED_HYBRID_SEARCH_RRF.model_copy(update={"limit": LIMIT})}
    scores = {name: RankScore() for name in ("tkg", *configs)}
    ms: dict[str, list[float]] = {name: [] for name in scores}
    loop = asyncio.new_event_loop()
    try:
        for q, mine in zip(questions, tkg, strict=True):
            ok = scorable(mine, known)
            gold = {e for e in q.evidence if e in known.get(q.group, set())}
            ms["tkg"].append(mine.ms)
            if ok:
                scores["tkg"].add(mine.rank)
            for name, config in configs.items():
                started = time.perf_counter()
                try:
                    res = loop.run_until_complete(
                        graphiti.search_(q.question, config=config, group_ids=[q.group])
                    )
                except PeerError:
                    raise
                except Exception as exc:  # report exactly what graphiti could not read
                    raise PeerError(
                        f"graphiti-core {name} failed on the tkg graph: {type(exc).__name__}: {exc}"
                    ) from exc
                ms[name].append((time.perf_counter() - started) * 1000)
                uuids = _edge_turns(res.edges)
                if name == "graphiti_combined":
                    uuids = _interleave(uuids, [e.uuid for e in res.episodes])
                refs = _turns(bm, q.group, uuids)
                if ok:
                    scores[name].add(first_hit_rank([refs.get(u) for u in uuids], gold))
            if tick:
                tick(1)
    finally:
        loop.run_until_complete(graphiti.close())
        loop.close()
    base = scores["tkg"].summary()
    base_lat = latency_summary(ms["tkg"])
    systems: dict[str, Any] = {}
    for name, s in scores.items():
        summary, lat = s.summary(), latency_summary(ms[name])
        systems[name] = {"retrieval": summary, "latency_ms": lat}
        if name != "tkg":
            systems[name]["ratio_to_tkg"] = {
                k: ratio(summary[k], base[k]) for k in ("hit@1", "hit@5", "hit@10", "mrr")
            } | {"p50": ratio(lat["p50"], base_lat["p50"]), "p95": ratio(lat["p95"], base_lat["p95"])}
    return {
        "benchmark": "peers",
        "store": bm.url,
        "limit": LIMIT,
        "systems": systems,
        "notes": [
            "graphiti results are edges (mapped to turns by their episodes) and, for the combined recipe, "
            "episodes found by BM25 interleaved with them; nodes are not turns and are not scored"
        ],
    }
