"""Ingest phase 1, *prepare*: what each turn will write, worked out before any transaction.

Batched, writing nothing: chunk each turn, extract its candidate facts (the rules with what earlier turns
of its group hand on, then the extract stage's model when one is set) and mentions, and embed every
chunk, fact sentence and new entity name of a batch in one call (`TurnPreparer.embed`, which
`pipeline.Ingestor` runs on a worker thread while the batch before is written).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from ..embed import Embedder
from ..entities import entity_name
from ..extract import Candidate, extract, history, mentions
from ..models import Chunk, EpisodeInput, Vector, stable_uuid
from ..nlp import stored_parses
from ..predicates import PredicateRegistry
from ..stores.base import GraphStore
from .chunking import chunk_episode
from .model_extract import ModelExtractor, TurnResult, merge
from .resolve import EntityResolver


@dataclass
class Prepared:
    """One turn as it will be written: its chunks, candidate facts, mentions and their vectors."""

    ep: EpisodeInput
    uuid: str
    chunks: list[Chunk]
    candidates: list[Candidate]
    mentioned: list[tuple[str, str]]
    fact_texts: list[str]
    context: str = ""  # what the turn hands on to the extractor for later turns (tkg/extract/history.py)
    names: list[str] = field(
        default_factory=list
    )  # entity names to embed with the batch (see TurnPreparer._names_to_embed)
    fact_vectors: list[Vector] = field(default_factory=list)
    name_vectors: dict[str, Vector] = field(default_factory=dict)
    model: TurnResult | None = None  # the extract stage's result for this turn, when a model is set
    parse: str | None = None  # the turn's parse as Episodic.parse keeps it (tkg/stored_parse.py)


class TurnPreparer:
    """Prepares batches of turns for one store; ``known`` gives a group's entity resolver when the
    writer has loaded it (names it holds are not embedded again)."""

    def __init__(self, store: GraphStore, embedder: Embedder, registry: PredicateRegistry,
                 model: ModelExtractor | None, known: Callable[[str], EntityResolver | None]) -> None:
        self.store = store
        self.model = model  # the extract stage (model_extract.py), None offline
        self.embedder = embedder
        self.registry = registry
        self._known = known
        self._queued_names: dict[str, set[str]] = {}  # names already sent to the embedder, per group

    def stored(self, episodes: list[EpisodeInput]) -> set[str]:
        """The uuids of ``episodes`` the store holds (one statement per group)."""
        there: set[str] = set()
        for group in dict.fromkeys(ep.group for ep in episodes):
            uuids = [episode_uuid(ep) for ep in episodes if ep.group == group]
            there.update(
                r["uuid"] for r in self.store.named("episode.existing", {"group_id": group, "uuids": uuids})
            )
        return there

    def absent(self, batch: list[EpisodeInput]) -> list[EpisodeInput]:
        """The episodes of ``batch`` not in the store yet (one statement per group)."""
        there = self.stored(batch)
        return [ep for ep in batch if episode_uuid(ep) not in there]

    def prepare(self, episodes: Iterable[EpisodeInput], recent: dict[str, deque[Candidate]],
                 empty: bool) -> list[Prepared]:
        out: list[Prepared] = []
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
                Prepared(
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
        embedded by itself in its transaction (``EpisodeWriter._write_nodes``)."""
        queued = self._queued_names.setdefault(group, set())
        index = self._known(group)  # only if loaded: it is built under the group's lock
        out = []
        for surface in (
            [c.subject for c in candidates] + [c.object for c in candidates] + [n for n, _ in mentioned]
        ):
            name = entity_name(surface)
            if name and name not in queued and not (index is not None and index.knows(name)):
                queued.add(name)
                out.append(name)
        return out

    def embed(self, out: list[Prepared]) -> None:
        """Embed a batch in one call: sentence chunks and fact sentences, and a turn only when it
        has no sentence chunks (one sentence) or is one of several windows of a long text.

        A multi-sentence turn's vector is the normalised mean of its sentences' vectors: that finds
        turns better than encoding the turn whole (MiniLM truncates and blurs long turns;
        BENCHMARKS.md), and it embeds every token once instead of twice.
        """
        plans = [(p, derived_turn(p.chunks)) for p in out]
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

    def embed_and_parse(self, out: list[Prepared], parse: bool) -> None:
        """`embed` the batch, then parse its turns for the reader (`tkg.nlp.stored_parses`): the
        batch's slow work, run on the ingest's worker thread while the batch before is written."""
        self.embed(out)
        if not parse:
            return
        for p, parsed in zip(out, stored_parses([p.ep.text for p in out]), strict=True):
            p.parse = parsed

    def forget(self, group: str) -> None:
        """Drop what this preparer remembers of a group (after `forget`)."""
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


def derived_turn(chunks: list[Chunk]) -> Chunk | None:
    """The turn chunk whose vector is the mean of its sentences' (one turn window with sentences)."""
    turns = [c for c in chunks if c.kind == "turn"]
    return turns[0] if len(turns) == 1 and len(chunks) > 1 else None
