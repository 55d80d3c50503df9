"""Per-group reads kept across questions until the group is written again.

Every question needs its group's entity list and speakers, two reads that cost several ms on a large
Kuzu store and change only when an ingest adds turns or entities. Each anchoring transaction
(``group.anchor``, after every ingest batch, in any process) stores a fresh random stamp for its group
in ``TkgMeta``; a question reads that one key and reuses what this process read under the same stamp;
adopting nodes left without an anchor (``group.adopt``, on every open) gives the group another one. A
group without a stamp (deleted, written by an older tkg, never written) is always read fresh. The stamp
changes in the same transaction that makes new nodes visible to anchored reads, so a cached list is
never older than what those reads would see. An ingest with a cache (``Memory``'s) reads both lists
inside its anchoring transaction and keeps them under the stamp it wrote, so the first question after an
ingest finds them too (write-through).

Example::

    >>> cache = GroupCache()
    >>> cache.get("g", "entities", "s1", lambda: ["Priya"])
    ['Priya']
    >>> cache.get("g", "entities", "s1", lambda: ["changed"])  # same stamp: kept
    ['Priya']
    >>> cache.get("g", "entities", "s2", lambda: ["Priya", "Marco"])  # the group was written
    ['Priya', 'Marco']
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .stores.base import Runner

T = TypeVar("T")
# what one written vector row (its vector as float32 bytes) weighs in a GroupCache, counted in
# entities (about half a kilobyte each)
ROW_WEIGHT = 5


@dataclass(frozen=True)
class Written:
    """Vector rows this process wrote to a group (kept as ``"written"`` under the stamp of the
    anchoring that made them visible), since the group stood at stamp ``since`` (None: since it was
    empty). With the vectors kept under ``since``, they are the group's vectors under that stamp,
    without a read (procedures/group_vectors.py)."""

    since: str | None
    rows: tuple[dict[str, Any], ...]

    def __len__(self) -> int:  # what the cache weighs it by: a row's vector, some hundred float32 in
        return ROW_WEIGHT * len(self.rows)  # bytes, and its texts hold what about 5 entities hold


def anchor(tx: Runner, group: str, uuids: list[str]) -> str:
    """Link committed turns and entities to the group's anchor and give the group a new stamp.

    A random stamp, so no earlier write of any group had it (a deleted group may be recreated).
    Returns the stamp.
    """
    new = new_stamp()
    tx.named("group.anchor", {"group_id": group, "uuids": uuids, "stamp": new})
    return new


def new_stamp() -> str:
    """A stamp no earlier write of any group had (random)."""
    return uuid.uuid4().hex


def read_speakers(runner: Runner, group: str) -> dict[str, int]:
    """Who speaks in the group and how many turns each, most first."""
    return {str(r["speaker"]): int(r["turns"]) for r in runner.named("graph.speakers", {"group_id": group})}


def stamp(runner: Runner, group: str) -> str | None:
    """The group's current stamp (``TkgMeta`` key ``group:<id>``), None when it has none."""
    rows = runner.named("group.stamp", {"group_id": group})
    return str(rows[0]["stamp"]) if rows else None


class GroupCache:
    """(group, name) → value read under a stamp, least recently used first out.

    Bounded by entries (``size``) and by the items the values hold (``weight``: an entity list
    weighs its entities, about half a kilobyte each), so a few very large groups cannot fill memory.
    """

    def __init__(self, size: int = 2048, weight: int = 250_000) -> None:
        self.size = size
        self.weight = weight
        self._entries: OrderedDict[tuple[str, str], tuple[str, Any, int]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, group: str, name: str, stamp: str | None, make: Callable[[], T]) -> T:
        """The value kept for ``(group, name)`` under ``stamp``, else ``make()`` (kept when stamped)."""
        if stamp is None:
            return make()
        key = (group, name)
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None and hit[0] == stamp:
                self._entries.move_to_end(key)
                return hit[1]
        value = make()
        self.put(group, name, stamp, value)
        return value

    def kept(self, group: str, name: str) -> tuple[str, Any] | None:
        """The stamp and value last kept for ``(group, name)`` (None: nothing kept)."""
        with self._lock:
            hit = self._entries.get((group, name))
            return None if hit is None else (hit[0], hit[1])

    def latest(self, group: str, name: str) -> Any | None:
        """The value last kept for ``(group, name)``, under whatever stamp (None: nothing kept): what
        a reader may update from rather than read whole again."""
        with self._lock:
            hit = self._entries.get((group, name))
            return None if hit is None else hit[1]

    def put(self, group: str, name: str, stamp: str, value: Any) -> None:
        """Keep ``value`` for ``(group, name)`` under ``stamp`` (what was read under that stamp)."""
        weight = len(value) + 1 if hasattr(value, "__len__") else 1
        with self._lock:
            self._drop((group, name))
            self._entries[(group, name)] = (stamp, value, weight)
            self._held += weight
            while self._entries and (len(self._entries) > self.size or self._held > self.weight):
                self._drop(next(iter(self._entries)))

    def forget(self, group: str | None = None) -> None:
        """Drop one group's entries, or all (after a raw Cypher write, which sets no stamp)."""
        with self._lock:
            for key in [k for k in self._entries if group is None or k[0] == group]:
                self._drop(key)

    def _drop(self, key: tuple[str, str]) -> None:
        gone = self._entries.pop(key, None)
        if gone is not None:
            self._held -= gone[2]
