"""From episodes to the graph: chunks, embeddings, entities, versioned facts.

Work happens in two phases so that the slow part batches well and the write part stays atomic:

1. *prepare* (pure, batched): chunk each turn, resolve its time expressions, extract candidate
   facts and mentions, and embed every chunk, fact sentence and new entity name of a batch in
   one call;
2. *write* (whole episodes per transaction, ``store.episodes_per_transaction`` of them):
   resolve entities, write the transaction's turns, chunks, new entities and mentions in one
   statement each, then its facts in order, applying supersession slot by slot. A failing
   transaction is re-run one episode at a time, so only the bad episode is left out, whole;
   an episode's uuid is derived from its content, so re-running an ingest skips what is
   already there and finishes the rest.

A large first load runs inside ``store.bulk_load()`` (see :meth:`Ingestor.ingest`): on Kuzu the
full-text and vector indexes are built once at the end instead of row by row.

Example::

    >>> from tkg import Memory
    >>> with Memory.open("kuzu:///tmp/tkg-doc.kuzu") as mem:  # doctest: +SKIP
    ...     mem.ingest("examples/priya_marco.json").facts
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..embed import Embedder, load_model
from ..entities import ResolvedEntity, entity_name, read_entities
from ..errors import TkgError
from ..extract import Candidate, extract, history, mentions
from ..group_cache import GroupCache, anchor, read_speakers
from ..models import Chunk, EpisodeInput, Vector, stable_uuid, utcnow
from ..predicates import PredicateRegistry
from ..stores.base import GraphStore, Runner
from ..text import normalize_name
from .chunking import chunk_episode
from .model_extract import ModelExtractor, TurnResult, merge, tally
from .resolve import EntityResolver
from .supersede import FactWrite, apply_fact

BATCH = 128  # episodes prepared (and embedded) together
BULK_AUTO = 500  # episodes from which an ingest into a store with no episodes loads in bulk by itself


@dataclass
class IngestReport:
    """What an ingest did; ``to_dict()`` is the ``--json`` summary."""

    episodes: int = 0
    skipped_existing: int = 0
    skipped_empty: int = 0
    chunks: int = 0
    entities: int = 0
    facts: int = 0
    superseded: int = 0
    retracted: int = 0
    reasserted: int = 0
    seconds: float = 0.0  # writing, from the first turn on: the model is loaded before (``model_load_s``)
    model_load_s: float = 0.0  # loading the embedding model first, when it was not loaded yet
    bulk: bool = False  # ran inside store.bulk_load()
    index_build_s: float = 0.0  # of ``seconds``: ending the bulk load (rebuilding indexes)
    groups: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    llm: dict[str, Any] = field(
        default_factory=dict
    )  # the model stage's counts and usage (model_extract.tally)

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["turns_per_s"] = round(self.episodes / self.seconds, 1) if self.seconds else None
        return data


class IngestInterrupted(KeyboardInterrupt):
    """Ctrl-C during an ingest. ``report`` counts what was committed before it: those episodes
    stay (each transaction holds whole episodes), and ingesting the same input again goes on
    from there, skipping them."""

    def __init__(self, report: IngestReport) -> None:
        super().__init__(f"ingest interrupted after {report.episodes} episode(s) committed")
        self.report = report


@dataclass
class _Prepared:
    ep: EpisodeInput
    uuid: str
    chunks: list[Chunk]
    candidates: list[Candidate]
    mentioned: list[tuple[str, str]]
    fact_texts: list[str]
    context: str = ""  # what the turn hands on to the extractor for later turns (tkg/extract/history.py)
    names: list[str] = field(
        default_factory=list
    )  # entity names to embed with the batch (see _names_to_embed)
    fact_vectors: list[Vector] = field(default_factory=list)
    name_vectors: dict[str, Vector] = field(default_factory=dict)
    model: TurnResult | None = None  # the extract stage's result for this turn, when a model is set


@dataclass(frozen=True)
class _Resolved:
    """A candidate fact of a turn with its subject and object resolved to entity uuids."""

    candidate: Candidate
    text: str
    vector: list[float]
    subject_uuid: str
    object_uuid: str


class Ingestor:
    """Writes episodes into one store. One instance per Memory; safe across threads per group."""

    def __init__(self, store: GraphStore, embedder: Embedder, registry: PredicateRegistry,
                 cache: GroupCache | None = None, model: ModelExtractor | None = None) -> None:
        self.store = store
        self.model = model  # the extract stage (model_extract.py), None offline
        self.embedder = embedder
        self.registry = registry
        self.cache = cache  # questions' per-group lists, kept up to date by each anchoring transaction
        self._indexes: dict[str, EntityResolver] = {}
        self._seq: dict[str, tuple[int, str | None]] = {}
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()
        self._queued_names: dict[str, set[str]] = {}  # names already sent to the embedder, per group

    def ingest(
        self,
        episodes: Sequence[EpisodeInput],
        *,
        progress: Callable[[int], None] | None = None,
        bulk: bool | None = None,
    ) -> IngestReport:
        """Write ``episodes`` (whole episodes per transaction, idempotent), in bulk-load mode if chosen.

        ``bulk=True`` runs the whole ingest in ``store.bulk_load()``: faster writes on Kuzu, and
        reads on other threads wait until the indexes are rebuilt at the end. ``bulk=None`` (the
        default) chooses it only when the store holds no episodes yet and ``episodes`` has at least
        ``BULK_AUTO`` items, because rebuilding covers every indexed row, old ones too, and a small
        batch gains less than the rebuild costs. ``bulk=False`` never uses it. Either way the
        episodes, their transactions and the counts written are the same.
        """
        report = IngestReport()
        report.model_load_s = load_model(self.embedder) if episodes else 0.0  # not the turns' time
        started = time.perf_counter()
        groups: list[str] = []
        for ep in episodes:
            if ep.group not in groups:
                groups.append(ep.group)
        report.groups = groups
        empty = not self.store.named(
            "group.list", {}
        )  # then nothing here can exist yet but what this ingest writes
        report.bulk = bulk if bulk is not None else len(episodes) >= BULK_AUTO and empty
        try:
            with ExitStack() as stack:
                if report.bulk:
                    # group locks before the store's lock, in one order, as every writer takes them
                    for group in sorted(groups):
                        stack.enter_context(self._lock(group))
                    stack.enter_context(self.store.bulk_load())
                # Batch k+1 is embedded on a worker thread while batch k is written: torch and the store's
                # drivers release the GIL, so on two cores the model's time mostly hides behind the writes.
                # Extraction stays here: it is pure Python, and on the worker it slows the writes'
                # Python more than it saves (BENCHMARKS.md).
                pool = stack.enter_context(ThreadPoolExecutor(max_workers=1, thread_name_prefix="tkg-embed"))
                pending: tuple[list[_Prepared], Future[None], int] | None = None
                # per group, what earlier turns hand on to the extractor: read from the store when the
                # group first comes up, so the graph is the same however the conversation arrives
                recent: dict[str, deque[Candidate]] = {}
                attempted: list[
                    EpisodeInput
                ] = []  # turns not in the store before: what an interruption may have left
                for start in range(0, len(episodes), BATCH):
                    batch = [ep for ep in episodes[start : start + BATCH]]
                    # the check inside each write transaction stays: this one only saves preparing
                    fresh = batch if empty else self._absent(batch)
                    report.skipped_existing += len(batch) - len(fresh)
                    attempted += fresh
                    prepared = self._prepare(fresh, recent, empty)
                    embedded = pool.submit(self._embed_prepared, prepared)
                    if pending is not None:
                        self._write_prepared(*pending, report, progress)
                    pending = (prepared, embedded, len(batch))
                if pending is not None:
                    self._write_prepared(*pending, report, progress)
                self._embed_entity_names(groups)
                written = time.perf_counter()
        except KeyboardInterrupt as exc:
            report.seconds = round(time.perf_counter() - started, 3)
            # read back, not counted: Ctrl-C may land just after a commit, before its tally
            report.episodes = len(self._stored(attempted))
            raise IngestInterrupted(report) from exc
        report.seconds = round(time.perf_counter() - started, 3)
        if report.bulk:
            report.index_build_s = round(time.perf_counter() - written, 3)
        return report

    def _write_prepared(
        self,
        prepared: list[_Prepared],
        embedded: Future[None],
        size: int,
        report: IngestReport,
        progress: Callable[[int], None] | None,
    ) -> None:
        """Write a prepared batch once its embedding is done, group by group."""
        embedded.result()  # re-raises the embedder's error here, before anything of the batch is written
        tally(report.llm, [p.model for p in prepared if p.model is not None])
        for group in dict.fromkeys(p.ep.group for p in prepared):
            self._write_batch([p for p in prepared if p.ep.group == group], report)
        if progress:
            progress(size)

    # -- phase 1: prepare ---------------------------------------------------------------------
    def _stored(self, episodes: list[EpisodeInput]) -> set[str]:
        """The uuids of ``episodes`` the store holds (one statement per group)."""
        there: set[str] = set()
        for group in dict.fromkeys(ep.group for ep in episodes):
            uuids = [episode_uuid(ep) for ep in episodes if ep.group == group]
            there.update(
                r["uuid"] for r in self.store.named("episode.existing", {"group_id": group, "uuids": uuids})
            )
        return there

    def _absent(self, batch: list[EpisodeInput]) -> list[EpisodeInput]:
        """The episodes of ``batch`` not in the store yet (one statement per group)."""
        there = self._stored(batch)
        return [ep for ep in batch if episode_uuid(ep) not in there]

    def _prepare(self, episodes: Iterable[EpisodeInput], recent: dict[str, deque[Candidate]],
                 empty: bool) -> list[_Prepared]:
        out: list[_Prepared] = []
        eps = list(episodes)
        ruled: dict[
            str, list[Candidate]
        ] = {}  # the rules first: a model window is shown the earlier turns' facts
        for ep in eps:
            if ep.group not in recent:
                recent[ep.group] = deque([] if empty else self._history(ep.group), maxlen=history.HISTORY)
            candidates = extract(
                ep.text,
                speaker=ep.speaker,
                listeners=ep.listeners,
                when=ep.timestamp,
                registry=self.registry,
                history=tuple(recent[ep.group]),
            )
            ruled[episode_uuid(ep)] = candidates
            # what the rules hand on is what the turn stores, so a later ingest reads the same history
            recent[ep.group].extend(history.handed_on(candidates))
        by_model = self.model.run([(episode_uuid(ep), ep) for ep in eps], ruled) if self.model else {}
        for ep in eps:
            uuid = episode_uuid(ep)
            handed = history.handed_on(ruled[uuid])
            candidates = ruled[uuid]
            turn = by_model.get(uuid)
            if turn is not None and turn.candidates is not None:
                candidates = merge(candidates, turn.candidates, self.registry)
            mentioned = mentions(ep.text, speaker=ep.speaker, listeners=ep.listeners)
            out.append(
                _Prepared(
                    ep=ep,
                    uuid=uuid,
                    chunks=chunk_episode(ep, uuid),
                    candidates=candidates,
                    mentioned=mentioned,
                    fact_texts=[fact_sentence(c, self.registry) for c in candidates],
                    context=history.dumps(handed),
                    names=self._names_to_embed(ep.group, candidates, mentioned),
                    model=turn,
                )
            )
        return out

    def _history(self, group: str) -> list[Candidate]:
        """What the group's stored turns hand on to the next one (tkg/extract/history.py)."""
        rows = self.store.named("episode.recent_context", {"group_id": group, "limit": history.HISTORY})
        return history.recent(r["context"] for r in reversed(rows))

    def _names_to_embed(
        self, group: str, candidates: list[Candidate], mentioned: list[tuple[str, str]]
    ) -> list[str]:
        """The names this turn may create entities under, embedded with its batch so that a new entity
        is created with its name's vector: setting it afterwards (``entity.set_embeddings``) is a
        row update each, slow on Kuzu. Names this process already sent, or that the group's entity index
        holds, are left out; a new entity whose name was left out (its batch failed, say) is
        embedded by itself in its transaction (``_write_nodes``)."""
        queued = self._queued_names.setdefault(group, set())
        index = self._indexes.get(group)  # only if loaded: it is built under the group's lock
        out = []
        for surface in (
            [c.subject for c in candidates] + [c.object for c in candidates] + [n for n, _ in mentioned]
        ):
            name = entity_name(surface)
            if name and name not in queued and not (index is not None and index.knows(name)):
                queued.add(name)
                out.append(name)
        return out

    def _embed_prepared(self, out: list[_Prepared]) -> None:
        """Embed a batch in one call: sentence chunks and fact sentences, and a turn only when it
        has no sentence chunks (one sentence) or is one of several windows of a long text.

        A multi-sentence turn's vector is the normalised mean of its sentences' vectors: that finds
        turns better than encoding the turn whole (MiniLM truncates and blurs long turns;
        BENCHMARKS.md), and it embeds every token once instead of twice.
        """
        plans = [(p, _derived_turn(p.chunks)) for p in out]
        texts = [search_text(c) for p, derived in plans for c in p.chunks if c is not derived]
        texts += [t for p in out for t in p.fact_texts]
        texts += [n for p in out for n in p.names]
        if not texts:
            return
        vectors = self.embedder.embed(texts)
        i = 0
        for p, derived in plans:
            own = [c for c in p.chunks if c is not derived]
            for c, v in zip(own, vectors[i : i + len(own)], strict=True):
                c.embedding = Vector(v.tolist())
            if derived is not None:
                mean = np.mean(vectors[i : i + len(own)], axis=0)
                derived.embedding = Vector((mean / (np.linalg.norm(mean) or 1.0)).tolist())
            i += len(own)
        for p in out:
            p.fact_vectors = [Vector(vectors[i + j].tolist()) for j in range(len(p.fact_texts))]
            i += len(p.fact_texts)
        for p in out:
            p.name_vectors = {n: Vector(vectors[i + j].tolist()) for j, n in enumerate(p.names)}
            i += len(p.names)

    # -- phase 2: write -----------------------------------------------------------------------
    def _lock(self, group: str) -> threading.RLock:
        with self._guard:  # re-entrant: a bulk ingest holds its groups' locks around _write_batch
            return self._locks.setdefault(group, threading.RLock())

    def _index(self, group: str) -> EntityResolver:
        if group not in self._indexes:
            self._indexes[group] = EntityResolver.read(self.store, group)
        return self._indexes[group]

    def _write_batch(self, items: list[_Prepared], report: IngestReport) -> None:
        """Write prepared episodes of one group, ``store.episodes_per_transaction`` per transaction.

        Each transaction holds whole episodes only. If one fails, the batch is rolled back and
        re-written one episode per transaction, so the good episodes land and the bad one's error
        reaches the caller with nothing of it written.
        """
        if not items:
            return
        group = items[0].ep.group
        written: list[str] = []  # uuids of the turns and entities committed, to anchor
        with self._lock(group):
            per_tx = max(1, self.store.episodes_per_transaction)
            try:
                for start in range(0, len(items), per_tx):
                    chunk = items[start : start + per_tx]
                    try:
                        self._commit_episodes(group, chunk, report, written)
                    except TkgError:
                        if len(chunk) == 1:
                            raise
                        for item in chunk:
                            self._commit_episodes(group, [item], report, written)
            finally:
                self._anchor(group, written)

    def _anchor(self, group: str, written: list[str]) -> None:
        """Link committed turns and entities to the group's TkgGroup node, in a transaction of their
        own: Kuzu 0.11.3 lost or crashed on rows of episode transactions that also wrote the
        anchors (tests/test_bad_input.py, about one run in two). A crash before this leaves
        nodes without an anchor, which ``ensure_schema`` (every open) links (``group.adopt``).

        With a cache, the group's entity list and speakers are read in the same transaction, after
        the stamp changed: no other anchoring can come between (it writes the same stamp node), so
        they are what any process reads under this stamp."""
        if not written:
            return
        with self.store.transaction() as tx:
            stamp = anchor(tx, group, written)
            if self.cache is None:
                return
            entities, speakers = read_entities(tx, group), read_speakers(tx, group)
        self.cache.put(group, "entities", stamp, entities)
        self.cache.put(group, "speakers", stamp, speakers)

    def _commit_episodes(
        self, group: str, items: list[_Prepared], report: IngestReport, written: list[str]
    ) -> None:
        """One transaction for ``items``: a few statements for all their turns, chunks, entities and
        mentions (a statement costs Kuzu about the same however many rows it writes), then the facts in
        order."""
        index = self._index(group)
        if group not in self._seq:
            last = self.store.named("episode.last", {"group_id": group})
            self._seq[group] = (last[0]["seq"], last[0]["uuid"]) if last else (0, None)
        seq, prev = self._seq[group]
        now = utcnow()
        tally = IngestReport()
        made: list[str] = []
        try:
            with self.store.transaction() as tx:
                # checked inside the transaction: another process may have written some meanwhile
                there = {
                    r["uuid"]
                    for r in tx.named(
                        "episode.existing", {"group_id": group, "uuids": [p.uuid for p in items]}
                    )
                }
                fresh = [p for p in items if p.uuid not in there]
                tally.skipped_existing += len(items) - len(fresh)
                rows = []
                for p in fresh:
                    seq += 1
                    rows.append(_episode_row(p, seq, prev))
                    prev = p.uuid
                if fresh:
                    plans = [self._resolve(p, index) for p in fresh]
                    self._write_nodes(tx, group, fresh, rows, plans, index, now, tally)
                    for p, (_, writes) in zip(fresh, plans, strict=True):
                        self._write_facts(tx, p, writes, now, tally)
                made += [p.uuid for p in fresh]
                made += index.staged()
        except BaseException:
            index.rollback()
            raise
        index.commit()
        written += made
        self._seq[group] = (seq, prev)
        for key in (
            "episodes", "skipped_existing", "chunks", "entities", "facts", "superseded", "retracted",
            "reasserted",
        ):
            setattr(report, key, getattr(report, key) + getattr(tally, key))

    @staticmethod
    def _resolve(p: _Prepared, index: EntityResolver) -> tuple[set[str], list[_Resolved]]:
        """The entities a turn mentions and its facts with their entities resolved (staged in ``index``)."""
        mentioned = {index.resolve(name, type_).uuid for name, type_ in p.mentioned}
        writes = []
        for cand, text, vector in zip(p.candidates, p.fact_texts, p.fact_vectors, strict=True):
            subj = index.resolve(cand.subject, cand.subject_type)
            obj = index.resolve(cand.object, cand.object_type)
            mentioned.update((subj.uuid, obj.uuid))
            writes.append(_Resolved(cand, text, vector, subj.uuid, obj.uuid))
        return mentioned, writes

    def _write_nodes(self, tx: Runner, group: str, items: list[_Prepared], episodes: list[dict[str, Any]],
                     plans: list[tuple[set[str], list[_Resolved]]], index: EntityResolver, now: datetime,
                     tally: IngestReport) -> None:
        """The turns, their chunks, new and renamed entities and the mentions, in a few statements."""
        tx.named("episode.create_many", {"group_id": group, "created_at": now, "episodes": episodes})
        chunks = [_chunk_row(c, p.uuid) for p in items for c in p.chunks]
        if chunks:
            tx.named("chunk.create_many", {"group_id": group, "chunks": chunks})
        pending = index.unwritten()
        new = [ent for ent in pending if ent.is_new]
        vectors = {n: v for p in items for n, v in p.name_vectors.items()}
        unseen = list(dict.fromkeys(ent.name for ent in new if ent.name not in vectors))
        if unseen:  # rare (a name queued by a batch that failed); rows must all carry a vector
            vectors.update(
                zip(unseen, (Vector(v.tolist()) for v in self.embedder.embed(unseen)), strict=True)
            )
        if new:
            rows = [_entity_row(ent, vectors[ent.name]) for ent in new]
            tx.named("entity.create_many", {"group_id": group, "created_at": now, "entities": rows})
        for ent in pending:
            if not ent.is_new:
                tx.named(
                    "entity.update",
                    {
                        "uuid": ent.uuid,
                        "group_id": group,
                        "name": ent.name,
                        "name_key": normalize_name(ent.name),
                        "aliases": ent.aliases,
                        "type": ent.type,
                    },
                )
        index.mark_written()
        mentions = [
            {"episode_uuid": p.uuid, "entity_uuid": u}
            for p, (mentioned, _) in zip(items, plans, strict=True)
            for u in sorted(mentioned)
        ]
        if mentions:
            tx.named("mention.create_many", {"group_id": group, "created_at": now, "mentions": mentions})
        tally.entities += len(new)
        tally.episodes += len(items)
        tally.chunks += len(chunks)

    def _write_facts(
        self, tx: Runner, p: _Prepared, writes: list[_Resolved], now: datetime, tally: IngestReport
    ) -> None:
        ep = p.ep
        for w in writes:
            cand = w.candidate
            fw = FactWrite(
                group_id=ep.group,
                subject_uuid=w.subject_uuid,
                object_uuid=w.object_uuid,
                predicate=cand.predicate,
                qualifier=cand.qualifier,
                fact=w.text,
                valid_at=cand.valid_at or ep.timestamp,
                episode_uuid=p.uuid,
                source_ref=ep.source_ref,
                source_chunk=_chunk_for(p.chunks, cand),
                confidence=cand.confidence,
                polarity=cand.polarity,
                correction=cand.correction,
                time_text=cand.time_text,
                fact_embedding=w.vector,
                extractor=getattr(cand, "extractor", "rules"),
                reference_time=ep.timestamp,
            )
            outcome = apply_fact(tx, fw, single_valued=self.registry.is_single(cand.predicate), now=now)
            tally.facts += len(outcome.created)
            tally.superseded += len(outcome.superseded)
            tally.retracted += len(outcome.retracted)
            tally.reasserted += len(outcome.reasserted)
        if p.model is not None and p.model.usage:  # the model's tokens, with the turn they were spent on
            tx.named("usage.create_many", {"group_id": ep.group, "created_at": now, "rows": [
                {**u, "uuid": stable_uuid("usage", p.uuid, u["stage"], u["model"]), "episode_uuid": p.uuid}
                for u in p.model.usage]})

    def _embed_entity_names(self, groups: list[str]) -> None:
        """Embed the names of entities that have no vector: ingest creates each with one, so only
        entities written without (by an older tkg, or by hand) are left."""
        for group in groups:
            rows = self.store.named("entity.missing_embedding", {"group_id": group})
            if not rows:
                continue
            vectors = self.embedder.embed([r["name"] for r in rows])
            updates = [
                {"uuid": r["uuid"], "embedding": [float(x) for x in v]}
                for r, v in zip(rows, vectors, strict=True)
            ]
            self.store.named("entity.set_embeddings", {"group_id": group, "rows": updates})

    def forget_group(self, group: str) -> None:
        """Drop cached state for a group (after `forget`)."""
        with self._guard:
            self._indexes.pop(group, None)
            self._seq.pop(group, None)
            self._queued_names.pop(group, None)


