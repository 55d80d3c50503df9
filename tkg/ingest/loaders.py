"""Read conversations from files into `EpisodeInput`s, validating everything first.

Loaders are pure: they read one file and return a `LoadReport`, or raise `InputError` naming
the file and the position (``line 12``, ``sample 0 session_3 turn 4``, ``byte 1234``) before
anything is written, so a bad file never leaves half a conversation in the graph.

Two formats:

* **LoCoMo** (``.json``): samples of sessions of turns, read by `locomo_loader.py`.
* **JSONL** (``.jsonl``): one object per line with ``group``, ``speaker``, ``text``,
  ``timestamp`` (ISO 8601; naive means UTC) and optional ``source_ref``, ``source_description``,
  ``listeners`` (names), ``session``. Blank lines are skipped; unknown keys are ignored.

Turns whose text is empty after stripping are not errors: they are left out and listed in
`LoadReport.skipped`, so a caller can show them without the loader printing or warning. The
checks every loader runs are in `load_checks.py`; this module reads JSONL and picks the loader.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..models import EpisodeInput, as_utc
from .load_checks import LoadReport, check_unique, json_value, keep, read_text, string_field, valid_group
from .locomo_loader import load_locomo

FORMATS = ("locomo", "jsonl")


# --- JSONL ---------------------------------------------------------------------------------------


def _parse_timestamp(value: Any, source: str, where: str) -> datetime:
    text = string_field(value, "timestamp", source, where).strip()
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InputError(
            f"invalid timestamp {text!r}; expected ISO 8601 such as '2024-03-05T14:30:00Z'",
            source=source,
            position=where,
        ) from None
    try:
        stamp = as_utc(parsed)
    except OverflowError:
        raise InputError(
            f"timestamp {text!r} is out of range in UTC (years 1 to 9999)", source=source, position=where
        ) from None
    assert stamp is not None
    return stamp


def load_jsonl(path: str | Path, *, group: str | None = None) -> LoadReport:
    """Load one JSON object per line; ``group`` overrides (or fills) each line's ``group``.

    Example::

        >>> report = load_jsonl("examples/priya_marco.jsonl")  # doctest: +SKIP
        >>> report.groups  # doctest: +SKIP
        ['priya-marco-chat']
    """
    path = Path(path)
    source = str(path)
    group = None if group is None else valid_group(group, source)
    report = LoadReport()
    # split on "\n" only: str.splitlines() would also split on U+2028/U+2029/U+0085, which
    # JSON allows raw inside strings
    for n, line in enumerate(read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        where = f"line {n}"
        record = json_value(line, source, where)
        if not isinstance(record, dict):
            raise InputError(
                f"each line must be a JSON object, not {type(record).__name__}", source=source, position=where
            )
        keep(_jsonl_record(record, group, source, where), report)
    check_unique(report.episodes, source)
    return report


def _jsonl_record(record: dict[str, Any], group: str | None, source: str, where: str) -> EpisodeInput:
    required = (
        ("speaker", "text", "timestamp") if group is not None else ("group", "speaker", "text", "timestamp")
    )
    for key in required:
        if key not in record:
            raise InputError(f"missing field {key!r}", source=source, position=where)
    target = (
        group
        if group is not None
        else valid_group(string_field(record["group"], "group", source, where), source, where)
    )
    listeners = record.get("listeners") or []
    if not isinstance(listeners, list):
        raise InputError(
            f"listeners must be a list of names, not {type(listeners).__name__}",
            source=source,
            position=where,
        )
    ref = record.get("source_ref")
    session = record.get("session")
    return EpisodeInput(
        group=target,
        speaker=string_field(record["speaker"], "speaker", source, where).strip(),
        text=string_field(record["text"], "text", source, where, empty_ok=True).strip(),
        timestamp=_parse_timestamp(record["timestamp"], source, where),
        source_ref=None if ref is None else string_field(ref, "source_ref", source, where).strip(),
        source_description=string_field(
            record.get("source_description", ""), "source_description", source, where, empty_ok=True
        ),
        listeners=tuple(string_field(x, "listener", source, where).strip() for x in listeners),
        session=None if session is None else string_field(session, "session", source, where).strip(),
        position=where,
    )


def load_records(records: Iterable[Any], *, group: str | None = None, source: str = "episodes") -> LoadReport:
    """Episodes handed over in memory as objects of the JSONL line format, validated whole first.

    For callers without a file (an API, a server tool): ``records`` are dicts with ``speaker``,
    ``text``, ``timestamp`` and the optional JSONL fields; ``group`` overrides (or fills) each one's
    ``group``. Unlike a file, an empty ``text`` is an error here (there is no file to clean up), so
    every record either becomes an episode or the whole call fails naming ``episode N``.

    >>> load_records([{"speaker": "Priya", "text": "I moved to Leeds.", "timestamp": "2023-06-04T10:00Z"}],
    ...              group="g").episodes[0].timestamp.isoformat()
    '2023-06-04T10:00:00+00:00'
    """
    group = None if group is None else valid_group(group, source)
    report = LoadReport()
    for i, record in enumerate(records):
        where = f"episode {i}"
        if not isinstance(record, dict):
            raise InputError(
                f"an episode must be an object, not {type(record).__name__}", source=source, position=where
            )
        if "text" in record:
            string_field(record["text"], "text", source, where)  # empty text fails here, not skipped
        report.episodes.append(_jsonl_record(record, group, source, where))
    if not report.episodes:
        raise InputError("no episodes given", source=source)
    check_unique(report.episodes, source)
    return report


# --- dispatch ------------------------------------------------------------------------------------


def detect_format(path: str | Path) -> str:
    """``jsonl`` for ``.jsonl``, ``locomo`` for ``.json``; anything else raises InputError."""
    suffix = Path(path).suffix.lower()
    if suffix == ".jsonl":
        return "jsonl"
    if suffix == ".json":
        return "locomo"
    raise InputError(
        f"cannot tell the format from the suffix {suffix or '(none)'!r}; say --format locomo or --format "
        "jsonl",
        source=str(path),
    )


def load(path: str | Path, format: str | None = None, group: str | None = None) -> LoadReport:
    """Load a file in the named format, or the one its suffix implies.

    Example::

        >>> load("examples/priya_marco.json").groups  # doctest: +SKIP
        ['priya-marco']
    """
    fmt = (format or detect_format(path)).lower()
    if fmt == "locomo":
        return load_locomo(path, group=group)
    if fmt == "jsonl":
        return load_jsonl(path, group=group)
    raise InputError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}", source=str(path))
