"""The read queries a question runs, with parameters that match nothing, to compile their plans.

Neo4j plans a statement the first time it sees its text and keeps the plan in a server-wide cache;
on a fresh server the first questions each paid for planning a dozen statements. Running these
once when a store opens (against a group that cannot exist, so nothing is read) moves that cost
to the open. The list follows what `tkg bench qa` showed questions running, most frequent first.
"""

from __future__ import annotations

from typing import Any

NOBODY = "\x00tkg-warm-up"  # no group has this id: group names are stripped, non-empty text
_ONE = ["\x00"]

QUESTION_OPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("group.stamp", {}),
    ("entity.list", {}),
    ("graph.speakers", {}),
    ("group.turns", {}),
    ("retrieval.group_vector_ids", {}),
    ("retrieval.vectors_by_uuid", {"uuids": _ONE}),
    ("retrieval.group_vectors", {}),
    ("retrieval.text", {"text": "warm", "bm25_k1": 1.2, "bm25_b": 0.75, "k_fetch": 1, "efs": 1}),
    ("retrieval.turns", {"uuids": _ONE}),
    ("retrieval.turns_by_seq", {"seqs": [0]}),
    ("retrieval.fact_sources", {"uuids": _ONE}),
    ("temporal.group_span", {}),
    ("temporal.episode_chunks", {"episode_uuids": _ONE}),
    (
        "temporal.facts_overlapping",
        {"subject_uuids": _ONE, "predicate": "", "range_start": None, "range_end": None},
    ),
    ("graph.turns_with_terms", {"terms": ["warm"], "limit": 1}),
    ("graph.turn", {"episode_uuid": "\x00"}),
    ("graph.turns_containing", {"needles": ["warm"]}),
    ("graph.entity_turns", {"entity_uuid": "\x00", "terms": ["warm"], "limit": 1}),
    ("graph.spoken_turns", {"speaker": "\x00", "terms": ["warm"], "limit": 1}),
    ("fact.state_current", {"subject_uuids": _ONE, "predicate": ""}),
    ("fact.history", {"subject_uuids": _ONE, "predicate": ""}),
)


def warm_up(runner: Any) -> list[str]:
    """Run each question query once for no group; the names of any that failed (never raises:
    a warm-up that fails leaves the store as usable as before, only colder)."""
    failed = []
    for name, params in QUESTION_OPS:
        try:
            runner.named(name, {"group_id": NOBODY, **params})
        except Exception:  # noqa: BLE001 - see the docstring
            failed.append(name)
    return failed