def episode_uuid(ep: EpisodeInput) -> str:
    return stable_uuid("episode", ep.group, ep.digest())


def search_text(chunk: Chunk) -> str:
    """What the full-text and vector indexes see: the speaker's name, then the text."""
    return f"{chunk.speaker}: {chunk.text}" if chunk.speaker else chunk.text


def fact_sentence(c: Candidate, registry: PredicateRegistry) -> str:
    """A readable sentence for a fact, e.g. "Priya lives in Leeds"."""
    pred = registry.get(c.predicate)
    template = getattr(pred, "template", "") or "{subject} " + c.predicate.replace("_", " ") + " {object}"
    text = template.format(subject=c.subject, object=c.object, qualifier=c.qualifier or "")
    text = " ".join(text.split())
    return ("no longer: " + text) if c.polarity == "retract" else text


def _derived_turn(chunks: list[Chunk]) -> Chunk | None:
    """The turn chunk whose vector is the mean of its sentences' (one turn window with sentences)."""
    turns = [c for c in chunks if c.kind == "turn"]
    return turns[0] if len(turns) == 1 and len(chunks) > 1 else None


def _chunk_for(chunks: list[Chunk], cand: Candidate) -> str | None:
    for c in chunks:
        if c.kind == "sentence" and cand.sentence and cand.sentence in c.text:
            return c.uuid
    return chunks[0].uuid if chunks else None


