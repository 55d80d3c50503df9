"""The read queries a question runs, with parameters that match nothing, to compile their plans.

Neo4j plans a statement the first time it sees its text with those parameter types, and keeps
the plan in a server-wide cache; on a fresh server the first questions each paid for planning a
dozen statements. Running these once when a store opens (against a group that cannot exist, so
nothing is read) moves that cost to the open, and once more after a bulk load, whose new rows make
the server plan every statement again. Each runs with the types a question sends (a time is a
datetime, never null). The list follows what `tkg bench qa` and `tkg bench locomo` showed
questions running, most frequent first (tests/test_warmup.py checks that it covers them).

Neo4j 5 also keys a plan by the size of each list or text parameter, in buckets (0, 1, 2–10, 11–100,
101–1000, …: `size_bucket`): a question sending 14 fact ids, or a group name of 7 characters,
where the warm-up sent one id and a 12-character name, was planned anew during the question
(BENCHMARKS.md, session 19). So a parameter may list the sizes questions send (a tuple of values),
and the whole list runs once for each size bucket of the store's group names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from itertools import product
from typing import Any

NOBODY = "\x00tkg-warm-up"  # no group has this id: group names are stripped, non-empty text
_ONE = ["\x00"]
_WHEN = datetime(2000, 1, 1, tzinfo=UTC)
# keys a sample group's real ones replace (`sample`): an entity, a fact, a turn, a predicate, a time;
# the ids as long as the uuids they stand for, the predicate as long as the vocabulary's names
ENTITY, FACT, TURN = (f"\x00{what}".ljust(36, "-") for what in ("entity", "fact", "turn"))
PREDICATE = "\x00predicate"
_TERMS = ["warm", "up"]  # a question's terms: a few
_TEXT = "warm up the question plans"  # a question's text: a sentence


def size_bucket(n: int) -> int:
    """The bucket of a list's or text's size that Neo4j 5 plans for: 0, 1, 10 (2–10), 100, …

    >>> [size_bucket(n) for n in (0, 1, 2, 10, 11, 100, 101)]
    [0, 1, 10, 10, 100, 100, 1000]
    """
    if n <= 1:
        return n
    bucket = 10
    while bucket < n:
        bucket *= 10
    return bucket


def _sized(key: str) -> tuple[list[str], ...]:
    """A list of ``key`` in each size questions send for a list of ids: one, a few, dozens."""
    return ([key], [key] * 2, [key] * 11)

QUESTION_OPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("group.stamp", {}),
    ("entity.list", {}),
    ("graph.speakers", {}),
    ("group.turns", {}),
    ("retrieval.group_vector_ids", {}),
    ("retrieval.vectors_by_uuid", {"uuids": _ONE}),
    ("retrieval.group_vectors", {}),
    ("retrieval.text", {"text": _TEXT, "bm25_k1": 1.2, "bm25_b": 0.75, "k_fetch": 1, "efs": 1}),
    ("retrieval.turns", {"uuids": [TURN]}),
    ("retrieval.turns_by_seq", {"seqs": [0]}),
    ("retrieval.fact_sources", {"uuids": _sized(FACT)}),
    ("temporal.group_span", {}),
    ("temporal.episode_chunks", {"episode_uuids": _sized(TURN)}),
    (
        "temporal.facts_overlapping",
        {"subject_uuids": [ENTITY], "predicate": PREDICATE, "range_start": _WHEN, "range_end": _WHEN},
    ),
    ("graph.turns_with_terms", {"terms": _TERMS, "limit": 1}),
    ("graph.turn", {"episode_uuid": TURN}),
    ("graph.turns_containing", {"needles": _TERMS}),
    ("graph.entity_turns", {"entity_uuid": ENTITY, "terms": _TERMS, "limit": 1}),
    ("graph.spoken_turns", {"speaker": "\x00speaker", "terms": _TERMS, "limit": 1}),
    ("fact.state_current", {"subject_uuids": [ENTITY], "predicate": (PREDICATE, "")}),  # "": every slot
    ("fact.history", {"subject_uuids": [ENTITY], "predicate": (PREDICATE, "")}),  # "": any
    ("fact.state_as_of", {"subject_uuids": [ENTITY], "predicate": PREDICATE, "as_of": _WHEN}),
    ("aggregate.history", {"subject_uuids": [ENTITY], "predicates": ([PREDICATE], [PREDICATE] * 2)}),
    ("aggregate.history_all", {"predicates": [PREDICATE]}),
    ("graph.edges_between", {"pair": [ENTITY, ENTITY]}),
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


def warm_up(runner: Any, keys: dict[Any, Any] | None = None, groups: Iterable[str] = ()) -> list[str]:
    """Run each question query for no group (or, for a key lookup, with ``keys`` from `sample`:
    reads only, one group's few rows), in every size it lists, once per size bucket of the names
    of ``groups`` (of the short and the long bucket when none is given); the names of any that
    failed (never raises: a warm-up that fails leaves the store as usable as before, only colder)."""
    failed: list[str] = []
    for name, run in runs(keys, groups):
        try:
            runner.named(name, run)
        except Exception:  # noqa: BLE001 - see the docstring
            failed.append(name)
    return list(dict.fromkeys(failed))


def runs(
    keys: dict[Any, Any] | None = None, groups: Iterable[str] = ()
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The statements `warm_up` runs, with their parameters."""
    named = [*groups, *([keys["group_id"]] if keys else [])]
    sampled = size_bucket(len(keys["group_id"])) if keys else None
    for bucket in sorted({size_bucket(len(g)) for g in named} or {10, 100}):
        nobody = NOBODY if size_bucket(len(NOBODY)) == bucket else NOBODY.ljust(bucket, "-")[:bucket]
        for name, params in QUESTION_OPS:
            for choice in product(*(v if isinstance(v, tuple) else (v,) for v in params.values())):
                run = {"group_id": nobody, **dict(zip(params, choice, strict=True))}
                if keys and sampled == bucket and any(v in keys for v in _keys(run)):
                    run = {k: _real(v, keys) for k, v in {**run, "group_id": keys["group_id"]}.items()}
                yield name, run


def signature(name: str, params: dict[str, Any]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """What Neo4j keys a statement's plan by: its text (here its name) and each parameter's type,
    with the size bucket of a list or a text.

    >>> signature("fact.history", {"group_id": "conv-26", "predicate": "", "subject_uuids": ["a"]})
    ('fact.history', (('group_id', 'str/10'), ('predicate', 'str/0'), ('subject_uuids', 'list/1')))
    """
    def kind(v: Any) -> str:
        sized = isinstance(v, list | str)
        return f"{type(v).__name__}/{size_bucket(len(v))}" if sized else type(v).__name__

    return name, tuple(sorted((k, kind(v)) for k, v in params.items()))


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
