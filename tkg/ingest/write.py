"""Ingest phase 2, *write*: prepared turns into the store, whole episodes per transaction.

Per group, under the group's lock: resolve entities (staged per transaction in the group's
`EntityResolver`), write the transaction's turns, chunks, new entities and mentions in one
statement each, then its facts in order, applying supersession slot by slot. A failing
transaction is re-run one episode at a time, so only the bad episode is left out, whole. What
was committed is then anchored to the group's node. `IngestReport` counts what was written.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..embed import Embedder
from ..entities import ResolvedEntity, read_entities
from ..errors import TkgError
from ..extract import Candidate
from ..group_cache import GroupCache, Written, anchor, read_speakers, stamp
from ..models import Chunk, Vector, f32_bytes, stable_uuid, utcnow
from ..predicates import PredicateRegistry
from ..stores.base import GraphStore, Runner
from ..text import normalize_name
from .model_extract import tally as tally_model
from .prepare import Prepared, search_text
from .resolve import EntityResolver
from .supersede import FactWrite, apply_fact

# what a fact write takes over from its candidate as it is
_FROM_CANDIDATE = ("predicate", "qualifier", "confidence", "polarity", "correction", "time_text")


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
    model_load_s: float = 0.0  # loading the embedding model (and the parser a turn may need) first
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


@dataclass(frozen=True)
class _Resolved:
    """A candidate fact of a turn with its subject and object resolved to entity uuids."""

    candidate: Candidate
    text: str
    vector: list[float]
    subject_uuid: str
    object_uuid: str


class EpisodeWriter:
    """Writes prepared turns into one store; safe across threads per group (a lock each)."""

    def __init__(self, store: GraphStore, embedder: Embedder, registry: PredicateRegistry,
                 cache: GroupCache | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.registry = registry
        self.cache = cache  # questions' per-group lists, kept up to date by each anchoring transaction
        self._indexes: dict[str, EntityResolver] = {}
        self._seq: dict[str, tuple[int, str | None]] = {}
        # groups that had no turn when this writer first wrote to them, with their stamp then
        self._empty: dict[str, str | None] = {}
        self._anchored: set[str] = set()  # groups this writer has anchored
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()

    def write(self, prepared: list[Prepared], report: IngestReport) -> None:
        """Write a prepared (and embedded) batch, group by group."""
        tally_model(report.llm, [p.model for p in prepared if p.model is not None])
        for group in dict.fromkeys(p.ep.group for p in prepared):
            self._write_batch([p for p in prepared if p.ep.group == group], report)

    def known(self, group: str) -> EntityResolver | None:
        """The group's entity resolver if it is loaded (it is built under the group's lock)."""
        return self._indexes.get(group)

    def lock(self, group: str) -> threading.RLock:
        with self._guard:  # re-entrant: a bulk ingest holds its groups' locks around _write_batch
            return self._locks.setdefault(group, threading.RLock())

    def _index(self, group: str) -> EntityResolver:
        if group not in self._indexes:
            self._indexes[group] = EntityResolver.read(self.store, group)
        return self._indexes[group]

    def _write_batch(self, items: list[Prepared], report: IngestReport) -> None:
        """Write prepared episodes of one group, ``store.episodes_per_transaction`` per transaction.

        Each transaction holds whole episodes only. If one fails, the batch is rolled back and
        re-written one episode per transaction, so the good episodes land and the bad one's error
        reaches the caller with nothing of it written.
        """
        if not items:
            return
        group = items[0].ep.group
        written: list[str] = []  # uuids of the turns and entities committed, to anchor
        vectors: list[dict[str, Any]] = []  # the vector rows committed (chunks, facts)
        with self.lock(group):
            per_tx = max(1, self.store.episodes_per_transaction)
            try:
                for start in range(0, len(items), per_tx):
                    chunk = items[start : start + per_tx]
                    try:
                        self._commit_episodes(group, chunk, report, written, vectors)
                    except TkgError:
                        if len(chunk) == 1:
                            raise
                        for item in chunk:
                            self._commit_episodes(group, [item], report, written, vectors)
            finally:
                self._anchor(group, written, vectors)

    def _anchor(self, group: str, written: list[str], vectors: list[dict[str, Any]]) -> None:
        """Link committed turns and entities to the group's TkgGroup node, in a transaction of their
        own: Kuzu 0.11.3 lost or crashed on rows of episode transactions that also wrote the
        anchors (tests/test_bad_input.py, about one run in two). A crash before this leaves
        nodes without an anchor, which ``ensure_schema`` (every open) links (``group.adopt``).

        With a cache, the group's entity list and speakers are read in the same transaction, after
        the stamp changed: no other anchoring can come between (it writes the same stamp node), so
        they are what any process reads under this stamp. The vector rows written are kept too
        (`Written`), so the first question after an ingest need not read back what it wrote."""
        if not written:
            return
        with self.store.transaction() as tx:
            before = stamp(tx, group) if self.cache is not None else None
            new = anchor(tx, group, written)
            if self.cache is None:
                return
            entities, speakers = read_entities(tx, group), read_speakers(tx, group)
        self.cache.put(group, "entities", new, entities)
        self.cache.put(group, "speakers", new, speakers)
        self.cache.put(group, "written", new, self._written(group, before, vectors))
        self._anchored.add(group)

    def _written(self, group: str, before: str | None, vectors: list[dict[str, Any]]) -> Written:
        """What this anchoring adds to the group's vectors, since the stamp the group had before it
        (or since the group was empty, for a group this writer began; or, when its last anchoring
        of the group was the one before, since what that one added to)."""
        assert self.cache is not None
        rows = tuple(  # each vector kept as its float32 bytes: a list of boxed floats weighs 7 times more
            {**v, "embedding": f32_bytes(v["embedding"])} for v in vectors if v.get("embedding") is not None
        )
        held, last = self.cache.kept(group, "vectors"), self.cache.kept(group, "written")
        if held is not None and held[0] == before:  # the vectors kept are the group's before this
            return Written(before, rows)
        if last is not None and last[0] == before:  # nobody anchored the group in between
            return Written(last[1].since, last[1].rows + rows)
        if group in self._empty and self._empty[group] == before and group not in self._anchored:
            return Written(None, rows)  # the group was empty, and only this anchoring came since
        return Written(before, rows)

    def _commit_episodes(
        self, group: str, items: list[Prepared], report: IngestReport, written: list[str],
        vectors: list[dict[str, Any]],
    ) -> None:
        """One transaction for ``items``: a few statements for all their turns, chunks, entities and
        mentions (a statement costs Kuzu about the same however many rows it writes), then the facts in
        order."""
        index = self._index(group)
        if group not in self._seq:
            was = stamp(self.store, group)  # before the turns: a stamp written after them is another's
            last = self.store.named("episode.last", {"group_id": group})
            self._seq[group] = (last[0]["seq"], last[0]["uuid"]) if last else (0, None)
            if not last:
                self._empty[group] = was
        seq, prev = self._seq[group]
        now = utcnow()
        tally = IngestReport()
        made: list[str] = []
        rows: list[dict[str, Any]] = []
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
                episodes = []
                for p in fresh:
                    seq += 1
                    episodes.append(_episode_row(p, seq, prev))
                    prev = p.uuid
                if fresh:
                    plans = [self._resolve(p, index) for p in fresh]
                    rows += self._write_nodes(tx, group, fresh, episodes, plans, index, now, tally)
                    for p, (_, writes) in zip(fresh, plans, strict=True):
                        rows += self._write_facts(tx, p, writes, now, tally)
                made += [p.uuid for p in fresh]
                made += index.staged()
        except BaseException:
            index.rollback()
            raise
        index.commit()
        written += made
        vectors += rows
        self._seq[group] = (seq, prev)
        for key in (
            "episodes", "skipped_existing", "chunks", "entities", "facts", "superseded", "retracted",
            "reasserted",
        ):
            setattr(report, key, getattr(report, key) + getattr(tally, key))

    @staticmethod
    def _resolve(p: Prepared, index: EntityResolver) -> tuple[set[str], list[_Resolved]]:
        """The entities a turn mentions and its facts with their entities resolved (staged in ``index``)."""
        mentioned = {index.resolve(name, type_).uuid for name, type_ in p.mentioned}
        writes = []
        for cand, text, vector in zip(p.candidates, p.fact_texts, p.fact_vectors, strict=True):
            subj = index.resolve(cand.subject, cand.subject_type)
            obj = index.resolve(cand.object, cand.object_type)
            mentioned.update((subj.uuid, obj.uuid))
            writes.append(_Resolved(cand, text, vector, subj.uuid, obj.uuid))
        return mentioned, writes

    def _write_nodes(self, tx: Runner, group: str, items: list[Prepared], episodes: list[dict[str, Any]],
                     plans: list[tuple[set[str], list[_Resolved]]], index: EntityResolver, now: datetime,
                     tally: IngestReport) -> list[dict[str, Any]]:
        """The turns, their chunks, new and renamed entities and the mentions, in a few statements;
        returns the chunks' rows."""
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
        return chunks

    def _write_facts(
        self, tx: Runner, p: Prepared, writes: list[_Resolved], now: datetime, tally: IngestReport
    ) -> list[dict[str, Any]]:
        """The turn's facts, each into its slot; returns the vector rows of the edges made."""
        ep = p.ep
        made: list[dict[str, Any]] = []
        for w in writes:
            cand = w.candidate
            fw = FactWrite(
                **{name: getattr(cand, name) for name in _FROM_CANDIDATE},
                group_id=ep.group, subject_uuid=w.subject_uuid, object_uuid=w.object_uuid, fact=w.text,
                valid_at=cand.valid_at or ep.timestamp, episode_uuid=p.uuid, source_ref=ep.source_ref,
                source_chunk=_chunk_for(p.chunks, cand), fact_embedding=w.vector,
                extractor=getattr(cand, "extractor", "rules"), reference_time=ep.timestamp,
            )
            outcome = apply_fact(tx, fw, single_valued=self.registry.is_single(cand.predicate), now=now)
            tally.facts += len(outcome.created)
            tally.superseded += len(outcome.superseded)
            tally.retracted += len(outcome.retracted)
            tally.reasserted += len(outcome.reasserted)
            made += outcome.vectors
        if p.model is not None and p.model.usage:  # the model's tokens, with the turn they were spent on
            tx.named("usage.create_many", {"group_id": ep.group, "created_at": now, "rows": [
                {**u, "uuid": stable_uuid("usage", p.uuid, u["stage"], u["model"]), "episode_uuid": p.uuid}
                for u in p.model.usage]})
        return made

    def embed_entity_names(self, groups: list[str]) -> None:
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

    def forget(self, group: str) -> None:
        """Drop cached state for a group (after `forget`)."""
        with self._guard:
            self._indexes.pop(group, None)
            self._seq.pop(group, None)
            self._empty.pop(group, None)
            self._anchored.discard(group)


def _chunk_for(chunks: list[Chunk], cand: Candidate) -> str | None:
    for c in chunks:
        if c.kind == "sentence" and cand.sentence and cand.sentence in c.text:
            return c.uuid
    return chunks[0].uuid if chunks else None


def _episode_row(p: Prepared, seq: int, prev: str | None) -> dict[str, Any]:
    ep = p.ep
    return {
        "uuid": p.uuid, "name": ep.source_ref or f"{ep.group}:{seq}", "content": ep.text,
        "source": "message", "source_description": ep.source_description, "speaker": ep.speaker,
        "source_ref": ep.source_ref, "content_hash": ep.digest(), "seq": seq, "session": ep.session,
        "valid_at": ep.timestamp, "entity_edges": [], "prev_uuid": prev, "extract_context": p.context,
        "parse": p.parse,
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
        "embedding_f32": f32_bytes(c.embedding),
    }


def _entity_row(ent: ResolvedEntity, name_embedding: list[float] | None) -> dict[str, Any]:
    return {"uuid": ent.uuid, "name": ent.name, "name_key": normalize_name(ent.name), "type": ent.type,
            "aliases": list(ent.aliases), "summary": "", "name_embedding": name_embedding}
