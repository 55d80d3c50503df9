"""What the reliability tests share: one embedder per session, stores per backend, probes.

The real local embedder is used everywhere (retrieval must behave as in production), but it is
loaded once per test session: `shared_embedder` is cached at module level, so every test file's
session fixture hands out the same instance.
"""

from __future__ import annotations

import functools
import os
import re
import uuid
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from procedures.spans import spans_of
from tkg.embed import Embedder, get_embedder
from tkg.memory import Memory
from tkg.nlp import parse

os.environ.setdefault("HF_HUB_OFFLINE", "1")

NEO4J_ENV = "TKG_TEST_NEO4J_URI"
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

# sentences the embedder tests compare: two about a dog, one unrelated, one almost empty
EMBED_TEXTS = (
    "I adopted a puppy last weekend.",
    "We finally got a dog, a little terrier.",
    "The quarterly stock market report came out lower than expected.",
    "ok",
)


@functools.cache
def shared_embedder() -> Embedder:
    """The production embedder (local MiniLM behind the content-hash cache), loaded once."""
    emb = get_embedder()
    getattr(emb, "inner", emb).embed(["load the model now, past the cache"])
    return emb


# Any text a store can hold: the loaders refuse NUL and lone surrogates before they reach one.
storable_chars = st.characters(codec="utf-8", exclude_characters="\x00")


def neo4j_url() -> str:
    """The test server's URL, or skip (Neo4j halves run only when ``TKG_TEST_NEO4J_URI`` is set)."""
    url = os.environ.get(NEO4J_ENV)
    if not url:
        pytest.skip(f"{NEO4J_ENV} is not set; export {NEO4J_ENV}=bolt://127.0.0.1:7687 to run the Neo4j half")
    return url


def store_url(backend: str, tmp: Path) -> str:
    """A fresh Kuzu database under ``tmp``, or the shared test Neo4j."""
    return neo4j_url() if backend == "neo4j" else f"kuzu://{tmp}/db.kuzu"


def bounded(examples: int) -> settings:
    """Hypothesis settings for these tests: few examples, no deadline (stores are slow)."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
        database=None,  # no .hypothesis/ directory; a failure prints its blob to reproduce it
        print_blob=True,
        # no shrinking: one example costs seconds here, and a shrink could take many minutes
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@contextmanager
def memory(backend: str, tmp: Path) -> Iterator[Memory]:
    """An open Memory with the shared embedder; groups written under it are the caller's to forget."""
    mem = Memory.open(store_url(backend, tmp), embedder=shared_embedder())
    try:
        yield mem
    finally:
        mem.close()


_MADE: weakref.WeakKeyDictionary[Memory, list[str]] = weakref.WeakKeyDictionary()


def track(mem: Memory, *groups: str) -> None:
    """Remember groups a test writes, so `forget_tracked` can remove them from a shared server."""
    _MADE.setdefault(mem, []).extend(groups)


def ingested(mem: Memory, prefix: str, path: Path) -> str:
    """A new tracked group named from `prefix`, with the turns of the file at `path` ingested into it."""
    group = unique(prefix)
    track(mem, group)
    mem.ingest(path, group=group)
    return group


def span_texts(text: str, kind: str, head: str) -> list[str]:
    """The texts of the spans of ``kind`` (for a question's ``head`` noun) in each sentence of ``text``."""
    return [s.text for sent in parse(text).sents for s in spans_of(sent, kind, head)]


def forget_tracked(mem: Memory) -> None:
    """Delete every tracked group (ones never written cost nothing)."""
    for group in _MADE.pop(mem, []):
        mem.ctx.store.named("group.delete", {"group_id": group})


def walk_values(value: Any) -> Iterator[Any]:
    """Every scalar inside rows, dicts, lists, dataclasses' dicts."""
    if isinstance(value, dict):
        for v in value.values():
            yield from walk_values(v)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            yield from walk_values(v)
    else:
        yield value


def uuids_in(value: Any) -> set[str]:
    return {v for v in walk_values(value) if isinstance(v, str) and UUID.match(v)}


def strings_in(value: Any) -> list[str]:
    return [v for v in walk_values(value) if isinstance(v, str)]


FACTS = """
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity) WHERE r.group_id = $g
RETURN r.uuid AS uuid, s.name AS s, r.name AS p, o.name AS o, r.qualifier AS q, r.version AS v,
       r.valid_at AS valid, r.invalid_at AS invalid, r.expired_at IS NULL AS live, r.supersedes AS sup,
       r.source_ref AS ref, r.confidence AS conf, r.time_text AS tt
"""


def facts_of(store: Any, group: str) -> list[tuple[Any, ...]]:
    """A group's facts with nothing group-specific in them (a uuid becomes the fact it names), sorted:
    subject, predicate, object, qualifier, version, valid and invalid time, current or not, the
    version superseded, the turn that said it, confidence, time text. Read through ``read``, the
    read-only path."""
    rows = store.read(FACTS, {"g": group})
    name = {r["uuid"]: (r["s"], r["p"], r["o"], r["v"]) for r in rows}
    out = [
        (
            r["s"],
            r["p"],
            r["o"],
            r["q"],
            r["v"],
            r["valid"],
            r["invalid"],
            r["live"],
            name.get(r["sup"]),
            r["ref"],
            r["conf"],
            r["tt"],
        )
        for r in rows
    ]
    return sorted(out, key=repr)
