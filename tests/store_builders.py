"""Builders for the store contract tests: the exact parameters ingest passes to the write ops.

Shared by tests/test_store_contract.py (core contract) and tests/test_store_contract_search.py
(search and retrieval ops), so both write their fixtures through ``cypher/ops`` the same way.
Tests import it as ``store_builders``, like ``reliability.common``.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

from tkg.group_cache import anchor
from tkg.models import f32_bytes, stable_uuid
from tkg.stores import GraphStore, Runner

DIM = 384  # the vector dimension tests/conftest.py applies the schema with
T0 = datetime(2023, 3, 12, 19, 15, 0, 123456, tzinfo=UTC)


def vec(i: int) -> list[float]:
    """A unit vector pointing mostly along axis ``i``: distinct axes are far apart."""
    raw = [0.02] * DIM
    raw[i % DIM] = 1.0
    norm = math.sqrt(sum(x * x for x in raw))
    return [x / norm for x in raw]


def add_entity(
    db: Runner, group: str, name: str, aliases: list[str] | None = None, summary: str | None = ""
) -> str:
    uid = stable_uuid("entity", group, name)
    create_entity(db, group, uid, name, name.lower(), aliases=aliases, summary=summary)
    db.named(
        "entity.set_embeddings", {"group_id": group, "rows": [{"uuid": uid, "embedding": vec(len(name))}]}
    )
    anchor(db, group, [uid])  # as ingest does after each batch
    return uid


def create_entity(db: Runner, group: str, uid: str, name: str, key: str, *, type_: str = "person",
                  aliases: list[str] | None = None, summary: str | None = "", at: datetime = T0,
                  name_embedding: list[float] | None = None) -> list[dict[str, Any]]:
    """One entity through ``entity.create_many``, as ingest writes it."""
    row = {
        "uuid": uid,
        "name": name,
        "name_key": key,
        "type": type_,
        "aliases": aliases or [],
        "summary": summary,
        "name_embedding": name_embedding,
    }
    return db.named("entity.create_many", {"group_id": group, "created_at": at, "entities": [row]})


def episode_row(
    group: str, seq: int, prev: str | None = None, at: datetime = T0, **fields: Any
) -> dict[str, Any]:
    """An ``episode.create_many`` row for turn ``seq`` of ``group``, linked to ``prev``."""
    return {
        "uuid": stable_uuid("episode", group, str(seq)),
        "name": f"turn {seq}",
        "content": f"turn {seq} text",
        "source": "message",
        "source_description": "test",
        "speaker": "Priya",
        "source_ref": f"D1:{seq}",
        "content_hash": str(seq),
        "seq": seq,
        "session": "session_1",
        "valid_at": at,
        "entity_edges": [],
        "extract_context": "",
        "parse": None,
        "prev_uuid": prev,
        **fields,
    }


def add_episodes(db: Runner, group: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``episode.create_many`` with these rows (see `episode_row`); it reports the links it made."""
    return db.named("episode.create_many", {"group_id": group, "created_at": T0, "episodes": rows})


def add_episode(
    db: Runner, group: str, seq: int, prev: str | None = None, at: datetime = T0
) -> list[dict[str, Any]]:
    rows = add_episodes(db, group, [episode_row(group, seq, prev, at)])
    anchor(db, group, [stable_uuid("episode", group, str(seq))])
    return rows


def episode_links(store: GraphStore, group: str) -> list[dict[str, Any]]:
    """The group's NEXT_EPISODE links as (prev seq, seq, session), by prev."""
    return store.run(
        "MATCH (p:Episodic)-[:NEXT_EPISODE]->(e:Episodic) WHERE e.group_id = $group_id "
        "RETURN p.seq AS prev, e.seq AS seq, e.session AS session ORDER BY prev",
        {"group_id": group},
    )


def episode(group: str, seq: int) -> str:
    return stable_uuid("episode", group, str(seq))


def chunk(
    group: str, ep: str, seq: int, text: str, axis: int, kind: str = "sentence", **times: Any
) -> dict[str, Any]:
    return {
        "uuid": stable_uuid("chunk", group, ep, str(seq)),
        "episode_uuid": ep,
        "kind": kind,
        "text": text,
        "search_text": f"Priya: {text}",
        "seq": seq,
        "speaker": "Priya",
        "source_ref": f"D1:{seq}",
        "valid_at": T0,
        "embedding": vec(axis),
        "embedding_f32": f32_bytes(vec(axis)),
        "time_text": times.get("time_text"),
        "time_start": times.get("time_start"),
        "time_end": times.get("time_end"),
    }


