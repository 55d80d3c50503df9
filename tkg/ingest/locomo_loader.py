"""The LoCoMo loader: samples of sessions of turns (``.json``), validated whole before any write.

A list of samples (or one sample object), each with ``sample_id`` and a ``conversation`` holding
``speaker_a``/``speaker_b``, ``session_N_date_time`` strings such as ``"1:56 pm on 8 May, 2023"``
and ``session_N`` lists of turns ``{speaker, dia_id, text, img_url?, blip_caption?}``. LoCoMo
gives one time per session, so turn *j* (0-based) is stamped session time + *j* seconds: turns
stay strictly ordered within a session, and the shift is far below any granularity a question
asks about. Other keys (qa, summaries) are ignored.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..models import EpisodeInput
from ..timeparse import parse_session_datetime
from .load_checks import LoadReport, check_unique, json_value, keep, read_text, string_field, valid_group

_SESSION_KEY = re.compile(r"^session_(\d+)$")



def load_locomo(path: str | Path, *, group: str | None = None) -> LoadReport:
    """Load a LoCoMo-shaped JSON file; each sample becomes a group named by its ``sample_id``.

    Example::

        >>> report = load_locomo("examples/priya_marco.json")  # doctest: +SKIP
        >>> report.episodes[0].source_ref, report.episodes[0].session  # doctest: +SKIP
        ('D1:1', 'session_1')
    """
    path = Path(path)
    source = str(path)
    group = None if group is None else valid_group(group, source)
    text = read_text(path)
    data = json_value(text, source)
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
    check_unique(report.episodes, source)
    return report


def _load_sample(sample: Any, i: int, group: str | None, source: str, report: LoadReport) -> None:
    where = f"sample {i}"
    if not isinstance(sample, dict):
        raise InputError(
            f"a sample must be an object, not {type(sample).__name__}", source=source, position=where
        )
    if "sample_id" not in sample:
        raise InputError("missing field 'sample_id'", source=source, position=where)
    sample_id = string_field(sample["sample_id"], "sample_id", source, where)
    conv = sample.get("conversation")
    if not isinstance(conv, dict):
        missing = "conversation" not in sample
        reason = "missing field 'conversation'" if missing else "'conversation' must be an object"
        raise InputError(reason, source=source, position=where)
    speakers = []
    for key in ("speaker_a", "speaker_b"):
        if key not in conv:
            raise InputError(f"missing field 'conversation.{key}'", source=source, position=where)
        speakers.append(string_field(conv[key], key, source, where).strip())
    sessions = sorted(
        ((int(m.group(1)), key) for key in conv if (m := _SESSION_KEY.match(key))),
        key=lambda pair: pair[0],
    )
    if not sessions:
        raise InputError("the conversation has no session_N turn lists", source=source, position=where)
    target = group if group is not None else valid_group(sample_id, source, where)
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
        start = parse_session_datetime(string_field(conv[stamp_key], stamp_key, source, where))
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
        speaker = string_field(turn["speaker"], "speaker", source, at).strip()
        if speaker not in speakers:
            raise InputError(
                f"speaker {speaker!r} is neither speaker_a ({speakers[0]!r}) nor speaker_b ({speakers[1]!r})",
                source=source,
                position=at,
            )
        dia_id = string_field(turn["dia_id"], "dia_id", source, at).strip()
        text = string_field(turn["text"], "text", source, at, empty_ok=True).strip()
        caption = turn.get("blip_caption")
        if caption is not None:
            caption = string_field(caption, "blip_caption", source, at, empty_ok=True).strip()
            if caption:
                text = f"{text} [image: {caption}]".strip()
        keep(
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
