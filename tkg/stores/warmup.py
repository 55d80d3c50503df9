"""The read queries a question runs, with parameters that match nothing, to compile their plans.

Neo4j plans a statement the first time it sees its text with those parameter types, and keeps
the plan in a server-wide cache; on a fresh server the first questions each paid for planning a
dozen statements. Running these once when a store opens (against a group that cannot exist, so
nothing is read) moves that cost to the open, and once more after a bulk load, whose new rows make
the server plan every statement again. Each runs with the types a question sends (a time is a
datetime, never null). The list follows what `tkg bench qa` and `tkg bench locomo` showed
questions running, most frequent first (tests/test_warmup.py checks that it covers them).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

NOBODY = "\x00tkg-warm-up"  # no group has this id: group names are stripped, non-empty text
_ONE = ["\x00"]
_WHEN = datetime(2000, 1, 1, tzinfo=UTC)
# keys a sample group's real ones replace (`sample`): an entity, a fact, a turn, a predicate, a time
ENTITY, FACT, TURN, PREDICATE = "\x00entity", "\x00fact", "\x00turn", "\x00predicate"

QUESTION_OPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("group.stamp", {}),
    ("entity.list", {}),
    ("graph.speakers", {}),
    ("group.turns", {}),
    ("retrieval.group_vector_ids", {}),
    ("retrieval.vectors_by_uuid", {"uuids": _ONE}),
    ("retrieval.group_vectors", {}),
    ("retrieval.text", {"text": "warm", "bm25_k1": 1.2, "bm25_b": 0.75, "k_fetch": 1, "efs": 1}),
    ("retrieval.turns", {"uuids": [TURN]}),
    ("retrieval.turns_by_seq", {"seqs": [0]}),
    ("retrieval.fact_sources", {"uuids": [FACT]}),
    ("temporal.group_span", {}),
    ("temporal.episode_chunks", {"episode_uuids": [TURN]}),
    (
        "temporal.facts_overlapping",
        {"subject_uuids": [ENTITY], "predicate": PREDICATE, "range_start": _WHEN, "range_end": _WHEN},
    ),
    ("graph.turns_with_terms", {"terms": ["warm"], "limit": 1}),
    ("graph.turn", {"episode_uuid": TURN}),
    ("graph.turns_containing", {"needles": ["warm"]}),
    ("graph.entity_turns", {"entity_uuid": ENTITY, "terms": ["warm"], "limit": 1}),
    ("graph.spoken_turns", {"speaker": "\x00", "terms": ["warm"], "limit": 1}),
    ("fact.state_current", {"subject_uuids": [ENTITY], "predicate": PREDICATE}),
    ("fact.history", {"subject_uuids": [ENTITY], "predicate": PREDICATE}),
    ("fact.state_as_of", {"subject_uuids": [ENTITY], "predicate": PREDICATE, "as_of": _WHEN}),
    ("aggregate.history", {"subject_uuids": [ENTITY], "predicates": [PREDICATE]}),
    ("aggregate.history_all", {"predicates": [PREDICATE]}),
    ("graph.edges_between", {"pair": [ENTITY]}),
    ("walk.step_out", {"from_uuids": [ENTITY], "predicate": PREDICATE}),
    ("walk.step_in", {"from_uuids": [ENTITY], "predicate": PREDICATE}),
    ("walk.step_out_as_of", {"from_uuids": [ENTITY], "predicate": PREDICATE, "as_of": _WHEN}),
    ("walk.step_in_as_of", {"from_uuids": [ENTITY], "predicate": PREDICATE, "as_of": _WHEN}),
    ("group.embedder", {}),
)


def sample(runner: Any, group: str) -> dict[str, Any] | None:
    """Real keys of ``group`` (its latest fact: the subject, the edge, its turn, predicate and
    time), or None when it has no fact. A plan's first run over rows costs the server far more
    than its later runs, so the key lookups warm on these rather than on keys that match nothing."""
    rows = runner.named("fact.recent", {"group_id": group, "limit": 1})
    if not rows:
        return None
    fact = rows[0]
    keys: dict[Any, Any] = {"group_id": group, ENTITY: fact["subject_uuid"], FACT: fact["uuid"],
            TURN: (fact["episodes"] or ["\x00"])[0], PREDICATE: fact["predicate"],
            _WHEN: fact["valid_at"] or _WHEN}
    return keys


def warm_up(runner: Any, keys: dict[Any, Any] | None = None) -> list[str]:
    """Run each question query once for no group (or, for a key lookup, once with ``keys`` from
    `sample`: reads only, one group's few rows); the names of any that failed (never raises: a
    warm-up that fails leaves the store as usable as before, only colder)."""
    failed = []
    for name, params in QUESTION_OPS:
        run = {"group_id": NOBODY, **params}
        if keys and any(v in keys for v in _keys(params)):
            run = {k: _real(v, keys) for k, v in {**run, "group_id": keys["group_id"]}.items()}
        try:
            runner.named(name, run)
        except Exception:  # noqa: BLE001 - see the docstring
            failed.append(name)
    return failed


def _keys(params: dict[str, Any]) -> list[Any]:
    """The placeholders a warm-up's parameters hold (scalars and list items)."""
    return [x for v in params.values() for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)]


def _real(value: Any, keys: dict[Any, Any]) -> Any:
    """``value`` with its placeholders (and the warm-up time) replaced by the sample's."""
    if isinstance(value, list):
        return [_real(v, keys) for v in value]
    if isinstance(value, str | datetime) and value in keys:
        return keys[value]
    return value
