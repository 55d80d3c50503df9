"""The entities of one group and how a surface name finds one: one real-world thing, one Entity node.

Names are matched by their normalised key first ("St. Anne's" == "St Anne's"), then by the
alias table, then — for people — by a unique first-name or short-form match ("Dana" ↔
"Dana Okafor", "Meg" ↔ "Megan"), then by rapidfuzz similarity for spelling variants. Groups
never share an index, so a name never finds another tenant's entity.

This is the read side, which questions use (`tkg.context.Context.entities`, the planners'
mentions); an ingest resolves and stages new entities with `tkg.ingest.resolve.EntityResolver`.

Example::

    >>> idx = EntityIndex("g1", [{"uuid": "u1", "name": "Dana Okafor", "type": "person"}])
    >>> idx.find("Dana", "person").name
    'Dana Okafor'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz, process

from .text import normalize_name

if TYPE_CHECKING:
    from .stores.base import Runner

FUZZY_THRESHOLD = 92.0  # token-sort ratio; above it two names are spelling variants
_PERSONLIKE = {"person", "pet"}
_LITERAL = {"literal", "date"}
# "Maddie's parents", "Tariq's sister": a relative named by its owner, never a longer form of the owner's name
_OWNED = re.compile(r"\w['’]s\s+\w")
_GENERIC_ORG = {
    "hospital", "clinic", "university", "college", "school", "academy", "inc", "ltd", "llc", "co",
    "company", "corp", "group", "bakery", "cafe", "restaurant", "bar", "pub", "hotel", "gym", "club",
    "church", "library", "museum", "park", "station", "centre", "center", "studio", "shop", "store",
}


def entity_name(surface: str) -> str:
    """The name an entity created from ``surface`` gets: its words, single-spaced."""
    return " ".join(surface.split())


@dataclass
class ResolvedEntity:
    uuid: str
    name: str
    type: str
    aliases: list[str] = field(default_factory=list)
    is_new: bool = False
    aliases_changed: bool = False


class EntityIndex:
    """The entities of one group, to look names up in (read only; an ingest stages its changes in
    the `tkg.ingest.resolve.EntityResolver` subclass)."""

    def __init__(self, group: str, rows: list[dict[str, Any]]) -> None:
        self.group = group
        self._by_uuid: dict[str, ResolvedEntity] = {}
        self._keys: dict[str, str] = {}  # normalised name or alias → uuid
        for row in rows:
            ent = ResolvedEntity(
                row["uuid"], row["name"], row.get("type") or "thing", list(row.get("aliases") or [])
            )
            self._add(ent)

    # -- lookups ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._by_uuid)

    def names(self) -> list[str]:
        return [e.name for e in self._by_uuid.values()]

    def aliases(self) -> dict[str, str]:
        """alias → canonical name, for the hop planner."""
        return {a: e.name for e in self._by_uuid.values() for a in e.aliases}

    def knows(self, name: str) -> bool:
        """Whether ``name`` is exactly (after normalising) an entity's name or alias here."""
        return normalize_name(name) in self._keys

    def get(self, uuid: str) -> ResolvedEntity | None:
        return self._by_uuid.get(uuid)

    def find(self, surface: str, type_: str = "thing") -> ResolvedEntity | None:
        """The existing entity a surface name refers to, or None."""
        key = normalize_name(surface)
        if not key:
            return None
        hit = self._keys.get(key)
        if hit:
            return self._by_uuid[hit]
        if type_ in _LITERAL:
            return None
        owned = bool(_OWNED.search(surface))
        # a relative named by its owner and the owner are two people ("Maddie" is not "Maddie's
        # parents"): neither is the other's short form, nor its spelling variant ("St Anne's" still
        # finds "St Anne's Hospital")
        candidates = [e for e in self._by_uuid.values() if e.type not in _LITERAL and not (
            (type_ in _PERSONLIKE or e.type in _PERSONLIKE) and bool(_OWNED.search(e.name)) != owned)]
        if type_ in _PERSONLIKE:
            short = self._short_form(
                key, [e for e in candidates if e.type in _PERSONLIKE or e.type == "thing"]
            )
            if short:
                return short
        org = self._org_form(key, [e for e in candidates if e.type not in _PERSONLIKE])
        if org:
            return org
        choices = {e.uuid: normalize_name(e.name) for e in candidates}
        best = process.extractOne(key, choices, scorer=fuzz.token_sort_ratio, score_cutoff=FUZZY_THRESHOLD)
        return self._by_uuid[best[2]] if best else None

    def _short_form(self, key: str, people: list[ResolvedEntity]) -> ResolvedEntity | None:
        """A unique person whose name starts with this one ("dana" → "dana okafor", "meg" → "megan")."""
        if len(key) < 3:
            return None
        matches = []
        for ent in people:
            full = normalize_name(ent.name)
            first = full.split(" ")[0]
            if full.startswith(key + " ") or key.startswith(full + " "):
                matches.append(ent)
            elif " " not in key and len(key) >= 3 and first != key and first.startswith(key):
                matches.append(ent)
        return matches[0] if len(matches) == 1 else None

    def _org_form(self, key: str, things: list[ResolvedEntity]) -> ResolvedEntity | None:
        """A unique place or organisation that differs only by a generic word ("st anne" ~ "st anne
        hospital")."""
        matches = []
        for ent in things:
            full = normalize_name(ent.name)
            longer, shorter = (full, key) if len(full) > len(key) else (key, full)
            if longer.startswith(shorter + " ") and set(longer[len(shorter) + 1 :].split()) <= _GENERIC_ORG:
                matches.append(ent)
        return matches[0] if len(matches) == 1 else None

    def _add(self, ent: ResolvedEntity) -> None:
        self._by_uuid[ent.uuid] = ent
        self._keys[normalize_name(ent.name)] = ent.uuid
        for alias in ent.aliases:
            self._keys.setdefault(normalize_name(alias), ent.uuid)


def read_entities(runner: Runner, group: str) -> EntityIndex:
    """The group's entities from its anchor, as questions match names against them."""
    return EntityIndex(group, runner.named("entity.list", {"group_id": group}))
