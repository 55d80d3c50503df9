"""The closed predicate vocabulary: what a fact edge may say, and how text names it.

The vocabulary lives in data (`predicates.toml` beside this module) so users can
add or tune predicates without code: `PredicateRegistry.load(Path("mine.toml"))`
merges a user file over the built-in one. The extractor reads each predicate's
verbs and nouns; the hop planner reads its `phrases` to map question words to
edges; ingest reads `cardinality` to decide what a new value supersedes.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

from tkg.errors import ConfigError, NotFound
from tkg.text import normalize_name

BUILTIN_PATH = Path(__file__).with_name("predicates.toml")
CARDINALITIES = ("single", "multi")
OBJECT_TYPES = ("entity", "person", "place", "organisation", "literal", "date", "pet", "thing")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_CONTROL_KEYS = ("replace", "disabled")


@dataclass(frozen=True)
class Predicate:
    """One relation of the vocabulary (see predicates.toml for what each field means)."""

    name: str
    cardinality: str = field(metadata={"one_of": CARDINALITIES})
    object_type: str = field(metadata={"one_of": OBJECT_TYPES})
    subject_type: str = field(default="person", metadata={"one_of": OBJECT_TYPES})
    description: str = ""
    symmetric: bool = False
    inverse: str = ""
    phrases: tuple[str, ...] = ()
    inverse_phrases: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ()
    retract_verbs: tuple[str, ...] = ()
    together_verbs: tuple[str, ...] = ()
    together_retract_verbs: tuple[str, ...] = ()
    nouns: tuple[str, ...] = ()
    inverse_nouns: tuple[str, ...] = ()
    possessive: tuple[str, ...] = ()
    vocabulary: tuple[str, ...] = ()
    negated: str = "retract"
    proper_object: bool = False
    max_object_words: int = 5
    qualifier: str = ""

    @property
    def single(self) -> bool:
        return self.cardinality == "single"

    def slot_key(self, subject_uuid: str, qualifier: str = "", obj: str | None = None) -> tuple[str, ...]:
        """The slot a value of this predicate occupies; a new assertion in a taken slot supersedes.

        A single-valued predicate has one slot per (subject, predicate, qualifier): "lives_in" for
        Priya holds one city at a time, "favorite" one value per category. A multi-valued predicate
        has one slot per object as well, so values accumulate and only the same object reaffirms
        or retracts (pass `obj`; it is normalised).

        >>> REGISTRY.get("favorite").slot_key("u1", "band")
        ('u1', 'favorite', 'band')
        >>> REGISTRY.get("likes").slot_key("u1", obj="The Jazz")
        ('u1', 'likes', '', 'jazz')
        """
        if self.single:
            return (subject_uuid, self.name, qualifier)
        return (subject_uuid, self.name, qualifier, normalize_name(obj or ""))


# what a table may hold and how each field is checked, read off the fields (types are strings here)
_ALLOWED = {f.name for f in fields(Predicate)} - {"name"}
_REQUIRED = tuple(f.name for f in fields(Predicate) if f.default is MISSING and f.name != "name")
_CHOICES = {f.name: f.metadata["one_of"] for f in fields(Predicate) if "one_of" in f.metadata}
_LIST_FIELDS = frozenset(f.name for f in fields(Predicate) if f.type == "tuple[str, ...]")
_FLAGS = frozenset(f.name for f in fields(Predicate) if f.type == "bool")


class PredicateRegistry:
    """An immutable, validated set of predicates, keyed by name.

    >>> reg = PredicateRegistry.load()
    >>> reg.is_single("lives_in"), reg.get("sibling_of").symmetric
    (True, True)
    """

    def __init__(self, predicates: Mapping[str, Predicate], source: str = "") -> None:
        self._preds = dict(predicates)
        self.source = source

    @classmethod
    def load(cls, extra_path: Path | None = None) -> PredicateRegistry:
        """The built-in vocabulary, with `extra_path` (a user TOML file) merged over it."""
        raw = _read_toml(BUILTIN_PATH)
        sources = [str(BUILTIN_PATH)]
        if extra_path is not None:
            extra = _read_toml(Path(extra_path))
            raw = _merge(raw, extra, str(extra_path))
            sources.append(str(extra_path))
        return cls.from_dict(raw, source=" + ".join(sources))

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], source: str = "<dict>") -> PredicateRegistry:
        """Validate a parsed TOML document (`{"predicates": {name: {...}}}`) into a registry."""
        unknown = set(raw) - {"predicates"}
        if unknown:
            raise ConfigError(
                f"{source}: unknown top-level key(s) {sorted(unknown)}; expected [predicates.NAME] tables"
            )
        tables = raw.get("predicates")
        if not isinstance(tables, dict) or not tables:
            raise ConfigError(f"{source}: no [predicates.NAME] tables found")
        preds = {
            name: _build(name, table, source) for name, table in tables.items() if not table.get("disabled")
        }
        for p in preds.values():
            if p.negated not in ("retract", "ignore") and p.negated not in preds:
                raise ConfigError(
                    f"{source}: predicates.{p.name}.negated = {p.negated!r} is neither 'retract', 'ignore' "
                    "nor a known predicate"
                )
        return cls(preds, source)

    def __getitem__(self, name: str) -> Predicate:
        return self.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._preds

    def __iter__(self) -> Iterator[str]:
        return iter(self._preds)

    def __len__(self) -> int:
        return len(self._preds)

    def __hash__(self) -> int:  # identity: compiled extractor patterns are cached per registry
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def get(self, name: str) -> Predicate:
        """The predicate called `name`; raises NotFound (naming the known ones) if there is none."""
        try:
            return self._preds[name]
        except KeyError:
            raise NotFound(f"unknown predicate {name!r}; known: {', '.join(sorted(self._preds))}") from None

    def names(self) -> list[str]:
        return list(self._preds)

    def predicates(self) -> list[Predicate]:
        return list(self._preds.values())

    def is_single(self, name: str) -> bool:
        return self.get(name).single

    def lexicon(self) -> list[tuple[str, str, bool]]:
        """(phrase, predicate, inverse?) for every question phrase, longest phrase first.

        The hop planner scans a question for these: "home town" -> from_place before "home" -> lives_in.
        """
        rows = [(normalize_name(ph), p.name, False) for p in self._preds.values() for ph in p.phrases]
        rows += [(normalize_name(ph), p.name, True) for p in self._preds.values() for ph in p.inverse_phrases]
        return sorted(set(rows), key=lambda r: (-len(r[0]), r[0], r[1]))


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"predicate file {path} does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None


def _merge(base: dict[str, Any], extra: dict[str, Any], source: str) -> dict[str, Any]:
    """User tables override scalars and extend lists of built-in ones (or replace with replace = true)."""
    if set(extra) - {"predicates"} or not isinstance(extra.get("predicates", {}), dict):
        raise ConfigError(f"{source}: expected only [predicates.NAME] tables, got keys {sorted(extra)}")
    merged = {name: dict(table) for name, table in base["predicates"].items()}
    for name, table in extra.get("predicates", {}).items():
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: predicates.{name} must be a table")
        if name not in merged or table.get("replace"):
            merged[name] = {**merged.get(name, {}), **table} if table.get("replace") else dict(table)
            continue
        cur = merged[name]
        for key, value in table.items():
            if key in _LIST_FIELDS and isinstance(value, list) and isinstance(cur.get(key), list):
                cur[key] = list(dict.fromkeys([*cur[key], *value]))
            else:
                cur[key] = value
    return {"predicates": merged}


def _build(name: str, table: Any, source: str) -> Predicate:
    where = f"{source}: predicates.{name}"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    if not _NAME.match(name):
        raise ConfigError(f"{where}: a predicate name must be lower_snake_case")
    unknown = set(table) - _ALLOWED - set(_CONTROL_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown field(s) {sorted(unknown)}; allowed: {sorted(_ALLOWED)}")
    for key in _REQUIRED:
        if key not in table:
            raise ConfigError(f"{where}: missing required field {key!r}")
    for key, choices in _CHOICES.items():
        if key in table and table[key] not in choices:
            raise ConfigError(f"{where}.{key} must be one of {choices}, got {table[key]!r}")
    kwargs: dict[str, Any] = {"name": name}
    for key, value in table.items():
        if key in _CONTROL_KEYS:
            continue
        if key in _LIST_FIELDS:
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                raise ConfigError(f"{where}.{key} must be a list of non-empty strings")
            kwargs[key] = tuple(" ".join(v.split()) for v in value)
        elif key in _FLAGS:
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.{key} must be true or false, got {value!r}")
            kwargs[key] = value
        elif key == "max_object_words":
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 20:
                raise ConfigError(f"{where}.max_object_words must be an integer from 1 to 20, got {value!r}")
            kwargs[key] = value
        else:
            if not isinstance(value, str):
                raise ConfigError(f"{where}.{key} must be a string, got {value!r}")
            kwargs[key] = value
    if kwargs.get("symmetric") and kwargs.get("inverse"):
        raise ConfigError(f"{where}: a symmetric predicate is its own inverse; drop `inverse`")
    return Predicate(**kwargs)


REGISTRY = PredicateRegistry.load()
"""The built-in vocabulary, loaded once at import (callers with a user file load their own)."""