def add_chunks(db: Runner, group: str, chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return db.named("chunk.create_many", {"group_id": group, "chunks": chunks})


def add_mentions(db: Runner, group: str, ep: str, entities: list[str]) -> list[dict[str, Any]]:
    mentions = [{"episode_uuid": ep, "entity_uuid": u} for u in entities]
    return db.named("mention.create_many", {"group_id": group, "created_at": T0, "mentions": mentions})


def add_fact(
    db: Runner,
    group: str,
    subj: str,
    pred: str,
    obj: str,
    text: str,
    valid_at: datetime | None,
    *,
    axis: int = 0,
    version: int = 1,
    episodes: list[str] | None = None,
    supersedes: str | None = None,
) -> str:
    uid = stable_uuid("fact", group, subj, pred, obj, str(version))
    db.named(
        "fact.create",
        {
            "uuid": uid,
            "group_id": group,
            "subject_uuid": subj,
            "object_uuid": obj,
            "predicate": pred,
            "fact": text,
            "fact_embedding": vec(axis),
            "fact_embedding_f32": f32_bytes(vec(axis)),
            "qualifier": "",
            "episodes": episodes or [],
            "source_chunk": None,
            "source_episode": (episodes or [""])[0],
            "source_ref": "D1:1",
            "version": version,
            "confidence": 0.9,
            "supersedes": supersedes,
            "time_text": None,
            "extractor": "rules",
            "valid_at": valid_at,
            "invalid_at": None,
            "created_at": T0,
            "expired_at": None,
            "reference_time": T0,
        },
    )
    return uid


def add_versions(store: GraphStore, group: str) -> tuple[str, str, str, str]:
    """Priya lived in Bristol until May 2023, then Leeds; she also works at Northwind."""
    priya = add_entity(store, group, "Priya")
    bristol, leeds, north = (add_entity(store, group, n) for n in ("Bristol", "Leeds", "Northwind"))
    may = datetime(2023, 5, 1, tzinfo=UTC)
    v1 = add_fact(store, group, priya, "lives_in", bristol, "Priya lives in Bristol", T0)
    store.named(
        "fact.close",
        {
            "group_id": group,
            "uuid": v1,
            "subject_uuid": priya,
            "invalid_at": may,
            "expired_at": may + timedelta(days=34),
        },
    )
    v2 = add_fact(
        store, group, priya, "lives_in", leeds, "Priya lives in Leeds", may, version=2, supersedes=v1
    )
    add_fact(store, group, priya, "works_at", north, "Priya works at Northwind", T0)
    return priya, v1, v2, leeds


def fill_group(store: GraphStore, group: str) -> None:
    """Two episodes, a chunk, `add_versions` facts and a mention: a bit of everything a group owns."""
    add_episode(store, group, 0)
    add_episode(store, group, 1, prev=episode(group, 0), at=T0 + timedelta(days=1))
    ep = episode(group, 0)
    add_chunks(store, group, [chunk(group, ep, 0, "Priya lives in Leeds", 1, kind="turn")])
    add_versions(store, group)
    add_mentions(store, group, ep, [stable_uuid("entity", group, "Priya")])


SENTENCES = ["Priya moved to Lisbon in May", "Marco works at a bakery", "Biscuit the dog loves walks",
             "Megan lives in Manchester"]


def fill_searchable(store: GraphStore, a: str, b: str) -> None:
    """The same sentences in two groups; group b's copies share a's vectors, so only the filter separates
    them."""
    for g in (a, b):
        add_episode(store, g, 0)
        ep = episode(g, 0)
        add_chunks(store, g, [chunk(g, ep, i + 1, s, i + 1) for i, s in enumerate(SENTENCES)]
                   + [chunk(g, ep, 0, " ".join(SENTENCES), 0, kind="turn")])
        subj = add_entity(store, g, "Priya")
        for i, s in enumerate(SENTENCES):
            add_fact(
                store, g, subj, "said", add_entity(store, g, f"object {i}"), s, T0, axis=i + 1, episodes=[ep]
            )
        add_mentions(store, g, ep, [subj])


def count(store: GraphStore, label: str, group: str) -> int:
    return int(
        store.run(
            f"MATCH (n:{label}) WHERE n.group_id = $group_id RETURN count(n) AS n", {"group_id": group}
        )[0]["n"]
    )


def retrieved(store: GraphStore, group: str, *, text: str | None = None, vector: list[float] | None = None,
              kinds: set[str] | None = None, k: int = 3, k_fetch: int = 50) -> list[dict[str, Any]]:
    """The best ``k`` of one group's hits from the ops retrieval runs (``retrieval.text`` for
    ``text``, ``retrieval.vector`` for ``vector``), of the chunk ``kinds`` asked (facts are kind
    'fact' on both stores), best first. BM25 runs with Kuzu's own defaults (k1 1.2, b 0.75)."""
    op, query = (
        ("retrieval.text", {"text": text}) if text is not None else ("retrieval.vector", {"vector": vector})
    )
    (found,) = store.named(op, {"group_id": group, "k_fetch": k_fetch, "efs": max(k_fetch, 100),
                                "bm25_k1": 1.2, "bm25_b": 0.75, **query})
    hits = [h for h in found["hits"] or [] if h and (kinds is None or h["kind"] in kinds)]  # null: none
    return sorted(hits, key=lambda h: -h["score"])[:k]
