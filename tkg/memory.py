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
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planners.payloads import default_payloads, load_payloads
from procedures import group_vectors
from procedures.answer import answer_question
from procedures.model_answer import route_mode
from procedures.result import evidence_from_hits
from procedures.retrieval import retrieve

from .context import Context
from .embed import Embedder, get_embedder
from .embed_cache import forget_texts
from .errors import ConfigError, NotFound
from .ingest.loaders import load, load_records
from .ingest.reembed import check_model, recorded_model, reembed_group
from .llm import LLMProvider, LLMSpec, Stages, UsageLog, load_prices, summarize
from .models import MODES, Answer, EpisodeInput, Evidence, Fact, as_utc, group_name
from .predicates import PredicateRegistry
from .stores import open_store
from .stores.read_guard import check_one_statement

if TYPE_CHECKING:
    from .ingest.pipeline import Ingestor
    from .ingest.write import IngestReport

os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")


class Memory:
    """tkg's memory over one store. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._ingestor: Ingestor | None = None  # made at the first ingest (see `_writer`)
        self._ingestor_lock = threading.Lock()
        self._model_checked: set[str] = set()  # groups whose recorded embedding model matched here

    def _writer(self) -> Ingestor:
        """The ingest pipeline, made on first use: a memory that only answers questions never
        imports the extraction and ingest modules, which a cold `tkg ask` would otherwise pay for."""
        with self._ingestor_lock:
            if self._ingestor is None:
                from .ingest.model_extract import ModelExtractor
                from .ingest.pipeline import Ingestor

                ctx, extract = self.ctx, self.ctx.models.get("extract")
                model = ModelExtractor(extract, ctx.registry, ctx.store) if extract is not None else None
                self._ingestor = Ingestor(ctx.store, ctx.embedder, ctx.registry, cache=ctx.cache, model=model)
            return self._ingestor

    def _forget_written(self, group: str) -> None:
        """Drop what the ingest pipeline keeps of ``group`` (nothing when it was never made)."""
        if self._ingestor is not None:
            self._ingestor.forget_group(group)

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        embedder: Embedder | str | None = None,
        predicates: Path | None = None,
        payloads: Path | None = None,
        llm: LLMProvider | LLMSpec = None,
    ) -> Memory:
        """Open (and initialise, idempotently) the store at ``url`` (default: embedded Kuzu).

        ``llm``: a spec for every stage (``"openai:gpt-4o-mini"``, ``"replay:DIR"``…), a mapping
        per stage (``{"extract": "anthropic:claude-haiku-4-5"}``), or None for the environment
        (``TKG_LLM``, ``TKG_LLM_EXTRACT``…; unset: offline). See tkg/llm/spec.py.
        """
        emb = embedder if embedder is not None and not isinstance(embedder, str) else get_embedder(embedder)
        provider = llm if isinstance(llm, LLMProvider) else None
        models = Stages() if provider is not None else Stages.build(llm)  # type: ignore[arg-type]
        registry = PredicateRegistry.load(predicates or _env_path("TKG_PREDICATES"))
        store = open_store(url)
        try:
            store.ensure_schema(emb.dim)
        except BaseException:
            store.close()
            raise
        return cls(
            Context(store, emb, registry, provider, payloads or _env_path("TKG_PAYLOADS"), models=models)
        )

    # -- writing ------------------------------------------------------------------------------
    def ingest(
        self,
        path: str | Path,
        format: str | None = None,
        group: str | None = None,
        progress: Callable[[int], None] | None = None,
        bulk: bool | None = None,
        limit: int | None = None,
    ) -> IngestReport:
        """Ingest a LoCoMo-shaped ``.json`` or a ``.jsonl`` file; validated whole before any write.

        ``bulk`` as in :meth:`ingest_episodes`; ``limit``: only the file's first ``limit`` turns.
        Ctrl-C raises ``IngestInterrupted``, whose ``report`` counts the episodes committed (kept).
        """
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ConfigError(f"limit must be a whole number of turns >= 1, not {limit!r}")
        loaded = load(Path(path), format=format, group=None if group is None else group_name(group))
        report = self.ingest_episodes(loaded.episodes[:limit], progress=progress, bulk=bulk)
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
        episodes = [_checked(ep) for ep in episodes]
        for group in dict.fromkeys(ep.group for ep in episodes):
            check_model(self.ctx.store, self.ctx.embedder, group, record=True)  # before anything is written
            self._model_checked.add(group)
        report = self._writer().ingest(episodes, progress=progress, bulk=bulk)
        self._index_large_groups(report)
        return report

    def _index_large_groups(self, report: IngestReport) -> None:
        """Build the store's vector index once a written group holds more vectors than questions
        score in memory (`procedures.group_vectors.EXACT_MAX`): here rather than at that group's
        first question. Smaller groups never read it, so a store of small groups goes without."""
        store = self.ctx.store
        if not report.episodes or store.vector_index_ready():
            return
        for group in report.groups:
            counts = store.named("group.counts", {"group_id": group})[0]
            if int(counts["chunks"] or 0) + int(counts["facts"] or 0) > group_vectors.EXACT_MAX:
                started = time.perf_counter()
                store.build_vector_index()
                spent = time.perf_counter() - started
                report.index_build_s = round(report.index_build_s + spent, 3)
                report.seconds = round(report.seconds + spent, 3)
                return

    def ingest_records(
        self, records: Iterable[dict[str, Any]], group: str | None = None, bulk: bool | None = None
    ) -> IngestReport:
        """Ingest episodes given as dicts of the JSONL line format (``speaker``, ``text``, ``timestamp``
        ISO 8601, optional ``source_ref``, ``listeners``, ...), for callers without a file such as
        `tkg serve mcp`. Validated whole before any write (`load_records`); idempotent like `ingest`."""
        return self.ingest_episodes(load_records(records, group=group).episodes, bulk=bulk)

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
            self._forget_written(name)
            self.ctx.cache.forget(name)
            self._model_checked.add(name)
        return done

    def forget(self, group: str) -> dict[str, Any]:
        """Delete a group completely, and its texts from the embedding cache; returns what it held."""
        group = group_name(group)
        counts = self.ctx.store.named("group.counts", {"group_id": group})[0]
        if not counts["episodes"] and not counts["entities"]:
            raise NotFound(f"no group named {group!r} in {self.ctx.store.url}")
        texts = {r["text"] for r in self.ctx.store.named("group.texts", {"group_id": group}) if r["text"]}
        with self.ctx.store.transaction() as tx:
            tx.named("group.delete", {"group_id": group})
        self._forget_written(group)
        self.ctx.cache.forget(group)
        forget_texts(self.ctx.embedder, texts)
        return {"group": group, **counts}

    # -- reading ------------------------------------------------------------------------------
    def ask(
        self, question: str, group: str, mode: str | None = None, as_of: datetime | None = None
    ) -> Answer:
        """Answer a question from one group's memory, with evidence and the routing trace."""
        group = group_name(group)
        if mode is not None and mode not in MODES:
            raise ConfigError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        if group not in self._model_checked:
            check_model(self.ctx.store, self.ctx.embedder, group, record=False)
            self._model_checked.add(group)
        log = UsageLog()
        routed: dict[str, Any] = {}
        if mode is None:
            mode, routed = route_mode(self.ctx, question, log)
        ans = answer_question(self.ctx, question, group=group, mode=mode, as_of=as_utc(as_of))
        if routed:
            ans.trace.setdefault("model", {})["route"] = routed
        if log:
            ans.trace["usage"] = [*log.rows(), *ans.trace.get("usage", [])]
        return ans

    def state(
        self, subject: str, predicate: str | None = None, group: str = "", as_of: datetime | None = None
    ) -> list[Fact]:
        """What is true of ``subject`` now (or at ``as_of``), one fact per slot."""
        group = self._group(group)
        uuids = self._subject_uuids(subject, group)
        params = {"group_id": group, "subject_uuids": uuids, "predicate": self._predicate(predicate)}
        if as_of is None:
            rows = self.ctx.store.named("fact.state_current", params)
        else:
            rows = self.ctx.store.named("fact.state_as_of", {**params, "as_of": as_utc(as_of)})
        return [Fact.from_row(r, group) for r in rows]

    def history(self, subject: str, predicate: str | None = None, group: str = "") -> list[Fact]:
        """Every version of ``subject``'s facts, in valid-time order within each slot."""
        group = self._group(group)
        uuids = self._subject_uuids(subject, group)
        rows = self.ctx.store.named(
            "fact.history",
            {"group_id": group, "subject_uuids": uuids, "predicate": self._predicate(predicate)},
        )
        return [Fact.from_row(r, group) for r in rows]

    def search(self, query: str, group: str, k: int = 10) -> list[Evidence]:
        """The ``k`` turns that best match ``query`` in ``group``, best first, with no answering step:
        the retrieval `ask` uses for single-fact questions (full-text and vector search over turns,
        sentences and facts, fused per turn), cut to ``k``. For callers that read evidence themselves."""
        if not group:
            raise ConfigError("a group is required (every query is scoped to one group)")
        if not 1 <= k <= 100:
            raise ConfigError(f"k must be between 1 and 100, not {k}")
        path = self.ctx.payloads_path
        payload = replace(
            (load_payloads(path) if path else default_payloads()).for_mode("single_fact"), depth=k
        )
        return evidence_from_hits(retrieve(self.ctx.asking(), query, group, payload).hits, group)

    def summary(self, group: str, recent: int = 10) -> dict[str, Any]:
        """What a group holds at a glance: its counts, speakers (turns each), time span, and its
        ``recent`` newest fact versions (by valid time). Reads only; an unknown group gives zeros."""
        if not group:
            raise ConfigError("a group is required (every query is scoped to one group)")
        span = self.ctx.store.named("temporal.group_span", {"group_id": group})
        rows = self.ctx.store.named("fact.recent", {"group_id": group, "limit": max(0, recent)})
        return {
            "group": group,
            **self.counts(group),
            "speakers": [{"speaker": s, "turns": n} for s, n in self.ctx.speakers(group).items()],
            "first": span[0].get("first") if span else None,
            "last": span[0].get("last") if span else None,
            "recent_facts": [Fact.from_row(r, group) for r in rows],
        }

    def cypher(
        self, query: str, params: dict[str, Any] | None = None, write: bool = False
    ) -> list[dict[str, Any]]:
        """Run one Cypher statement for exploration; read-only unless ``write=True``
        (tkg/stores/read_guard.py says what a read may hold). Parameters stay parameters."""
        if not isinstance(query, str):
            raise ConfigError(f"query must be a string of Cypher, not {type(query).__name__}")
        if params is not None and not isinstance(params, dict):
            raise ConfigError(f"params must be a dict of parameter values, not {type(params).__name__}")
        if write:
            check_one_statement(query)  # Kuzu 0.11.3 crashes the process on some strings of several
            try:
                return self.ctx.store.run(query, params)
            finally:
                self.ctx.cache.forget()  # a raw write sets no group stamp
        return self.ctx.store.read(query, params)

    def usage(self, group: str | None = None) -> dict[str, Any]:
        """Tokens the models spent ingesting, per group, stage and model, with their cost at list
        prices (tkg/llm/usage.py); ``group`` None: every group."""
        names = [group] if group else [g["group_id"] for g in self.groups()]
        prices = load_prices()
        groups, every = {}, []
        for name in names:
            rows = self.ctx.store.named("usage.summary", {"group_id": name})
            if rows:
                groups[name] = {"rows": rows, **summarize(rows, prices)}
                every += rows
        return {"groups": groups, **summarize(every, prices)}

    @property
    def url(self) -> str:
        """The store's URL with any password removed (safe to print)."""
        return self.ctx.store.url

    def groups(self) -> list[dict[str, Any]]:
        """Every group that holds turns, by name: ``group_id``, its time span (``first``, ``last``)
        and its counts (``episodes``, ``chunks``, ``entities``, ``facts``, ``current_facts``)."""
        return [{**row, **self.counts(row["group_id"])} for row in self.ctx.store.named("group.list", {})]

    def counts(self, group: str) -> dict[str, Any]:
        """One group's counts (zeros for a group the store does not hold)."""
        return self.ctx.store.named("group.counts", {"group_id": group_name(group)})[0]

    # -- helpers ------------------------------------------------------------------------------
    def _subject_uuids(self, subject: str, group: str) -> list[str]:
        if not isinstance(subject, str) or not subject.strip():
            raise ConfigError(f"subject must be a non-empty name, not {subject!r:.60}")
        found = self.ctx.entities(group).find(subject, "person")
        if found is None:
            raise NotFound(f"no entity named {subject!r} in group {group!r}")
        return [found.uuid]

    @staticmethod
    def _group(group: object) -> str:
        if group == "":
            raise ConfigError("a group is required (every query is scoped to one group)")
        return group_name(group)

    def _predicate(self, predicate: str | None) -> str:
        if predicate in (None, ""):
            return ""
        if predicate not in self.ctx.registry.names():
            raise ConfigError(
                f"unknown predicate {predicate!r}; known: {', '.join(self.ctx.registry.names())}"
            )
        return predicate

    def close(self) -> None:
        self.ctx.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _checked(ep: object) -> EpisodeInput:
    """An episode handed to the API, its group checked and stripped as a file's would be."""
    if not isinstance(ep, EpisodeInput):
        raise ConfigError(f"ingest_episodes takes EpisodeInput items, not {type(ep).__name__}")
    group = group_name(ep.group, "an episode's group")
    return ep if group == ep.group else replace(ep, group=group)


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None
