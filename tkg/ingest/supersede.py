"""Bi-temporal supersession of one (subject, predicate, qualifier) slot.

A new value of a single-valued predicate closes the current edge — ``invalid_at`` = the new
value's valid time, ``expired_at`` = now — and the new edge gets ``version + 1`` and points to
the edge it supersedes. Re-asserting the current value adds provenance, not a version. A
retraction closes the matching edge with no successor. A fact that arrives late (its valid time
is older than the current one) is inserted in its place in the history. A correction replaces
the current value as if it had never been true. Only the slot itself is ever touched.

Example (inside an ingest transaction)::

    apply_fact(tx, FactWrite(...), single_valued=True, now=utcnow())  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..models import f32_bytes, stable_uuid
from ..stores.base import Runner


@dataclass(frozen=True)
class FactWrite:
    """A resolved fact ready to be written: entity uuids known, valid time decided."""

    group_id: str
    subject_uuid: str
    object_uuid: str
    predicate: str
    qualifier: str
    fact: str
    valid_at: datetime
    episode_uuid: str
    source_ref: str | None
    source_chunk: str | None
    confidence: float
    fact_embedding: list[float]  # of the fact sentence, for fact search (tkg.models.Vector from ingest)
    polarity: str = "assert"  # "assert" | "retract"
    correction: bool = False
    time_text: str | None = None
    extractor: str = "rules"  # who read the fact off the turn: "rules", a model's name, or both
    reference_time: datetime | None = (
        None  # when the turn that states it was said (graphiti-core reads it too)
    )


@dataclass
class SlotOutcome:
    created: list[str] = field(default_factory=list)  # new edge uuids
    # each new edge's vector row, as retrieval.group_vectors returns it (procedures/group_vectors.py)
    vectors: list[dict[str, Any]] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)  # edges closed by a newer value
    retracted: list[str] = field(default_factory=list)  # edges closed with no successor
    reasserted: list[str] = field(default_factory=list)  # edges that gained provenance


def _is_open(row: dict[str, Any]) -> bool:
    return row["invalid_at"] is None and row["expired_at"] is None


def apply_fact(tx: Runner, fw: FactWrite, *, single_valued: bool, now: datetime) -> SlotOutcome:
    """Write one fact into its slot, closing, inserting or re-asserting as the rules say."""
    out = SlotOutcome()
    slot = tx.named(
        "fact.slot",
        {
            "subject_uuid": fw.subject_uuid,
            "group_id": fw.group_id,
            "predicate": fw.predicate,
            "qualifier": fw.qualifier,
        },
    )
    top_version = max((r["version"] or 0 for r in slot), default=0)
    same_object = [r for r in slot if r["object_uuid"] == fw.object_uuid]
    open_same = [r for r in same_object if _is_open(r)]

    if fw.polarity == "retract":
        targets = open_same if (open_same or not single_valued) else [r for r in slot if _is_open(r)]
        for row in targets:
            _close(tx, row["uuid"], fw, invalid_at=max(fw.valid_at, row["valid_at"]), expired_at=now)
            out.retracted.append(row["uuid"])
        return out

    if not single_valued:
        if open_same:
            _provenance(tx, open_same[0]["uuid"], fw)
            out.reasserted.append(open_same[0]["uuid"])
        else:
            prior = max(same_object, key=lambda r: r["version"] or 0, default=None)
            version = (prior["version"] or 0) + 1 if prior else 1
            _create(tx, fw, out, version=version, supersedes=prior["uuid"] if prior else None, now=now)
        return out

    current = next((r for r in slot if _is_open(r)), None)
    if current is not None and current["object_uuid"] == fw.object_uuid:
        _provenance(tx, current["uuid"], fw)
        out.reasserted.append(current["uuid"])
        return out

    if current is not None and fw.correction:
        # the current value was never true: it expires in record time with an empty valid interval,
        # and the corrected value takes over its valid time.
        _close(tx, current["uuid"], fw, invalid_at=current["valid_at"], expired_at=now)
        out.superseded.append(current["uuid"])
        fixed = replace(fw, valid_at=min(fw.valid_at, current["valid_at"]))
        _create(tx, fixed, out, version=top_version + 1, supersedes=current["uuid"], now=now)
        return out

    if current is None or fw.valid_at >= current["valid_at"]:
        if current is not None:
            _close(tx, current["uuid"], fw, invalid_at=fw.valid_at, expired_at=now)
            out.superseded.append(current["uuid"])
        _create(tx, fw, out, version=top_version + 1, supersedes=current["uuid"] if current else None,
                now=now)
        return out

    return _insert_late(tx, fw, slot, top_version, now, out)


def _insert_late(
    tx: Runner, fw: FactWrite, slot: list[dict[str, Any]], top_version: int, now: datetime, out: SlotOutcome
) -> SlotOutcome:
    """A value whose valid time is older than the current one: put it where it belongs."""
    live = [r for r in slot if not (r["invalid_at"] is not None and r["invalid_at"] <= r["valid_at"])]
    containing = next(
        (
            r
            for r in live
            if r["valid_at"] <= fw.valid_at and (r["invalid_at"] is None or fw.valid_at < r["invalid_at"])
        ),
        None,
    )
    if containing is not None and containing["object_uuid"] == fw.object_uuid:
        _provenance(tx, containing["uuid"], fw)
        out.reasserted.append(containing["uuid"])
        return out
    later = [r["valid_at"] for r in live if r["valid_at"] > fw.valid_at]
    until = min(later) if later else None
    if containing is not None:
        # the older version now ends where the late value begins
        _close(tx, containing["uuid"], fw, invalid_at=fw.valid_at, expired_at=containing["expired_at"])
    _create(tx, fw, out, version=top_version + 1, supersedes=containing["uuid"] if containing else None,
            now=now, invalid_at=until, expired_at=None)
    return out


def _create(
    tx: Runner,
    fw: FactWrite,
    out: SlotOutcome,
    *,
    version: int,
    supersedes: str | None,
    now: datetime,
    invalid_at: datetime | None = None,
    expired_at: datetime | None = None,
) -> str:
    uuid = stable_uuid(
        "fact", fw.group_id, fw.subject_uuid, fw.predicate, fw.qualifier, fw.object_uuid,
        str(version),
        fw.episode_uuid,
    )
    tx.named(
        "fact.create",
        {
            "uuid": uuid,
            "group_id": fw.group_id,
            "subject_uuid": fw.subject_uuid,
            "object_uuid": fw.object_uuid,
            "predicate": fw.predicate,
            "fact": fw.fact,
            "fact_embedding": fw.fact_embedding,
            "fact_embedding_f32": f32_bytes(fw.fact_embedding),
            "qualifier": fw.qualifier,
            "episodes": [fw.episode_uuid],
            "source_episode": fw.episode_uuid,
            "source_chunk": fw.source_chunk,
            "source_ref": fw.source_ref,
            "version": version,
            "confidence": fw.confidence,
            "supersedes": supersedes,
            "time_text": fw.time_text,
            "extractor": fw.extractor,
            "valid_at": fw.valid_at,
            "invalid_at": invalid_at,
            "created_at": now,
            "expired_at": expired_at,
            "reference_time": fw.reference_time,
        },
    )
    out.created.append(uuid)
    out.vectors.append({"uuid": uuid, "episode_uuid": fw.episode_uuid, "kind": "fact", "text": fw.fact,
                        "speaker": "", "source_ref": fw.source_ref, "valid_at": fw.valid_at,
                        "time_start": None, "time_end": None, "embedding": fw.fact_embedding})
    return uuid


def _close(
    tx: Runner, uuid: str, fw: FactWrite, *, invalid_at: datetime | None, expired_at: datetime | None
) -> None:
    """End a version of ``fw``'s slot (every version of a slot has ``fw``'s subject)."""
    tx.named("fact.close", {"uuid": uuid, "subject_uuid": fw.subject_uuid, "group_id": fw.group_id,
                            "invalid_at": invalid_at, "expired_at": expired_at})


def _provenance(tx: Runner, uuid: str, fw: FactWrite) -> None:
    tx.named("fact.add_provenance", {"uuid": uuid, "subject_uuid": fw.subject_uuid, "group_id": fw.group_id,
                                     "episode_uuid": fw.episode_uuid})