def _episode_row(p: _Prepared, seq: int, prev: str | None) -> dict[str, Any]:
    ep = p.ep
    return {
        "uuid": p.uuid, "name": ep.source_ref or f"{ep.group}:{seq}", "content": ep.text,
        "source": "message", "source_description": ep.source_description, "speaker": ep.speaker,
        "source_ref": ep.source_ref, "content_hash": ep.digest(), "seq": seq, "session": ep.session,
        "valid_at": ep.timestamp, "entity_edges": [], "prev_uuid": prev, "extract_context": p.context,
    }


def _chunk_row(c: Chunk, episode: str) -> dict[str, Any]:
    return {
        "uuid": c.uuid,
        "episode_uuid": episode,
        "kind": c.kind,
        "text": c.text,
        "search_text": search_text(c),
        "seq": c.seq,
        "speaker": c.speaker,
        "source_ref": c.source_ref,
        "valid_at": c.valid_at,
        "time_text": c.time_text,
        "time_start": c.time_start,
        "time_end": c.time_end,
        "embedding": c.embedding,
    }


def _entity_row(ent: ResolvedEntity, name_embedding: list[float] | None) -> dict[str, Any]:
    return {"uuid": ent.uuid, "name": ent.name, "name_key": normalize_name(ent.name), "type": ent.type,
            "aliases": list(ent.aliases), "summary": "", "name_embedding": name_embedding}
