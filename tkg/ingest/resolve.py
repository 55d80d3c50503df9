"""Entity resolution during an ingest: a surface name finds its entity (`tkg.entities`) or
creates one, and the changes are staged per transaction.

Example::

    >>> idx = EntityResolver("g1", [])
    >>> a = idx.resolve("Dana Okafor", "person")
    >>> idx.resolve("Dana", "person").uuid == a.uuid
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..entities import EntityIndex, ResolvedEntity, entity_name
from ..models import stable_uuid
from ..text import normalize_name

if TYPE_CHECKING:
    from ..stores.base import Runner


class EntityResolver(EntityIndex):
    """The entities of one group, held in memory during an ingest, with the changes it makes.

    Changes are staged per transaction: :meth:`commit` keeps them once the transaction
    committed, :meth:`rollback` forgets them when it did not.
    """

    def __init__(self, group: str, rows: list[dict[str, Any]]) -> None:
        super().__init__(group, rows)
        self._staged: list[ResolvedEntity] = []
        self._snapshot: tuple[dict[str, ResolvedEntity], dict[str, str]] | None = None

    @classmethod
    def read(cls, runner: Runner, group: str) -> EntityResolver:
        """The group's entities from its anchor, ready to resolve and stage."""
        return cls(group, runner.named("entity.list", {"group_id": group}))

    # -- changes ----------------------------------------------------------------------------
    def resolve(self, surface: str, type_: str = "thing") -> ResolvedEntity:
        """The entity for a surface name, creating (staged) or extending it as needed."""
        surface = entity_name(surface)
        self._begin()
        found = self.find(surface, type_)
        if found is None:
            ent = ResolvedEntity(
                stable_uuid("entity", self.group, normalize_name(surface)), surface, type_, [], is_new=True
            )
            self._add(ent)
            self._staged.append(ent)
            return ent
        key = normalize_name(surface)
        if key != normalize_name(found.name) and surface not in found.aliases:
            if len(key) > len(normalize_name(found.name)) and key.startswith(normalize_name(found.name)):
                # the fuller name becomes canonical; the short one stays an alias ("Dana" → "Dana Okafor")
                found.aliases.append(found.name)
                found.name = surface
            else:
                found.aliases.append(surface)
            found.aliases_changed = True
            self._keys[key] = found.uuid
            if found not in self._staged:
                self._staged.append(found)
        if found.type == "thing" and type_ != "thing":
            found.type = type_
        return found

    def unwritten(self) -> list[ResolvedEntity]:
        """Entities created or renamed since the last :meth:`mark_written` (to write in this transaction)."""
        return [e for e in self._staged if e.is_new or e.aliases_changed]

    def staged(self) -> list[str]:
        """Uuids of the entities created or renamed in the open transaction."""
        return [e.uuid for e in self._staged]

    def mark_written(self) -> None:
        """The pending changes are in the open transaction; :meth:`rollback` still undoes them."""
        for ent in self._staged:
            ent.is_new = False
            ent.aliases_changed = False

    def _begin(self) -> None:
        if self._snapshot is None:
            self._snapshot = (
                {
                    u: ResolvedEntity(e.uuid, e.name, e.type, list(e.aliases))
                    for u, e in self._by_uuid.items()
                },
                dict(self._keys),
            )

    def commit(self) -> None:
        for ent in self._staged:
            ent.is_new = False
            ent.aliases_changed = False
        self._staged.clear()
        self._snapshot = None

    def rollback(self) -> None:
        if self._snapshot is not None:
            self._by_uuid, self._keys = self._snapshot
        self._staged.clear()
        self._snapshot = None
