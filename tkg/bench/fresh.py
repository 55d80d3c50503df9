"""Benchmark stores: a fresh one per run, warm models, and what the store holds afterwards.

Numbers are only comparable when every run starts from the same place: an empty store (so no
earlier groups crowd the shared indexes), the embedding model already loaded (so the first
question does not pay for it) and, by default, no embedding cache (so ingest speed is the
model's, not a disk cache's).

Example::

    >>> with bench_memory(None) as bm:  # doctest: +SKIP
    ...     bm.mem.ingest("examples/priya_marco.json")
    ...     bm.size()["bytes"] > 0
    True
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..embed import get_embedder
from ..errors import InputError
from ..memory import Memory
from ..stores.factory import parse_store_url


class TimedEmbedder:
    """An embedder that counts the seconds spent embedding, so reports can say what dominates."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.texts = 0

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def dim(self) -> int:
        return int(self.inner.dim)

    def embed(self, texts: Sequence[str]) -> Any:
        started = time.perf_counter()
        try:
            return self.inner.embed(texts)
        finally:
            self.seconds += time.perf_counter() - started
            self.texts += len(texts)

    def embed_one(self, text: str) -> list[float]:
        started = time.perf_counter()
        try:
            return list(self.inner.embed_one(text))
        finally:
            self.seconds += time.perf_counter() - started
            self.texts += 1

    def load(self) -> None:
        """Load the wrapped model now (not counted as embedding time)."""
        load = getattr(self.inner, "load", None)
        if load is not None:
            load()

    def lap(self) -> dict[str, float]:
        """Seconds and texts since the last lap (and start a new one)."""
        out = {"embed_s": round(self.seconds, 2), "texts": self.texts}
        self.seconds, self.texts = 0.0, 0
        return out


@dataclass
class BenchMemory:
    """An open Memory on a benchmark store, with what we learned while opening it."""

    mem: Any  # tkg.memory.Memory (typed loosely so importing this module stays cheap)
    embedder: TimedEmbedder
    url: str  # redacted
    backend: str  # the store's dialect, for the report
    path: Path | None  # the Kuzu database path
    model_load_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    raw_url: str = field(default="", repr=False)  # may hold a password: never print it

    def size(self) -> dict[str, Any]:
        """Bytes on disk for Kuzu; node and edge counts on both (Neo4j has no size call without APOC)."""
        store = self.mem.ctx.store
        nodes = store.named("store.node_count")[0]["n"]
        edges = store.named("store.edge_count")[0]["n"]
        out: dict[str, Any] = {"nodes": int(nodes), "edges": int(edges), "bytes": None}
        if self.path is not None:
            out["bytes"] = disk_bytes(self.path)
        return out

    @property
    def shared(self) -> bool:
        """The store is a server other runs share: a run deletes the groups it writes."""
        return bool(self.mem.ctx.store.shared)

    def forget_groups(self, groups: Iterable[str]) -> list[str]:
        """Delete groups a previous run left behind (Neo4j servers outlive runs); returns those deleted."""
        gone = []
        for g in groups:
            counts = self.mem.counts(g)
            if counts.get("episodes") or counts.get("entities"):
                self.mem.forget(g)
                gone.append(g)
        return gone


def disk_bytes(path: Path) -> int:
    """Total size of a Kuzu database: the path itself (file or directory) and its ``.wal`` etc. siblings."""
    total = 0
    for p in [path, *path.parent.glob(path.name + ".*")]:
        if p.is_file():
            total += p.stat().st_size
        elif p.is_dir():
            total += sum(f.stat().st_size for f in p.rglob("*") if f.is_file())
    return total


@contextmanager
def bench_memory(url: str | None, *, embed_cache: bool = False, keep: bool = False,
                 llm: Any = None) -> Iterator[BenchMemory]:
    """Open a benchmark Memory: ``url`` (Kuzu path must not exist yet) or a temporary Kuzu database.

    A temporary database is deleted afterwards unless ``keep``. ``llm`` as in ``Memory.open``. On Neo4j the
    server is used as is;
    the caller deletes its own groups first (:meth:`BenchMemory.forget_groups`) and the run notes
    how many other episodes share the indexes.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    tmp: Path | None = None
    if url is None:
        tmp = Path(tempfile.mkdtemp(prefix="tkg-bench-"))
        url = f"kuzu://{tmp}/bench.kuzu"
    spec = parse_store_url(url)
    path = spec.path
    if path is not None and tmp is None and path.exists():
        raise InputError(f"{path} already exists; a benchmark needs a fresh store (give a new path)")
    embedder = TimedEmbedder(get_embedder(None, cache=embed_cache))
    started = time.perf_counter()
    embedder.embed(["warm-up: load the model before anything is timed"])
    load_s = time.perf_counter() - started
    embedder.lap()
    mem = Memory.open(
        url, embedder=embedder, llm=llm
    )  # llm: the model stages (tkg/llm/spec.py); None: TKG_LLM…
    bm = BenchMemory(mem, embedder, mem.url, mem.ctx.store.dialect, path, round(load_s, 2), raw_url=url)
    try:
        yield bm
    finally:
        mem.close()
        if tmp is not None and not keep:
            shutil.rmtree(tmp, ignore_errors=True)


def other_episodes(bm: BenchMemory, groups: Iterable[str]) -> int:
    """Episodes of groups other than ``groups`` in the store: they share (and slow) the indexes."""
    mine = set(groups)
    return sum(int(g.get("episodes") or 0) for g in bm.mem.groups() if g.get("group_id") not in mine)


def machine() -> dict[str, Any]:
    """Where and when a run happened, for the report header (``peak_rss_mb``: this process so far)."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                ram_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    torch = sys.modules.get("torch")  # only if the embedder loaded it: never import it just to ask
    return {"cpus": os.cpu_count(), "cpu": cpu, "ram_gb": ram_gb, "python": platform.python_version(),
            "load_avg": [round(x, 2) for x in load] if load else None, "peak_rss_mb": _peak_rss_mb(),
            "torch_threads": torch.get_num_threads() if torch is not None else None, "code": code_version(),
            "at": datetime.now(UTC).isoformat(timespec="seconds")}


def finished() -> dict[str, Any]:
    """When a run ended and the process's peak memory by then (the model, the store, the run)."""
    return {"finished_at": datetime.now(UTC).isoformat(timespec="seconds"), "peak_rss_mb": _peak_rss_mb()}


def _peak_rss_mb() -> float | None:
    try:
        import resource  # POSIX only
    except ImportError:
        return None
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux


def code_version() -> dict[str, Any] | None:
    """The git commit the code came from and how many files differ from it (None outside a checkout)."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5, check=True).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": head, "modified_files": len(dirty)}
