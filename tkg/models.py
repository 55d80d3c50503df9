"""The data every layer shares: episodes, chunks, entities, facts, answers.

Plain dataclasses, no store types: adapters convert to and from these, so
domain code reads the same objects whichever backend holds the graph.
All datetimes are timezone-aware UTC.
"""

from __future__ import annotations

import hashlib
import struct
import uuid as _uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from .errors import ConfigError

# progress callbacks: a tick is told how many more items are done (a tqdm bar's ``update``); a
# progress maker gives the tick of a new bar for a stage, ``progress(label, total)`` (or None)
Tick = Callable[[int], None]
Progress = Callable[[str, int], Tick | None]

Mode = Literal["single_fact", "relation_chain", "latest_version", "time_anchored", "long_form", "aggregation"]
MODES: tuple[str, ...] = (
    "single_fact",
    "relation_chain",
    "latest_version",
    "time_anchored",
    "long_form",
    "aggregation",
)

# Deterministic uuids: the same input always yields the same id, which is what makes
# re-ingest idempotent and lets tests name nodes without reading them back.
_NAMESPACE = _uuid.UUID("6f1c1f0e-6b1e-4d0b-9a43-3f7f0b7f2a10")


class Vector(list[float]):
    """An embedding to be stored. A plain list to every reader; the Kuzu adapter sends it as text
    that its statements cast (``CAST(x AS FLOAT[])``), which Kuzu binds faster than a list
    parameter (tools/kuzu_vector_param_cost.py; BENCHMARKS.md).

    >>> Vector([0.5, 0.25]) == [0.5, 0.25]
    True
    """


class F32Bytes(bytes):
    """A stored embedding's compact copy (`f32_bytes`): bytes, of a type an adapter can tell apart."""


def f32_bytes(vector: Sequence[float] | None) -> F32Bytes | None:
    """A stored embedding's compact copy: its floats as float32, little-endian, 4 bytes each. A store
    keeps it beside the float list (which its vector index and graphiti-core read), so a whole
    group's vectors are read as a few bytes a float rather than as a list of boxed floats; the
    float32 values are the ones an in-memory matrix of the list holds (procedures/group_vectors.py).

    >>> bytes(f32_bytes([1.0, -0.5]))
    b'\\x00\\x00\\x80?\\x00\\x00\\x00\\xbf'
    >>> f32_bytes(None) is None
    True
    """
    return None if vector is None else F32Bytes(struct.pack(f"<{len(vector)}f", *vector))


def stable_uuid(*parts: str) -> str:
    """A uuid5 over the parts, e.g. ``stable_uuid("episode", group, content_hash)``."""
    return str(_uuid.uuid5(_NAMESPACE, "\x1f".join(parts)))


def content_hash(*parts: str) -> str:
    """sha256 hex of the parts joined by a unit separator."""
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


MAX_GROUP_CHARS = 1_000  # a key the stores index; Neo4j refuses index entries over ~32 KB


