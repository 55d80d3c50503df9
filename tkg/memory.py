"""The public API: open a store, ingest conversations, ask questions, read fact histories.

Example::

    >>> from tkg import Memory
    >>> with Memory.open("kuzu:///tmp/tkg-doc.kuzu") as mem:  # doctest: +SKIP
    ...     mem.ingest("examples/priya_marco.json")
    ...     mem.state("Priya", "lives_in", group="priya-marco")[0].object
    'Lisbon'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from .embed import Embedder, get_embedder
from .errors import ConfigError, NotFound
from .group_cache import GroupCache, read_entities, read_speakers
from .group_cache import stamp as group_stamp
from .ingest.loaders import load
from .ingest.pipeline import Ingestor, IngestReport
from .ingest.reembed import check_model, recorded_model, reembed_group
from .ingest.resolve import EntityIndex
from .llm import LLMProvider, get_provider
from .models import MODES, Answer, EpisodeInput, Fact, as_utc
from .predicates import PredicateRegistry
from .stores import GraphStore, open_store

os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")


@dataclass
class Context:
    """Everything a procedure may read: the store and the tools around it (never the backend type)."""

    store: GraphStore
    embedder: Embedder
    registry: PredicateRegistry
    llm: LLMProvider | None
    payloads_path: Path | None = None
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


class Memory:
    """tkg's memory over one store. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._ingestor = Ingestor(ctx.store, ctx.embedder, ctx.registry, cache=ctx.cache)
        self._model_checked: set[str] = set()  # groups whose recorded embedding model matched here

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        embedder: Embedder | str | None = None,
        predicates: Path | None = None,
        payloads: Path | None = None,
        llm: LLMProvider | str | None = None,
    ) -> Memory:
        """Open (and initialise, idempotently) the store at ``url`` (default: embedded Kuzu)."""
        emb = embedder if embedder is not None and not isinstance(embedder, str) else get_embedder(embedder)
        provider = llm if llm is not None and not isinstance(llm, str) else get_provider(llm)
        registry = PredicateRegistry.load(predicates or _env_path("TKG_PREDICATES"))
        store = open_store(url)
        try:
            store.ensure_schema(emb.dim)
        except BaseException:
            store.close()
            raise
        return cls(Context(store, emb, registry, provider, payloads or _env_path("TKG_PAYLOADS")))

    # -- writing ------------------------------------------------------------------------------
    def ingest(
        self,
        path: str | Path,
        format: str | None = None,
        group: str | None = None,
        progress: Callable[[int], None] | None = None,
        bulk: bool | None = None,
    ) -> IngestReport:
        """Ingest a LoCoMo-shaped ``.json`` or a ``.jsonl`` file; validated whole before any write.

        ``bulk`` as in :meth:`ingest_episodes`.
        """
        loaded = load(Path(path), format=format, group=group)
        report = self.ingest_episodes(loaded.episodes, progress=progress, bulk=bulk)
        report.skipped_empty += len(loaded.skipped)
        report.warnings.extend(loaded.skipped)
        return report

    def ingest_episodes(
        self,
        episodes: Iterable[EpisodeInput],
        progress: Callable[[int], None] | None = None,
        bulk: bool | None = None,
    ) -> IngestReport:
        """Ingest episodes already in memory (whole episodes per transaction; idempotent).

        ``bulk=True`` loads with the store's indexes built once at the end (much faster on Kuzu;
        other threads' searches wait meanwhile); ``None`` chooses it for a first load of at least
        500 episodes into a store with no episodes; ``False`` never (see ``Ingestor.ingest``).
        """
        episodes = list(episodes)
        for group in dict.fromkeys(ep.group for ep in episodes):
            check_model(self.ctx.store, self.ctx.embedder, group, record=True)  # before anything is written
            self._model_checked.add(group)
        return self._ingestor.ingest(episodes, progress=progress, bulk=bulk)

    def embedding_model(self, group: str) -> str | None:
        """The embedding model recorded for ``group`` (None: a group written before tkg recorded it)."""
        return recorded_model(self.ctx.store, group)

    def reembed(self, group: str | None = None) -> list[dict[str, Any]]:
        """Re-embed one group (or every group) with this memory's embedder, one transaction each:
        chunks, fact sentences and entity names; then the group records the new model."""
        names = [group] if group else [str(r["group_id"]) for r in self.groups()]
        done = []
        for name in names:
            counts = self.ctx.store.named("group.counts", {"group_id": name})[0]
            if not counts["episodes"] and not counts["entities"]:
                raise NotFound(f"no group named {name!r} in {self.ctx.store.url}")
            done.append(reembed_group(self.ctx.store, self.ctx.embedder, name))
            self._ingestor.forget_group(name)
            self.ctx.cache.forget(name)
            self._model_checked.add(name)
        return done

    def forget(self, group: str) -> dict[str, Any]:
        """Delete a group completely; returns what it held."""
        counts = self.ctx.store.named("group.counts", {"group_id": group})[0]
        if not counts["episodes"] and not counts["entities"]:
            raise NotFound(f"no group named {group!r} in {self.ctx.store.url}")
        with self.ctx.store.transaction() as tx:
            tx.named("group.delete", {"group_id": group})
        self._ingestor.forget_group(group)
        self.ctx.cache.forget(group)
        return {"group": group, **counts}

    # -- reading ------------------------------------------------------------------------------
    def ask(self, question: str, group: str, mode: str | None = None, as_of: datetime | None = None) -> Answer:
        """Answer a question from one group's memory, with evidence and the routing trace."""
        if mode is not None and mode not in MODES:
            raise ConfigError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        from procedures.answer import answer_question

        if group not in self._model_checked:
            check_model(self.ctx.store, self.ctx.embedder, group, record=False)
            self._model_checked.add(group)
        return answer_question(self.ctx, question, group=group, mode=mode, as_of=as_utc(as_of))

    def state(
        self, subject: str, predicate: str | None = None, group: str = "", as_of: datetime | None = None
    ) -> list[Fact]:
        """What is true of ``subject`` now (or at ``as_of``), one fact per slot."""
        uuids = self._subject_uuids(subject, group)
        params = {"group_id": group, "subject_uuids": uuids, "predicate": self._predicate(predicate)}
        if as_of is None:
            rows = self.ctx.store.named("fact.state_current", params)
        else:
            rows = self.ctx.store.named("fact.state_as_of", {**params, "as_of": as_utc(as_of)})
        return [row_to_fact(r, group) for r in rows]

    def history(self, subject: str, predicate: str | None = None, group: str = "") -> list[Fact]:
        """Every version of ``subject``'s facts, in valid-time order within each slot."""
        uuids = self._subject_uuids(subject, group)
        rows = self.ctx.store.named(
            "fact.history", {"group_id": group, "subject_uuids": uuids, "predicate": self._predicate(predicate)}
        )
        return [row_to_fact(r, group) for r in rows]

    def cypher(self, query: str, params: dict[str, Any] | None = None, write: bool = False) -> list[dict[str, Any]]:
        """Run Cypher for exploration; read-only unless ``write=True``. Parameters stay parameters."""
        if write:
            try:
                return self.ctx.store.run(query, params)
            finally:
                self.ctx.cache.forget()  # a raw write sets no group stamp
        return self.ctx.store.read(query, params)

    def groups(self) -> list[dict[str, Any]]:
        return self.ctx.store.named("group.list", {})

    def counts(self, group: str) -> dict[str, Any]:
        return self.ctx.store.named("group.counts", {"group_id": group})[0]

    # -- helpers ------------------------------------------------------------------------------
    def _subject_uuids(self, subject: str, group: str) -> list[str]:
        if not group:
            raise ConfigError("a group is required (every query is scoped to one group)")
        found = self.ctx.entities(group).find(subject, "person")
        if found is None:
            raise NotFound(f"no entity named {subject!r} in group {group!r}")
        return [found.uuid]

    def _predicate(self, predicate: str | None) -> str:
        if predicate in (None, ""):
            return ""
        if predicate not in self.ctx.registry.names():
            raise ConfigError(f"unknown predicate {predicate!r}; known: {', '.join(self.ctx.registry.names())}")
        return predicate

    def close(self) -> None:
        self.ctx.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def row_to_fact(r: dict[str, Any], group: str) -> Fact:
    episodes: Sequence[str] = r.get("episodes") or []
    return Fact(
        uuid=r["uuid"], group_id=group, subject=r["subject"], predicate=r["predicate"], object=r["object"],
        fact=r.get("fact") or "", valid_at=r.get("valid_at"), invalid_at=r.get("invalid_at"),
        created_at=r.get("created_at"), expired_at=r.get("expired_at"), version=r.get("version") or 1,
        confidence=r.get("confidence") or 0.0, qualifier=r.get("qualifier") or "", episodes=list(episodes),
        source_ref=r.get("source_ref"), source_chunk=r.get("source_chunk"), supersedes=r.get("supersedes"),
        subject_uuid=r.get("subject_uuid"), object_uuid=r.get("object_uuid"), time_text=r.get("time_text"),
    )


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None
