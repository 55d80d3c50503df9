"""What every loader shares: the `LoadReport` and the checks a file's fields pass before any write.

A field must be text every store can hold (no NUL, no lone surrogate, bounded size), the file
must be readable UTF-8 JSON no deeper than the parser goes, and a ``source_ref`` names one turn
per group; each failure is an `InputError` naming the file and the position.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..models import EpisodeInput, group_name


@dataclass
class LoadReport:
    """What a loader read: the episodes in file order and why any turns were left out."""

    episodes: list[EpisodeInput] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def groups(self) -> list[str]:
        """The groups in order of first appearance."""
        return list(dict.fromkeys(e.group for e in self.episodes))


def read_text(path: Path) -> str:
    """The file as text; empty, missing, binary or non-UTF-8 files raise InputError."""
    source = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=source) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            "not UTF-8 text (binary or another encoding)", source=source, position=f"byte {exc.start}"
        ) from None
    if not text.strip():
        raise InputError("empty file", source=source)
    return text


# Huge turns are chunked, not rejected — up to this size. A bigger "turn" is almost always a file
# pasted by mistake, and embedding it would take minutes (a 1 MB turn is ~17,000 chunks).
MAX_TEXT_CHARS = 1_000_000
# Names, groups and refs are keys that stores index; Neo4j refuses index entries over ~32 KB.
MAX_NAME_CHARS = 1_000


def string_field(value: Any, what: str, source: str, position: str, *, empty_ok: bool = False) -> str:
    """Check a field is text that every store can hold (no NUL, no lone surrogates, bounded size)."""
    if not isinstance(value, str):
        raise InputError(
            f"{what} must be a string, not {type(value).__name__}", source=source, position=position
        )
    limit = MAX_TEXT_CHARS if what in ("text", "source_description") else MAX_NAME_CHARS
    if len(value) > limit:
        raise InputError(
            f"{what} is {len(value):,} characters; the limit is {limit:,}", source=source, position=position
        )
    if not empty_ok and not value.strip():
        raise InputError(f"{what} is empty", source=source, position=position)
    if "\x00" in value:
        raise InputError(f"{what} contains a NUL character (binary data?)", source=source, position=position)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            f"{what} contains invalid unicode (a lone surrogate escape)", source=source, position=position
        ) from None
    return value


_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
MAX_DEPTH_SHOWN = 512


def json_value(text: str, source: str, line: str | None = None) -> Any:
    """Parse JSON; a syntax error or nesting too deep for the parser names the file and position."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if line:
            raise InputError(
                f"invalid JSON: {exc.msg} (column {exc.colno})", source=source, position=line
            ) from None
        raise InputError(
            f"invalid JSON: {exc.msg}", source=source, position=f"line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        pos = _too_deep(text)
        row, col = text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1
        reason = f"JSON nested more than {MAX_DEPTH_SHOWN} levels deep"
        if line:
            raise InputError(f"{reason} (column {col})", source=source, position=line) from None
        raise InputError(reason, source=source, position=f"line {row} column {col}") from None


def _too_deep(text: str) -> int:
    """Where the nesting of ``text`` first passes ``MAX_DEPTH_SHOWN`` (strings skipped), else 0."""
    depth = 0
    for m in _NESTING.finditer(text):
        token = m.group(0)
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH_SHOWN:
                return m.start()
        elif token in "]}":
            depth -= 1
    return 0


def check_unique(episodes: Iterable[EpisodeInput], source: str) -> None:
    """Raise on a source_ref used twice in one group: evidence must point at exactly one turn."""
    seen: dict[tuple[str, str], str] = {}
    for ep in episodes:
        if ep.source_ref is None:
            continue
        key = (ep.group, ep.source_ref)
        if key in seen:
            raise InputError(
                f"duplicate source_ref {ep.source_ref!r} in group {ep.group!r} (first at {seen[key]})",
                source=source,
                position=ep.position,
            )
        seen[key] = ep.position


def valid_group(value: Any, source: str, position: str | None = None) -> str:
    """A group name, stripped like every name a file gives (``--group " B "`` is group ``B``, as a line's
    is)."""
    try:
        return group_name(value)
    except ConfigError as exc:
        raise InputError(str(exc), source=source, position=position) from None


def keep(ep: EpisodeInput, report: LoadReport) -> None:
    if ep.text.strip():
        report.episodes.append(ep)
    else:
        report.skipped.append(f"{ep.position}: empty text")