def group_name(value: object, what: str = "group") -> str:
    """A group (tenant) name as every entry point takes it: text, surrounding whitespace removed.

    The loaders strip every name a file gives (speakers, refs, a JSONL line's group), so the
    ``--group`` option and the API strip a group too: ``" B "`` is group ``B`` however it arrives.

    >>> group_name(" B ")
    'B'
    """
    if not isinstance(value, str):
        raise ConfigError(
            f"{what} must be a string naming a group, not {type(value).__name__} ({value!r:.60})"
        )
    name = value.strip()
    if not name:
        raise ConfigError(f"{what} must be a non-empty name, not {value!r:.60}")
    if len(name) > MAX_GROUP_CHARS or "\x00" in name:
        raise ConfigError(f"{what} must be at most {MAX_GROUP_CHARS:,} characters without NUL")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ConfigError(f"{what} contains invalid unicode (a lone surrogate escape)") from None
    return name


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime | None) -> datetime | None:
    """Normalise a datetime to aware UTC; naive values are taken to be UTC already."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


@dataclass(frozen=True)
class EpisodeInput:
    """One turn or document as a loader yields it, before anything is written."""

    group: str
    speaker: str
    text: str
    timestamp: datetime
    source_ref: str | None = None
    source_description: str = ""
    listeners: tuple[str, ...] = ()  # who the speaker is talking to, for second-person facts
    session: str | None = None  # e.g. "session_3" for LoCoMo
    position: str = ""  # where in the file it came from, for error messages

    def digest(self) -> str:
        return content_hash(
            self.group, self.speaker, self.text, self.timestamp.isoformat(), self.source_ref or ""
        )


@dataclass
class Episode:
    uuid: str
    group_id: str
    name: str
    content: str
    speaker: str
    valid_at: datetime
    created_at: datetime
    source: str = "message"
    source_description: str = ""
    source_ref: str | None = None
    content_hash: str = ""
    seq: int = 0  # order within the group


@dataclass
class Chunk:
    uuid: str
    group_id: str
    episode_uuid: str
    kind: Literal["turn", "sentence"]
    text: str
    seq: int  # order within the episode (0 = the whole turn)
    valid_at: datetime
    speaker: str = ""
    source_ref: str | None = None
    embedding: list[float] | None = None
    # relative time expressions found in the text, resolved against valid_at
    time_text: str | None = None
    time_start: datetime | None = None
    time_end: datetime | None = None


@dataclass
class Entity:
    uuid: str
    group_id: str
    name: str
    type: str = "thing"  # person, place, organisation, pet, thing, literal, date
    aliases: list[str] = field(default_factory=list)
    summary: str = ""
    name_embedding: list[float] | None = None
    created_at: datetime | None = None


@dataclass
class Fact:
    """A versioned subject–predicate–object edge (`RELATES_TO`).

    `valid_at`/`invalid_at` are valid time (when it was true in the world);
    `created_at`/`expired_at` are record time (when tkg believed it).
    """

    uuid: str
    group_id: str
    subject: str  # entity name (canonical)
    predicate: str  # from the closed vocabulary
    object: str  # entity name or literal
    fact: str  # a readable sentence
    valid_at: datetime | None
    invalid_at: datetime | None = None
    created_at: datetime | None = None
    expired_at: datetime | None = None
    version: int = 1
    confidence: float = 1.0
    qualifier: str = ""  # e.g. the category of `favorite` ("band", "food")
    episodes: list[str] = field(default_factory=list)  # source episode uuids
    source_ref: str | None = None  # the dia_id or ref of the turn that said it
    source_chunk: str | None = None
    supersedes: str | None = None  # uuid of the edge this one replaced
    subject_uuid: str | None = None
    object_uuid: str | None = None
    time_text: str | None = None

    @property
    def current(self) -> bool:
        return self.invalid_at is None and self.expired_at is None

    @property
    def unnamed_object(self) -> bool:
        """The object is a relative never named, kept under its owner's name ("Marisol's partner"):
        an edge that says someone is there, not who."""
        return self.object.lower().startswith(f"{self.subject.lower()}'s ") and " " not in self.object[
            len(self.subject) + 3:]

    @classmethod
    def from_row(cls, r: Mapping[str, Any], group: str) -> Fact:
        """A fact from a row of the `fact.*` / `walk.*` queries (the columns they all return)."""
        return cls(
            uuid=r["uuid"],
            group_id=group,
            subject=r["subject"],
            predicate=r["predicate"],
            object=r["object"],
            fact=r.get("fact") or "",
            valid_at=r.get("valid_at"),
            invalid_at=r.get("invalid_at"),
            created_at=r.get("created_at"),
            expired_at=r.get("expired_at"),
            version=r.get("version") or 1,
            confidence=r.get("confidence") or 0.0,
            qualifier=r.get("qualifier") or "",
            episodes=list(r.get("episodes") or []),
            source_ref=r.get("source_ref"),
            source_chunk=r.get("source_chunk"),
            supersedes=r.get("supersedes"),
            subject_uuid=r.get("subject_uuid"),
            object_uuid=r.get("object_uuid"),
            time_text=r.get("time_text"),
        )

    def to_dict(self) -> dict[str, Any]:
        return _jsonable(asdict(self))


@dataclass
class Evidence:
    """A piece of what was said, pointing back to the exact turn."""

    source_ref: str | None
    episode: str  # episode uuid
    text: str
    valid_at: datetime | None
    score: float
    group: str
    speaker: str = ""
    kind: str = "turn"  # turn, sentence, fact
    fact: str | None = None  # the fact uuid when the evidence came through an edge

    def to_dict(self) -> dict[str, Any]:
        return _jsonable(asdict(self))


@dataclass
class Answer:
    question: str
    answer: str
    abstained: bool
    mode: str
    procedure: str
    evidence: list[Evidence]
    trace: dict[str, Any]
    group: str
    facts: list[Fact] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.answer,
            "abstained": self.abstained,
            "mode": self.mode,
            "procedure": self.procedure,
            "group": self.group,
            "evidence": [e.to_dict() for e in self.evidence],
            "facts": [f.to_dict() for f in self.facts],
            "trace": _jsonable(self.trace),
        }


NO_INFORMATION = "No information available"


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
