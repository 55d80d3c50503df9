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

The phases are `prepare.py` (`TurnPreparer`) and `write.py` (`EpisodeWriter`, `IngestReport`);
this module runs them, batch after batch.

Example::

    >>> from tkg import Memory
    >>> with Memory.open("kuzu:///tmp/tkg-doc.kuzu") as mem:  # doctest: +SKIP
    ...     mem.ingest("examples/priya_marco.json").facts
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack

from ..embed import Embedder, load_model
from ..extract import Candidate
from ..extract.parsed import load_parser
from ..group_cache import GroupCache
from ..models import EpisodeInput, Tick
from ..nlp import load_reader, reader_loaded
from ..predicates import PredicateRegistry
from ..stored_parse import kept_at_ingest
from ..stores.base import GraphStore
from .model_extract import ModelExtractor
from .prepare import Prepared, TurnPreparer
from .write import EpisodeWriter, IngestReport

BATCH = 128  # episodes prepared (and embedded) together
BULK_AUTO = 500  # episodes from which an ingest into a store with no episodes loads in bulk by itself
# turns from which an ingest loads the reader's parser to keep their parses (tkg/stored_parse.py): a
# process that ingests a few turns and ends (`tkg ingest` per turn) would pay more to load it than the
# questions pay to parse those turns when they read them; one that has it loaded keeps every parse
PARSE_LOAD_MIN = 100

class IngestInterrupted(KeyboardInterrupt):
    """Ctrl-C during an ingest. ``report`` counts what was committed before it: those episodes
    stay (each transaction holds whole episodes), and ingesting the same input again goes on
    from there, skipping them."""

    def __init__(self, report: IngestReport) -> None:
        super().__init__(f"ingest interrupted after {report.episodes} episode(s) committed")
        self.report = report



class Ingestor:
    """Writes episodes into one store. One instance per Memory; safe across threads per group."""

    def __init__(self, store: GraphStore, embedder: Embedder, registry: PredicateRegistry,
                 cache: GroupCache | None = None, model: ModelExtractor | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self._writer = EpisodeWriter(store, embedder, registry, cache)
        self._preparer = TurnPreparer(store, embedder, registry, model, self._writer.known)

    def ingest(
        self, episodes: Sequence[EpisodeInput], *, progress: Tick | None = None, bulk: bool | None = None
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
        keep = False  # whether the turns keep their parse (decided with the models' load)
        # models load before the clock starts: not the turns' time (the parser when turns keep their
        # parse, else only if a rule may parse a turn)
        if episodes:
            try:
                keep = kept_at_ingest() and (reader_loaded() or len(episodes) >= PARSE_LOAD_MIN)
                parser = load_reader() if keep else load_parser(ep.text for ep in episodes)
                loaded = load_model(self.embedder) + parser
            except KeyboardInterrupt as exc:  # Ctrl-C while the models load: nothing written, nothing kept
                raise IngestInterrupted(report) from exc
            report.model_load_s = round(loaded, 3)
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
                        stack.enter_context(self._writer.lock(group))
                    stack.enter_context(self.store.bulk_load())
                # Batch k+1 is embedded on a worker thread while batch k is written: torch and the store's
                # drivers release the GIL, so on two cores the model's time mostly hides behind the writes.
                # Extraction stays here: it is pure Python, and on the worker it slows the writes'
                # Python more than it saves (BENCHMARKS.md).
                pool = stack.enter_context(ThreadPoolExecutor(max_workers=1, thread_name_prefix="tkg-embed"))
                pending: tuple[list[Prepared], Future[None], int] | None = None
                # per group, what earlier turns hand on to the extractor: read from the store when the
                # group first comes up, so the graph is the same however the conversation arrives
                recent: dict[str, deque[Candidate]] = {}
                attempted: list[
                    EpisodeInput
                ] = []  # turns not in the store before: what an interruption may have left
                for start in range(0, len(episodes), BATCH):
                    batch = [ep for ep in episodes[start : start + BATCH]]
                    # the check inside each write transaction stays: this one only saves preparing
                    fresh = batch if empty else self._preparer.absent(batch)
                    report.skipped_existing += len(batch) - len(fresh)
                    attempted += fresh
                    prepared = self._preparer.prepare(fresh, recent, empty)
                    embedded = pool.submit(self._preparer.embed_and_parse, prepared, keep)
                    if pending is not None:
                        self._write_prepared(*pending, report, progress)
                    pending = (prepared, embedded, len(batch))
                if pending is not None:
                    self._write_prepared(*pending, report, progress)
                self._writer.embed_entity_names(groups)
                written = time.perf_counter()
        except KeyboardInterrupt as exc:
            report.seconds = round(time.perf_counter() - started, 3)
            # read back, not counted: Ctrl-C may land just after a commit, before its tally
            report.episodes = len(self._preparer.stored(attempted))
            raise IngestInterrupted(report) from exc
        report.seconds = round(time.perf_counter() - started, 3)
        if report.bulk:
            report.index_build_s = round(time.perf_counter() - written, 3)
        return report

    def _write_prepared(
        self,
        prepared: list[Prepared],
        embedded: Future[None],
        size: int,
        report: IngestReport,
        progress: Tick | None,
    ) -> None:
        """Write a prepared batch once its embedding is done, group by group."""
        embedded.result()  # re-raises the embedder's error here, before anything of the batch is written
        self._writer.write(prepared, report)
        if progress:
            progress(size)

    def forget_group(self, group: str) -> None:
        """Drop cached state for a group (after `forget`)."""
        self._writer.forget(group)
        self._preparer.forget(group)

