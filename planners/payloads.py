"""Retrieval payloads: how much to fetch, from where, and which procedure answers.

Payloads are data (`payloads.toml` next to this module) so a user can tune depth or
fusion without touching code: `load_payloads(Path("mine.toml"))` overlays their file on
the defaults key by key. Several modes may share one payload. Anything unknown — a key,
a mode, an index, a procedure — is a `ConfigError` naming the file and the allowed values.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from tkg.errors import ConfigError
from tkg.models import MODES

from .modes import check_mode, check_procedure

INDEXES: tuple[str, ...] = ("chunk", "sentence", "fact")
FUSIONS: tuple[str, ...] = ("rrf", "score", "bm25", "dense")
ABSTENTIONS: tuple[str, ...] = ("entity", "none")
MAX_HOPS = 4


@dataclass(frozen=True)
class Payload:
    name: str
    depth: int
    indexes: tuple[str, ...]
    fusion: Literal["rrf", "score", "bm25", "dense"]
    weights: tuple[tuple[str, float], ...]  # (index, weight) pairs, one per index
    graph: bool
    hop_limit: int
    fanout: int
    neighbours: int
    procedure: str
    abstention: Literal["entity", "none"]
    abstain_threshold: float

    def weight(self, index: str) -> float:
        """The fusion weight of `index` (0.0 when the index is not searched)."""
        return dict(self.weights).get(index, 0.0)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["indexes"] = list(self.indexes)
        out["weights"] = dict(self.weights)
        return out


_KEYS = tuple(f.name for f in fields(Payload) if f.name != "name")


@dataclass(frozen=True)
class PayloadTable:
    """The payloads by name and the mode → payload-name map."""

    payloads: Mapping[str, Payload]
    modes: Mapping[str, str]
    sources: tuple[str, ...] = ()

    def for_mode(self, mode: str) -> Payload:
        """The payload a mode runs with, e.g. ``default_payloads().for_mode("aggregation").depth``."""
        return self.payloads[self.modes[check_mode(mode)]]


def widen(base: Payload, other: Payload) -> Payload:
    """`base` stretched to cover `other`: deeper, more indexes, more hops; never narrower.

    The procedure, fusion and abstention of `base` stay: widening changes how much is
    retrieved, never who answers.
    """
    indexes = base.indexes + tuple(i for i in other.indexes if i not in base.indexes)
    weights = dict(other.weights) | dict(base.weights)
    return replace(
        base,
        depth=max(base.depth, other.depth),
        indexes=indexes,
        weights=tuple((i, weights.get(i, 1.0)) for i in indexes),
        graph=base.graph or other.graph,
        hop_limit=max(base.hop_limit, other.hop_limit),
        fanout=max(base.fanout, other.fanout),
        neighbours=max(base.neighbours, other.neighbours),
    )


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ConfigError(f"{where}: expected an integer in [{lo}, {hi}], got {value!r}")
    return value


def _choice(value: Any, where: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"{where}: expected one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def _build(name: str, raw: Mapping[str, Any], where: str) -> Payload:
    missing = [k for k in _KEYS if k not in raw]
    if missing:
        raise ConfigError(f"{where}: payload {name!r} is missing {', '.join(missing)}")
    indexes = raw["indexes"]
    if not isinstance(indexes, list) or not indexes:
        raise ConfigError(f"{where}.indexes: expected a non-empty list of {', '.join(INDEXES)}")
    idx = tuple(dict.fromkeys(_choice(i, f"{where}.indexes", INDEXES) for i in indexes))
    weights = raw["weights"]
    if not isinstance(weights, Mapping):
        raise ConfigError(f"{where}.weights: expected a table index = weight, got {weights!r}")
    for key, w in weights.items():
        _choice(key, f"{where}.weights", idx)
        if isinstance(w, bool) or not isinstance(w, int | float) or w < 0:
            raise ConfigError(f"{where}.weights.{key}: expected a number >= 0, got {w!r}")
    if not isinstance(raw["graph"], bool):
        raise ConfigError(f"{where}.graph: expected true or false, got {raw['graph']!r}")
    threshold = raw["abstain_threshold"]
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0 <= threshold <= 1:
        raise ConfigError(f"{where}.abstain_threshold: expected a number in [0, 1], got {threshold!r}")
    return Payload(
        name=name,
        depth=_int(raw["depth"], f"{where}.depth", 1, 10_000),
        indexes=idx,
        fusion=_choice(raw["fusion"], f"{where}.fusion", FUSIONS),  # type: ignore[arg-type]
        weights=tuple((i, float(weights.get(i, 1.0))) for i in idx),
        graph=raw["graph"],
        hop_limit=_int(raw["hop_limit"], f"{where}.hop_limit", 0, MAX_HOPS),
        fanout=_int(raw["fanout"], f"{where}.fanout", 1, 10_000),
        neighbours=_int(raw["neighbours"], f"{where}.neighbours", 0, 50),
        procedure=check_procedure(raw["procedure"], where=f"{where}.procedure"),
        abstention=_choice(raw["abstention"], f"{where}.abstention", ABSTENTIONS),  # type: ignore[arg-type]
        abstain_threshold=float(threshold),
    )


def _read(text: str, source: str) -> dict[str, Any]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from exc
    unknown = sorted(set(doc) - {"modes", "payloads"})
    if unknown:
        raise ConfigError(
            f"{source}: unknown section(s) {', '.join(unknown)}; expected [modes] and [payloads.NAME]"
        )
    for section in ("modes", "payloads"):
        if not isinstance(doc.get(section, {}), dict):
            raise ConfigError(f"{source}: [{section}] must be a table")
    return doc


def _overlay(raw: dict[str, dict[str, Any]], modes: dict[str, str], doc: dict[str, Any], source: str) -> None:
    for name, body in doc.get("payloads", {}).items():
        where = f"{source}: payloads.{name}"
        if not isinstance(body, dict):
            raise ConfigError(f"{where}: expected a table")
        unknown = sorted(set(body) - set(_KEYS))
        if unknown:
            raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(_KEYS)}")
        raw[name] = raw.get(name, {}) | body
    for mode, name in doc.get("modes", {}).items():
        check_mode(mode, where=f"{source}: [modes]")
        if not isinstance(name, str):
            raise ConfigError(f"{source}: modes.{mode}: expected a payload name, got {name!r}")
        modes[mode] = name


def load_payloads(path: Path | None = None) -> PayloadTable:
    """The default payloads, overlaid with the user's TOML file at `path` if given.

    >>> load_payloads().for_mode("relation_chain").procedure
    'graph_chain'
    """
    default_src = "planners/payloads.toml"
    docs = [
        (
            _read(resources.files("planners").joinpath("payloads.toml").read_text("utf-8"), default_src),
            default_src,
        )
    ]
    if path is not None:
        try:
            text = Path(path).read_text("utf-8")
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read payload file: {exc}") from exc
        docs.append((_read(text, str(path)), str(path)))
    raw: dict[str, dict[str, Any]] = {}
    modes: dict[str, str] = {}
    for doc, source in docs:
        _overlay(raw, modes, doc, source)
    source = docs[-1][1]
    payloads = {name: _build(name, body, f"{source}: payloads.{name}") for name, body in raw.items()}
    for mode in MODES:
        if mode not in modes:
            raise ConfigError(f"{source}: mode {mode!r} has no payload in [modes]")
        if modes[mode] not in payloads:
            raise ConfigError(
                f"{source}: modes.{mode} names payload {modes[mode]!r}, which is not defined; "
                f"defined: {', '.join(sorted(payloads))}"
            )
    return PayloadTable(MappingProxyType(payloads), MappingProxyType(modes), tuple(s for _, s in docs))


_DEFAULT: PayloadTable | None = None


def default_payloads() -> PayloadTable:
    """The built-in table, parsed once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_payloads()
    return _DEFAULT
