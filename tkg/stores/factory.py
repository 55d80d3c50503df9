"""Open a store from a URL.

``kuzu:///abs/path/db.kuzu`` or a bare path → embedded Kuzu; ``bolt://host:port`` or
``neo4j://host:port`` (``+s``/``+ssc`` variants too) → Neo4j, with credentials from the URL or
``TKG_NEO4J_USER``/``TKG_NEO4J_PASSWORD`` and the database from ``?database=``. With nothing
given, ``TKG_STORE`` or an embedded database in the user's data directory.

Example::

    >>> parse_store_url("bolt://neo4j:secret@127.0.0.1:7687?database=tkg").redacted
    'bolt://neo4j:***@127.0.0.1:7687?database=tkg'
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from platformdirs import user_data_dir

from ..errors import ConfigError
from .base import GraphStore

_BOLT = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


@dataclass(frozen=True)
class StoreURL:
    backend: str  # "kuzu" | "neo4j"
    target: str  # a path for Kuzu, a driver URI (no credentials) for Neo4j
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    database: str | None = None

    @property
    def path(self) -> Path | None:
        """The database path of an embedded store; None for a server.

        >>> parse_store_url("kuzu:///tmp/x.kuzu").path
        PosixPath('/tmp/x.kuzu')
        >>> parse_store_url("bolt://127.0.0.1:7687").path is None
        True
        """
        return Path(self.target) if self.backend == "kuzu" else None

    @property
    def redacted(self) -> str:
        if self.backend == "kuzu":
            return f"kuzu://{self.target}"
        scheme, rest = self.target.split("://", 1)
        cred = f"{self.user}:***@" if self.password else (f"{self.user}@" if self.user else "")
        return f"{scheme}://{cred}{rest}" + (f"?database={self.database}" if self.database else "")


def default_store_url() -> str:
    return os.environ.get("TKG_STORE") or str(Path(user_data_dir("tkg")) / "tkg.kuzu")


def parse_store_url(url: str | None) -> StoreURL:
    """Parse a store URL (see module docstring); raises ConfigError with the reason."""
    raw = (url or default_store_url()).strip()
    if not raw:
        raise ConfigError("empty store URL")
    if "://" not in raw:
        return StoreURL("kuzu", str(Path(raw).expanduser().resolve()))
    parts = urlsplit(raw)
    scheme = parts.scheme.lower()
    if scheme == "kuzu":
        return StoreURL("kuzu", _kuzu_path(raw))
    if "#" in raw:
        raise ConfigError(f"store URL {_safe(raw)!r} has a '#': percent-encode it in a password (%23)")
    if scheme in _BOLT:
        if not parts.hostname:
            raise ConfigError(f"Neo4j URL {_safe(raw)!r} has no host")
        try:
            port = parts.port or 7687
        except ValueError as exc:
            raise ConfigError(f"Neo4j URL {_safe(raw)!r} has a bad port") from exc
        query = parse_qs(parts.query)
        unknown = set(query) - {"database"}
        if unknown:
            raise ConfigError(f"unknown store URL option(s): {', '.join(sorted(unknown))}")
        host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
        return StoreURL(
            "neo4j",
            f"{scheme}://{host}:{port}",
            user=unquote(parts.username) if parts.username else os.environ.get("TKG_NEO4J_USER"),
            password=unquote(parts.password) if parts.password else os.environ.get("TKG_NEO4J_PASSWORD"),
            database=query["database"][0] if "database" in query else None,
        )
    raise ConfigError(f"unknown store scheme {scheme!r}; use kuzu:///path, a path, bolt:// or neo4j://")


def open_store(url: str | None = None) -> GraphStore:
    """Open (but do not initialise) the store a URL names."""
    spec = parse_store_url(url)
    if spec.backend == "kuzu":
        from .kuzu_store import KuzuStore

        return KuzuStore(spec.target)
    from .neo4j_store import Neo4jStore

    store = Neo4jStore(spec.target, user=spec.user, password=spec.password, database=spec.database)
    store.url = spec.redacted
    return store


def _kuzu_path(raw: str) -> str:
    """The absolute path of ``kuzu:///abs/path``; every other form is refused, never guessed.

    ``kuzu://tmp/x.kuzu`` (a host where the path should start) and ``kuzu://u:pw@/x`` (credentials
    an embedded store has no use for) would otherwise name a folder nobody meant; ``?`` and ``#``
    would cut the path short.
    """
    if not raw[len("kuzu://"):]:
        raise ConfigError(f"kuzu URL {raw!r} has no path; use kuzu:///abs/path/db.kuzu")
    parts = urlsplit(raw)
    if parts.netloc:
        raise ConfigError(
            f"kuzu URL {_safe(raw)!r} names a host or credentials "
            f"({'credentials' if '@' in parts.netloc else parts.netloc!r}); "
            "an embedded store takes an absolute path: kuzu:///abs/path/db.kuzu (three slashes), or a plain "
            "path"
        )
    if parts.query or parts.fragment or "?" in raw or "#" in raw:
        raise ConfigError(
            f"kuzu URL {raw!r} has a '?' or '#'; give the path without kuzu:// (a plain path) instead"
        )
    path = unquote(parts.path)
    if not path.startswith("/"):
        raise ConfigError(f"kuzu URL {raw!r} must hold an absolute path: kuzu:///abs/path/db.kuzu")
    return str(Path(path).resolve())


def _safe(raw: str) -> str:
    """``raw`` with everything between ``://`` and the last ``@`` hidden: a password holding an
    unencoded ``#``, ``?`` or ``/`` is not where urlsplit looks for it."""
    scheme, sep, rest = raw.partition("://")
    if sep and "@" in rest:
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
    return raw
