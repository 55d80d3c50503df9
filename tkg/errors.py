"""One exception hierarchy for everything tkg raises.

Adapters translate driver exceptions (neo4j, kuzu, openai, ...) into these so
callers never import a backend's error types. Messages are written for the
person who has to act on them: what failed, where, and what to try.
"""

from __future__ import annotations


class TkgError(Exception):
    """Base class of every error tkg raises on purpose."""


class ConfigError(TkgError):
    """Bad configuration: an unparseable store URL, an unknown mode, a bad TOML file."""


class StoreError(TkgError):
    """The graph store failed while running a query."""


class StoreUnavailable(StoreError):
    """The store cannot be reached or opened (server down, database locked by another process)."""


class SchemaError(StoreError):
    """The schema could not be applied, or the database does not match what tkg expects."""


class ReadOnlyViolation(StoreError):
    """A write was attempted through a read-only path (e.g. `tkg cypher` without --write)."""


class InputError(TkgError):
    """Bad input: a malformed file, a missing field, an invalid date. Nothing was written.

    `source` names the file, `position` the record or line, so the user can find it.
    """

    def __init__(self, reason: str, *, source: str | None = None, position: str | None = None) -> None:
        self.reason = reason
        self.source = source
        self.position = position
        where = ", ".join(p for p in (source, position) if p)
        super().__init__(f"{where}: {reason}" if where else reason)


class EmbeddingError(TkgError):
    """The embedder is unavailable, or its dimension does not match the store's index."""


class ProviderError(TkgError):
    """An optional LLM provider (OpenAI, Anthropic) failed or returned something unusable."""


class NotFound(TkgError):
    """A group, entity or query name that the caller named does not exist."""
