"""What a procedure may read: the store and the tools around it, never the backend type.

`Memory` builds one `Context`; `Memory.ask` hands a per-question copy (`asking`) to the router's
procedure, so the entity list, a query's embedding and a retrieval are computed once per question.
Procedures and planners import this module, not the public API in `tkg/memory.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .embed import Embedder
from .entities import EntityIndex, read_entities
from .group_cache import GroupCache, read_speakers
from .group_cache import stamp as group_stamp
from .llm import LLMProvider, Stages
from .predicates import PredicateRegistry
from .stores import GraphStore


@dataclass
class Context:
    """Everything a procedure may read: the store and the tools around it (never the backend type)."""

    store: GraphStore
    embedder: Embedder
    registry: PredicateRegistry
    llm: LLMProvider | None  # a provider object that phrases offline answers (procedures/synthesis.py)
    payloads_path: Path | None = None
    models: Stages = field(default_factory=Stages)  # the model of each stage (tkg/llm/spec.py); none offline
    memo: dict[tuple[str, str], Any] | None = field(default=None, compare=False, repr=False)
    # shared by every per-question copy (`asking`): lists kept while the group's stamp stays
    cache: GroupCache = field(default_factory=GroupCache, compare=False, repr=False)

    def entities(self, group: str) -> EntityIndex:
        """The group's entities, kept while its stamp stays (tkg/group_cache.py); the stamp is read
        once per question when the context carries a memo (`asking`)."""
        return self.once(("entities", group), lambda: self.cache.get(
            group, "entities", self.stamp(group), lambda: read_entities(self.store, group)))

    def speakers(self, group: str) -> dict[str, int]:
        """Who speaks in the group and how many turns each; kept like `entities`."""
        return self.once(("speakers", group), lambda: self.cache.get(
            group, "speakers", self.stamp(group), lambda: read_speakers(self.store, group)))

    def stamp(self, group: str) -> str | None:
        """The group's write stamp, read once per question with a memo."""
        return self.once(("stamp", group), lambda: group_stamp(self.store, group))

    def embed_query(self, text: str) -> Any:
        """The embedding of a query text; computed once per question when the context carries a memo."""
        return self.once(("embedding", text), lambda: self.embedder.embed_one(text))

    def asking(self) -> Context:
        """A copy for one question, so the entity list, a query's embedding and a retrieval are
        computed once, not by every step (a chain's fallbacks and the evidence backfill retrieve
        for the same question up to three times)."""
        return replace(self, memo={})

    def once(self, key: tuple[str, str], make: Callable[[], Any]) -> Any:
        """``make()`` once per question for ``key`` (every time when the context carries no memo)."""
        if self.memo is None:
            return make()
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]
