"""Read conversations from files into `EpisodeInput`s, validating everything first.

Loaders are pure: they read one file and return a `LoadReport`, or raise `InputError` naming
the file and the position (``line 12``, ``sample 0 session_3 turn 4``, ``byte 1234``) before
anything is written, so a bad file never leaves half a conversation in the graph.

Two formats:

* **LoCoMo** (``.json``): a list of samples (or one sample object), each with ``sample_id`` and
  a ``conversation`` holding ``speaker_a``/``speaker_b``, ``session_N_date_time`` strings such as
  ``"1:56 pm on 8 May, 2023"`` and ``session_N`` lists of turns ``{speaker, dia_id, text,
  img_url?, blip_caption?}``. LoCoMo gives one time per session, so turn *j* (0-based) is stamped
  session time + *j* seconds: turns stay strictly ordered within a session, and the shift is
  far below any granularity a question asks about. Other keys (qa, summaries) are ignored.
* **JSONL** (``.jsonl``): one object per line with ``group``, ``speaker``, ``text``,
  ``timestamp`` (ISO 8601; naive means UTC) and optional ``source_ref``, ``source_description``,
  ``listeners`` (names), ``session``. Blank lines are skipped; unknown keys are ignored.

Turns whose text is empty after stripping are not errors: they are left out and listed in
`LoadReport.skipped`, so a caller can show them without the loader printing or warning.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..models import EpisodeInput, as_utc, group_name
from ..timeparse import parse_session_datetime

FORMATS = ("locomo", "jsonl")
_SESSION_KEY = re.compile(r"^session_(\d+)$")


@dataclass
class LoadReport:
    """What a loader read: the episodes in file order and why any turns were left out."""

    episodes: list[EpisodeInput] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def groups(self) -> list[str]:
        """The groups in order of first appearance."""
        return list(dict.fromkeys(e.group for e in self.episodes))


# --- reading and checking ------------------------------------------------------------------------


def _read_text(path: Path) -> str:
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


def _string(value: Any, what: str, source: str, position: str, *, empty_ok: bool = False) -> str:
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


def _json(text: str, source: str, line: str | None = None) -> Any:
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


def _check_unique(episodes: Iterable[EpisodeInput], source: str) -> None:
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


def _group(value: Any, source: str, position: str | None = None) -> str:
    """A group name, stripped like every name a file gives (``--group " B "`` is group ``B``, as a line's
    is)."""
    try:
        return group_name(value)
    except ConfigError as exc:
        raise InputError(str(exc), source=source, position=position) from None


def _keep(ep: EpisodeInput, report: LoadReport) -> None:
    if ep.text.strip():
        report.episodes.append(ep)
    else:
        report.skipped.append(f"{ep.position}: empty text")


# --- LoCoMo --------------------------------------------------------------------------------------


def load_locomo(path: str | Path, *, group: str | None = None) -> LoadReport:
    """Load a LoCoMo-shaped JSON file; each sample becomes a group named by its ``sample_id``.

    Example::

        >>> report = load_locomo("examples/priya_marco.json")  # doctest: +SKIP
        >>> report.episodes[0].source_ref, report.episodes[0].session  # doctest: +SKIP
        ('D1:1', 'session_1')
    """
    path = Path(path)
    source = str(path)
    group = None if group is None else _group(group, source)
    text = _read_text(path)
    data = _json(text, source)
    samples = [data] if isinstance(data, dict) else data
    if not isinstance(samples, list):
        raise InputError(
            f"expected a list of samples or one sample object, not {type(data).__name__}", source=source
        )
    if not samples:
        raise InputError("no samples in file", source=source)
    report = LoadReport()
    for i, sample in enumerate(samples):
        _load_sample(sample, i, group, source, report)
    _check_unique(report.episodes, source)
    return report


def _load_sample(sample: Any, i: int, group: str | None, source: str, report: LoadReport) -> None:
    where = f"sample {i}"
    if not isinstance(sample, dict):
        raise InputError(
            f"a sample must be an object, not {type(sample).__name__}", source=source, position=where
        )
    if "sample_id" not in sample:
        raise InputError("missing field 'sample_id'", source=source, position=where)
    sample_id = _string(sample["sample_id"], "sample_id", source, where)
    conv = sample.get("conversation")
    if not isinstance(conv, dict):
        missing = "conversation" not in sample
        reason = "missing field 'conversation'" if missing else "'conversation' must be an object"
        raise InputError(reason, source=source, position=where)
    speakers = []
    for key in ("speaker_a", "speaker_b"):
        if key not in conv:
            raise InputError(f"missing field 'conversation.{key}'", source=source, position=where)
        speakers.append(_string(conv[key], key, source, where).strip())
    sessions = sorted(
        ((int(m.group(1)), key) for key in conv if (m := _SESSION_KEY.match(key))),
        key=lambda pair: pair[0],
    )
    if not sessions:
        raise InputError("the conversation has no session_N turn lists", source=source, position=where)
    target = group if group is not None else _group(sample_id, source, where)
    for _, name in sessions:
        _load_session(conv, name, speakers, target, sample_id, i, source, report)


def _load_session(
    conv: dict[str, Any],
    name: str,
    speakers: list[str],
    group: str,
    sample_id: str,
    i: int,
    source: str,
    report: LoadReport,
) -> None:
    where = f"sample {i} {name}"
    turns = conv[name]
    if not isinstance(turns, list):
        raise InputError(
            f"{name} must be a list of turns, not {type(turns).__name__}", source=source, position=where
        )
    if not turns:
        report.skipped.append(f"{where}: no turns")
        return
    stamp_key = f"{name}_date_time"
    if stamp_key not in conv:
        raise InputError(f"missing field {stamp_key!r}", source=source, position=where)
    try:
        start = parse_session_datetime(_string(conv[stamp_key], stamp_key, source, where))
    except InputError as exc:
        raise InputError(f"{stamp_key}: {exc.reason}", source=source, position=where) from None
    for j, turn in enumerate(turns):
        at = f"{where} turn {j}"
        if not isinstance(turn, dict):
            raise InputError(
                f"a turn must be an object, not {type(turn).__name__}", source=source, position=at
            )
        for key in ("speaker", "dia_id", "text"):
            if key not in turn:
                raise InputError(f"missing field {key!r}", source=source, position=at)
        speaker = _string(turn["speaker"], "speaker", source, at).strip()
        if speaker not in speakers:
            raise InputError(
                f"speaker {speaker!r} is neither speaker_a ({speakers[0]!r}) nor speaker_b ({speakers[1]!r})",
                source=source,
                position=at,
            )
        dia_id = _string(turn["dia_id"], "dia_id", source, at).strip()
        text = _string(turn["text"], "text", source, at, empty_ok=True).strip()
        caption = turn.get("blip_caption")
        if caption is not None:
            caption = _string(caption, "blip_caption", source, at, empty_ok=True).strip()
            if caption:
                text = f"{text} [image: {caption}]".strip()
        _keep(
            EpisodeInput(
                group=group,
                speaker=speaker,
                text=text,
                timestamp=_turn_time(start, j, source, at),
                source_ref=dia_id,
                source_description=f"locomo {sample_id} {name}",
                listeners=tuple(s for s in speakers if s != speaker),
                session=name,
                position=at,
            ),
            report,
        )


def _turn_time(start: datetime, j: int, source: str, at: str) -> datetime:
    """Turn ``j`` of a session is ``j`` seconds after its start (their order, on the same clock)."""
    try:
        return start + timedelta(seconds=j)
    except OverflowError:
        raise InputError(
            f"the turn's time {start.isoformat()} + {j} s is past the year 9999", source=source, position=at
        ) from None


# --- JSONL ---------------------------------------------------------------------------------------


def _parse_timestamp(value: Any, source: str, where: str) -> datetime:
    text = _string(value, "timestamp", source, where).strip()
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
    group = None if group is None else _group(group, source)
    report = LoadReport()
    # split on "\n" only: str.splitlines() would also split on U+2028/U+2029/U+0085, which
    # JSON allows raw inside strings
    for n, line in enumerate(_read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        where = f"line {n}"
        record = _json(line, source, where)
        if not isinstance(record, dict):
            raise InputError(
                f"each line must be a JSON object, not {type(record).__name__}", source=source, position=where
            )
        _keep(_jsonl_record(record, group, source, where), report)
    _check_unique(report.episodes, source)
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
        else _group(_string(record["group"], "group", source, where), source, where)
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
        speaker=_string(record["speaker"], "speaker", source, where).strip(),
        text=_string(record["text"], "text", source, where, empty_ok=True).strip(),
        timestamp=_parse_timestamp(record["timestamp"], source, where),
        source_ref=None if ref is None else _string(ref, "source_ref", source, where).strip(),
        source_description=_string(
            record.get("source_description", ""), "source_description", source, where, empty_ok=True
        ),
        listeners=tuple(_string(x, "listener", source, where).strip() for x in listeners),
        session=None if session is None else _string(session, "session", source, where).strip(),
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
    group = None if group is None else _group(group, source)
    report = LoadReport()
    for i, record in enumerate(records):
        where = f"episode {i}"
        if not isinstance(record, dict):
            raise InputError(
                f"an episode must be an object, not {type(record).__name__}", source=source, position=where
            )
        if "text" in record:
            _string(record["text"], "text", source, where)  # empty text fails here, not skipped
        report.episodes.append(_jsonl_record(record, group, source, where))
    if not report.episodes:
        raise InputError("no episodes given", source=source)
    _check_unique(report.episodes, source)
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
