"""A content-hash cache of embeddings in SQLite, so re-ingest never recomputes a vector.

The key is sha256(model name, text): the same text under another model (or another
dtype, or another OpenAI dimension) is a different entry. One file serves every
process: WAL mode and a busy timeout let two ingests share it, and a lock guards the
connection inside a process. The cache is an optimisation only: if its file cannot be
opened or written, tkg logs a warning once and embeds without it.

Location: ``$TKG_CACHE_DIR/embeddings.sqlite``, else the user cache dir
(``platformdirs.user_cache_dir("tkg")``). ``TKG_EMBED_CACHE=0`` turns it off in `get_embedder`.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tkg.embed_base import Embedder, normalise_rows
from tkg.errors import EmbeddingError
from tkg.models import content_hash

log = logging.getLogger(__name__)

_SCHEMA = """CREATE TABLE IF NOT EXISTS embedding (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL
) WITHOUT ROWID"""
_BUSY_TIMEOUT_S = 30.0
_OPEN_ATTEMPTS = 10


def default_cache_path() -> Path:
    """Where the embedding cache lives unless a path is given.

    >>> default_cache_path().name
    'embeddings.sqlite'
    """
    base = os.environ.get("TKG_CACHE_DIR", "").strip()
    if not base:
        import platformdirs

        base = platformdirs.user_cache_dir("tkg")
    return Path(base).expanduser() / "embeddings.sqlite"


def cache_key(model: str, text: str) -> str:
    """sha256 of the model name and the text.

    >>> cache_key("m", "hi") == cache_key("m", "hi") != cache_key("other", "hi")
    True
    """
    return content_hash(model, text)


class EmbeddingCache:
    """key → float32 vector in one SQLite file, safe across threads and processes.

    >>> cache = EmbeddingCache("/tmp/tkg-doc.sqlite")  # doctest: +SKIP
    >>> cache.put_many("m", {"k": np.ones(3, np.float32)}); cache.get_many(["k"], 3)  # doctest: +SKIP
    {'k': array([1., 1., 1.], dtype=float32)}
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._broken = False

    def _connection(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        for attempt in range(_OPEN_ATTEMPTS):  # (re)open: first use, or a forked child
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(
                    str(self.path), timeout=_BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None
                )
                conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_TIMEOUT_S * 1000)}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute(_SCHEMA)
            except sqlite3.OperationalError as exc:
                # Two processes creating the file at once: switching a new database to WAL reports
                # "locked" without waiting on the busy timeout, so the open is tried again.
                if "locked" in str(exc) and attempt + 1 < _OPEN_ATTEMPTS:
                    time.sleep(0.05 * (attempt + 1))
                    continue
                self._disable(exc)
                return None
            except (OSError, sqlite3.Error) as exc:
                self._disable(exc)
                return None
            self._conn, self._pid = conn, os.getpid()
            return conn
        return None  # pragma: no cover - the loop always returns

    def _disable(self, exc: Exception) -> None:
        if not self._broken:
            log.warning("embedding cache %s is unusable (%s); embedding without it", self.path, exc)
        self._broken = True

    def get_many(self, keys: Iterable[str], dim: int) -> dict[str, np.ndarray]:
        """The cached vectors among `keys` (entries of another width are ignored)."""
        found: dict[str, np.ndarray] = {}
        with self._lock:
            conn = self._connection()
            if conn is None:
                return found
            try:
                for key in keys:
                    row = conn.execute("SELECT dim, vector FROM embedding WHERE key = ?", (key,)).fetchone()
                    if row is not None and row[0] == dim and len(row[1]) == dim * 4:
                        found[key] = np.frombuffer(row[1], dtype=np.float32)
            except sqlite3.Error as exc:
                self._disable(exc)
        return found

    def put_many(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        """Store vectors in one transaction; existing keys are left as they are."""
        self._write_many(
            "INSERT OR IGNORE INTO embedding (key, model, dim, vector) VALUES (?, ?, ?, ?)",
            [(key, model, int(v.shape[0]), np.ascontiguousarray(v, dtype=np.float32).tobytes())
             for key, v in vectors.items()],
        )

    def delete_many(self, keys: Iterable[str]) -> None:
        """Remove entries (absent keys are fine), in one transaction."""
        self._write_many("DELETE FROM embedding WHERE key = ?", [(key,) for key in keys])

    def _write_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """One statement over many rows in one transaction; a failing cache turns itself off."""
        if not rows:
            return
        with self._lock:
            conn = self._connection()
            if conn is None:
                return
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.executemany(sql, rows)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                self._disable(exc)

    def count(self, model: str | None = None) -> int:
        """How many vectors are cached (for one model, or in all)."""
        with self._lock:
            conn = self._connection()
            if conn is None:
                return 0
            if model is None:
                return int(conn.execute("SELECT count(*) FROM embedding").fetchone()[0])
            return int(conn.execute("SELECT count(*) FROM embedding WHERE model = ?", (model,)).fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None


class CachedEmbedder:
    """Wraps an embedder so each (model, text) is embedded once, ever.

    >>> emb = CachedEmbedder(LocalEmbedder())  # doctest: +SKIP
    >>> emb.embed(["hi", "hi"]).shape; emb.misses  # doctest: +SKIP
    (2, 384)
    1
    """

    def __init__(self, inner: Embedder, path: str | Path | None = None) -> None:
        self.inner = inner
        self.cache = EmbeddingCache(path)
        self.hits = 0
        self.misses = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        dim = self.dim
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        keys = [cache_key(self.name, t) for t in texts]
        unique = dict(zip(keys, texts, strict=True))  # key -> text, first occurrence order
        found = self.cache.get_many(unique, dim)
        missing = [k for k in unique if k not in found]
        self.hits += len(unique) - len(missing)
        self.misses += len(missing)
        if missing:
            fresh = normalise_rows(self.inner.embed([unique[k] for k in missing]))
            if fresh.shape != (len(missing), dim):
                raise EmbeddingError(
                    f"embedder {self.name} returned shape {fresh.shape} for {len(missing)} texts, "
                    f"expected ({len(missing)}, {dim})"
                )
            computed = dict(zip(missing, fresh, strict=True))
            self.cache.put_many(self.name, computed)
            found.update(computed)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def embed_one(self, text: str) -> list[float]:
        return [float(x) for x in self.embed([text])[0]]

    def load(self) -> None:
        """Load the wrapped embedder's model now (the cache may answer without it; ingest wants it warm)."""
        load = getattr(self.inner, "load", None)
        if load is not None:
            load()

    def forget(self, texts: Iterable[str]) -> None:
        """Drop these texts' vectors, so the cache cannot tell that they were ever embedded."""
        self.cache.delete_many({cache_key(self.name, t) for t in texts})

    def close(self) -> None:
        self.cache.close()


def forget_texts(embedder: Embedder, texts: Iterable[str]) -> None:
    """Drop ``texts`` from the embedder's cache, if it keeps one (``forget`` of a group)."""
    if isinstance(embedder, CachedEmbedder):
        embedder.forget(texts)
