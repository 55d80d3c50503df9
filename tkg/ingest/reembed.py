"""Which embedding model a group's vectors came from, and re-embedding a group with another.

Every group records its model in the store (``TkgMeta`` key ``embedder:<group>``) with its first
write. Writing to or asking a group recorded under another model is refused with a message that
names both and the command that fixes it, since vectors of two models in one index do not
compare. A group written before tkg recorded the model has no record; it is taken to be of the
current model, and its next write records it.

`reembed_group` computes every vector first, then replaces them: chunks (a turn of several
sentences gets the normalised mean of its sentences' vectors, as ingest gives it), fact sentences
and entity names. Kuzu 0.11.3 cannot SET a vector its index covers, so a chunk row is deleted and
created again, unchanged but for the vector, one row a transaction. The group records the new
model only at the end: a failure part-way leaves it recorded under the old one (questions and
ingest still refuse it), and running the command again re-embeds it whole.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from ..embed import Embedder
from ..errors import EmbeddingError
from ..group_cache import new_stamp
from ..models import Vector, f32_bytes
from ..stores import GraphStore


def recorded_model(store: GraphStore, group: str) -> str | None:
    """The embedding model recorded for ``group``, or None (a new group, or one from before the record)."""
    rows = store.named("group.embedder", {"group_id": group})
    return str(rows[0]["model"]) if rows and rows[0]["model"] else None


def mismatch_message(store: GraphStore, group: str, recorded: str, current: str) -> str:
    return (
        f"group {group!r} in {store.url} was embedded with {recorded}, but the embedder now is {current}; "
        f"re-embed it with `tkg reembed --group {group}` (chunks, entity names and facts), "
        f"or set TKG_EMBEDDER to the embedder it was built with"
    )


def check_model(store: GraphStore, embedder: Embedder, group: str, *, record: bool) -> None:
    """Refuse a group recorded under another model; with ``record``, record this one for a group without."""
    found = recorded_model(store, group)
    if found is None:
        if record:
            store.named(
                "group.set_embedder", {"group_id": group, "model": embedder.name, "stamp": new_stamp()}
            )
        return
    if found != embedder.name:
        raise EmbeddingError(mismatch_message(store, group, found, embedder.name))


def turn_means(chunks: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Turn chunk uuid -> the uuids whose mean vector it gets: the one turn chunk of an episode
    that also has sentence or window chunks (the rule ingest embeds by, `_embed_prepared`)."""
    by_episode: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in chunks:
        by_episode[c["episode_uuid"]].append(c)
    derived: dict[str, list[str]] = {}
    for rows in by_episode.values():
        turns = [c for c in rows if c["kind"] == "turn"]
        if len(turns) == 1 and len(rows) > 1:
            derived[turns[0]["uuid"]] = [c["uuid"] for c in rows if c is not turns[0]]
    return derived


def reembed_group(store: GraphStore, embedder: Embedder, group: str) -> dict[str, Any]:
    """Give every vector of ``group`` from ``embedder`` and record it; returns what was re-embedded."""
    chunks = store.named("reembed.chunks", {"group_id": group})
    facts = store.named("reembed.facts", {"group_id": group})
    entities = store.named("entity.list", {"group_id": group})
    derived = turn_means(chunks)
    own = [c for c in chunks if c["uuid"] not in derived]
    texts = [c["search_text"] or c["text"] or "" for c in own] + [f["fact"] or "" for f in facts]
    texts += [e["name"] or "" for e in entities]
    vectors = embedder.embed(texts) if texts else np.zeros((0, embedder.dim), dtype=np.float32)
    if vectors.shape != (len(texts), embedder.dim):
        raise EmbeddingError(
            f"embedder {embedder.name} returned shape {vectors.shape} for {len(texts)} texts"
        )
    by_uuid = {c["uuid"]: vectors[i] for i, c in enumerate(own)}
    for turn, parts in derived.items():
        mean = np.mean([by_uuid[u] for u in parts], axis=0)
        by_uuid[turn] = mean / (np.linalg.norm(mean) or 1.0)
    rows = [_vector_row(c, by_uuid[c["uuid"]]) for c in chunks]
    start = len(own)
    fact_rows = [
        _vector_row({"uuid": f["uuid"]}, vectors[start + i]) for i, f in enumerate(facts)
    ]
    start += len(facts)
    entity_rows = [
        {"uuid": e["uuid"], "embedding": [float(x) for x in vectors[start + i]]}
        for i, e in enumerate(entities)
    ]
    # One row a transaction: Kuzu 0.11.3's vector index lost rows (searches found none) when many
    # rows were deleted and made again in one transaction, and kept them when each went alone.
    for row in rows:
        with store.transaction() as tx:
            tx.named("reembed.delete_chunks", {"group_id": group, "uuids": [row["uuid"]]})
            tx.named("chunk.create_many", {"group_id": group, "chunks": [row]})
    for fact in fact_rows:
        with store.transaction() as tx:
            tx.named("reembed.set_facts", {"group_id": group, "rows": [fact]})
    with store.transaction() as tx:
        if entity_rows:
            tx.named("entity.set_embeddings", {"group_id": group, "rows": entity_rows})
        tx.named("group.set_embedder", {"group_id": group, "model": embedder.name, "stamp": new_stamp()})
    return {"group": group, "model": embedder.name, "chunks": len(rows), "facts": len(fact_rows),
            "entities": len(entity_rows), "texts_embedded": len(texts)}


def _vector_row(row: dict[str, Any], vector: np.ndarray) -> dict[str, Any]:
    """``row`` with its new vector, as the float list and its compact copy (tkg.models.f32_bytes)."""
    floats = Vector(vector.tolist())
    return {**row, "embedding": floats, "embedding_f32": f32_bytes(floats)}
