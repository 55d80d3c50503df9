"""Relative time resolved against when a turn was said, and session date strings.

"Yesterday" in a turn recorded on 8 May 2023 is 7 May 2023, whatever today is: every function here takes
the turn's time as `anchor` and never reads the clock. Plain regexes (no dateparser) keep `find_times` fast
enough to run on every sentence at ingest. This module holds the rules that find a time expression and
resolve it; the less common forms (parts of a year, numeric dates, holidays) are in `time_forms.py`, the
date words, the tense guess and days of a month said in words (read as digits) in `time_words.py`, and
the calendar spans in `time_spans.py`.

Conventions (chosen where English is ambiguous):
- `TimeRef.end` is exclusive: "yesterday" on 8 May is [7 May 00:00, 8 May 00:00).
- Weeks start on Monday; a weekend is Saturday 00:00 to Monday 00:00.
- A bare month, weekday, season or day-month ("in July", "on Friday", "on 5 May") is read by the
  tense of its clause (`clause_tense`): the one holding the anchor if any (not for weekdays), else the
  most recent one before the anchor in a past-tense clause ("I went there in July"), the next one after
  it in a future clause ("will", "going to", "planning", "I'm flying ..."), and the nearer of the two in
  a present-tense one ("my birthday is in July").
- "last Friday" is the most recent Friday strictly before the anchor's day, "next Tuesday" the first
  Tuesday strictly after it; "next weekend" is "this weekend" plus seven days.
- "N units ago" / "in N units" give the whole day/week/month/year containing anchor ∓ N units; vague
  counts widen it ("a few weeks ago" = 2 to 4 weeks ago).
- "since X" runs from the start of X to the anchor (granularity "range").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tkg.errors import InputError
from tkg.time_forms import extra_rules
from tkg.time_spans import (
    bucket,
    choose,
    count_range,
    day_of,
    day_of_month,
    month_span,
    seasons_around,
    step,
    unit_word,
    weekend,
    year_of,
    year_said,
)
from tkg.time_words import (
    ANY_WEEKDAY,
    BARE_WEEKDAY,
    COUNT,
    DAY_PART,
    LEAD_WEEKDAY,
    LONG_MONTH,
    MONTH,
    MONTHS,
    ORDINAL_DAY,
    SEASON,
    SEASONS,
    UNIT,
    WEEKDAY,
    clause_tense,
    digit_days,
    weekday_of,
    word_end,
)


@dataclass(frozen=True)
class TimeRef:
    """A time expression found in text and the interval it denotes, [start, end)."""

    text: str
    start: datetime
    end: datetime
    granularity: str  # day, week, weekend, month, season, year, range
    span: tuple[int, int] = (0, 0)  # character offsets of `text` in the searched string


_TRIGGER = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|last|this|next|coming|past|ago|since|weekend|in|on|"
    + MONTH + r"|" + WEEKDAY + r"|" + BARE_WEEKDAY + r"|" + SEASON + r"|\d{4}|\d{1,2}(?:st|nd|rd|th)"
    + r"|\d{1,2}\s+(?:of\s+)?" + MONTH + r")\b",
    re.I,
)


Result = tuple[datetime, datetime, str] | None
Handler = Callable[[re.Match[str], datetime, str], Result]


def _h_named_day(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    w = m.group(0).lower()
    offset = 0
    if "before" in w:
        offset = -2
    elif "after" in w:
        offset = 2
    elif w.startswith(("yesterday", "last night")):
        offset = -1
    elif w.startswith("tomorrow"):
        offset = 1
    s = day_of(anchor) + timedelta(days=offset)
    return s, s + timedelta(days=1), "day"


def _h_rel_unit(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    rel_text = " ".join(m.group("rel").lower().split())
    unit = m.group("unit").lower()
    off = {"last": -1, "past": -1, "previous": -1, "this past": -1, "next": 1, "coming": 1}.get(rel_text, 0)
    if unit in SEASONS:
        (s, e), gran = (
            choose(seasons_around(anchor, unit), anchor, {-1: "last", 1: "next"}.get(off, "this"), tense),
            "season",
        )
    elif unit == "weekend":
        cur = weekend(anchor, 0)
        (s, e), gran = (
            (cur if cur[1] <= anchor else weekend(anchor, -1)) if off < 0 else weekend(anchor, off),
            unit,
        )
    else:
        (s, e), gran = bucket(anchor + step(unit, off), unit), unit
    return (s, anchor, "range") if m.group("since") else (s, e, gran)


def _h_the_weekend(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    s, e = choose(
        [weekend(anchor, w) for w in (-1, 0, 1)], anchor, "", "future" if tense == "future" else "past"
    )
    return s, e, "weekend"


def _h_weekday(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    rel = " ".join((m.group("rel") or m.group("bare_rel") or "").lower().split())
    wd = m.group("wd") or m.group("bare")
    first = day_of(anchor) + timedelta(days=weekday_of(wd) - anchor.weekday())
    if rel == "this":
        s = first
    else:
        days = [(d, d + timedelta(days=1)) for d in (first + timedelta(days=7 * k) for k in (-1, 0, 1))]
        days = [d for d in days if not d[0] <= anchor < d[1]]  # "on Friday" said on a Friday: another Friday
        s = choose(
            days,
            anchor,
            {"last": "last", "next": "next", "coming": "next", "this coming": "next"}.get(rel, ""),
            tense,
        )[0]
    return s, s + timedelta(days=1), "day"


def _h_date(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    month, day = MONTHS[m.group("mon").lower()], int(m.group("day"))
    try:
        if (year := year_said(m.group("yr"), m.group("ryr"), anchor)) is not None:
            s = datetime(year, month, day, tzinfo=UTC)
        else:
            cands = [datetime(y, month, day, tzinfo=UTC) for y in range(anchor.year - 1, anchor.year + 2)]
            if wd := LEAD_WEEKDAY.match(m.group(0)):  # "sat 11 march": the year whose 11 March is a Saturday
                cands = [c for c in cands if c.weekday() == weekday_of(wd.group(1))] or cands
            spans = [(c, c + timedelta(days=1)) for c in cands]
            s = cands[0] if len(cands) == 1 else choose(spans, anchor, "", tense)[0]
    except ValueError:
        return None  # 31 February
    return s, s + timedelta(days=1), "day"


def _h_day_of_month(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    s = day_of_month(anchor, int(m.group("day")), weekday_of(m.group("wd")) if m.group("wd") else None,
                     past=tense == "past")
    return (s, s + timedelta(days=1), "day") if s is not None else None


def _h_hours_ago(m: re.Match[str], anchor: datetime, tense: str) -> Result:  # "two hours ago": its day
    n = count_range(m.group("n"))[0]
    s = day_of(anchor - (timedelta(hours=n) if m.group("unit")[0] in "hH" else timedelta(minutes=n)))
    return s, s + timedelta(days=1), "day"


def _h_month(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    if m.group("mon2"):
        # A bare month name counts only with a year ("May 2023"): "may" is also a verb.
        if not m.group("yr"):
            return None
        s, e = month_span(year_of(m.group("yr")), MONTHS[m.group("mon2").lower()])
        return s, e, "month"
    prep = " ".join(m.group("prep").lower().split())
    month = MONTHS[m.group("mon").lower()]
    if (year := year_said(m.group("yr"), m.group("ryr"), anchor)) is not None:
        s, e = month_span(year, month)
    else:
        cands = [month_span(y, month) for y in range(anchor.year - 1, anchor.year + 2)]
        rel = prep if prep in ("last", "next", "this") else ""
        s, e = choose(cands, anchor, rel, "past" if prep == "since" else tense)
    return (s, anchor, "range") if prep == "since" else (s, e, "month")


def _h_year(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    s, e = bucket(datetime(int(m.group("yr")), 1, 1, tzinfo=UTC), "year")
    return (s, anchor, "range") if m.group("prep").lower() == "since" else (s, e, "year")


def _h_ago(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    direction, tail = (m.group("dir") or "").lower(), " ".join((m.group("ago") or "").lower().split())
    if tail in ("ago", "earlier", "back"):
        sign = -1
    elif tail == "from now" or (direction == "in" and tail != "later"):
        sign = 1
    else:
        return None  # "two days" alone is a duration, not a time
    unit = unit_word(m.group("unit"))
    lo, hi = count_range(m.group("n"))
    a = bucket(anchor + step(unit, sign * lo), unit)
    b = bucket(anchor + step(unit, sign * hi), unit)
    return min(a[0], b[0]), max(a[1], b[1]), unit


def _h_past_n(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    return anchor + step(unit_word(m.group("unit")), -count_range(m.group("n") or "1")[1]), anchor, "range"


def _h_iso(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    try:
        s = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=UTC)
    except ValueError:
        return None
    return s, s + timedelta(days=1), "day"


def _h_season(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    s, e = choose(seasons_around(anchor, m.group("unit").lower()), anchor, "", tense)
    return s, e, "season"


# a year after a date: "2023", "'23", or "next year" (the year read from the turn's)
_DATE_TAIL = r"(?:,?\s+(?P<yr>(?:19|20)\d{2}\b|['\u2019]\d{2}\b)|\s+(?P<ryr>next|this|last)\s+year\b)?"

_RULES: list[tuple[re.Pattern[str], Handler]] = [
    (
        re.compile(
            r"\b(?:(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday"
            + DAY_PART
            + r"|tomorrow"
            + DAY_PART
            + r"|last\s+night|today|tonight|this\s+(?:morning|afternoon|evening))\b",
            re.I,
        ),
        _h_named_day,
    ),
    (
        re.compile(
            r"\b(?P<since>since\s+)?(?P<rel>this\s+past|this|last|next|coming|past|previous)\s+"
            r"(?P<unit>week|weekend|month|year|" + SEASON + r")\b",
            re.I,
        ),
        _h_rel_unit,
    ),
    (re.compile(r"\b(?:over|on|at|during|for)\s+the\s+weekend\b", re.I), _h_the_weekend),
    (
        re.compile(
            r"\b(?:(?P<rel>last|next|this(?:\s+coming)?|coming|on)\s+(?P<wd>" + ANY_WEEKDAY + r")s?"
            r"|(?P<bare_rel>)(?P<bare>" + BARE_WEEKDAY + r")(?!s|\s+(?:morning|afternoon|evening|night)s))"
            + DAY_PART + r"\b", re.I,
        ),
        _h_weekday,
    ),
    (
        re.compile(
            r"\b(?:on\s+)?(?:(?P<wd>" + ANY_WEEKDAY + r"),?\s+(?:the\s+)?|the\s+)" + ORDINAL_DAY
            + r"(?!\s+(?:of\s+)?" + MONTH + r"\b)(?=\s*(?:$|[^\w\s]|(?:was|is|at|in|on|for|and|or|not|"
            r"instead|then|so|but|when|which|it|works?)\b))",
            re.I,
        ),
        _h_day_of_month,
    ),
    (re.compile(r"\b(?P<n>" + COUNT + r")\s+(?P<unit>hours?|hrs?|minutes?|mins?)\s+(?:ago|earlier|back)\b",
                re.I), _h_hours_ago),
    (
        re.compile(
            r"\b(?:on\s+)?(?:" + ANY_WEEKDAY + r",?\s+)?(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?"
            r"\s+(?:of\s+)?(?P<mon>" + MONTH + r")\b\.?" + _DATE_TAIL, re.I,
        ),
        _h_date,
    ),
    (
        re.compile(
            r"\b(?:on\s+)?(?:" + ANY_WEEKDAY + r",?\s+)?(?P<mon>" + MONTH
            + r")\.?\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?\b(?!:)" + _DATE_TAIL,
            re.I,
        ),
        _h_date,
    ),
    (
        re.compile(
            r"\b(?:(?P<prep>in|since|last|next|this|during|until|by|early|late|mid|end\s+of|beginning\s+of)"
            r"[\s-]+(?P<mon>" + MONTH + r")|(?P<mon2>" + LONG_MONTH + r"))\b" + _DATE_TAIL,
            re.I,
        ),
        _h_month,
    ),
    (
        re.compile(
            r"\b(?P<prep>in|since|during|by|until|before|after|from|of|back\s+in)\s+(?P<yr>(?:19|20)\d{2})\b",
            re.I,
        ),
        _h_year,
    ),
    (
        re.compile(
            r"\b(?:(?P<dir>in|within)\s+)?(?P<n>" + COUNT + r")\s+(?P<unit>" + UNIT + r")"
            r"(?:\s+(?P<ago>ago|from\s+now|earlier|later|back))?\b",
            re.I,
        ),
        _h_ago,
    ),
    (
        re.compile(
            r"\b(?:the|these)\s+(?:past|last)\s+(?:(?P<n>" + COUNT + r")\s+)?(?P<unit>" + UNIT + r")\b", re.I
        ),
        _h_past_n,
    ),
    (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), _h_iso),
    (re.compile(r"\b(?:in|during|over)\s+(?:the\s+)?(?P<unit>" + SEASON + r")\b", re.I), _h_season),
]


def find_times(text: str, anchor: datetime) -> list[TimeRef]:
    """All time expressions in `text`, resolved against `anchor` (the turn's time), left to right.

    >>> [t.start.date().isoformat()
    ...  for t in find_times("I moved yesterday", datetime(2023, 5, 8, tzinfo=UTC))]
    ['2023-05-07']
    """
    said, (text, words) = text, digit_days(text)  # "the fifteenth" read as "the 15th", at the same offsets
    rules = (_RULES if _TRIGGER.search(text) else []) + extra_rules(text)
    if not rules:
        return []
    anchor = anchor.replace(tzinfo=UTC) if anchor.tzinfo is None else anchor.astimezone(UTC)
    found: list[tuple[int, int, datetime, datetime, str]] = []
    for rx, handler in rules:
        for m in rx.finditer(text):
            try:
                res = handler(m, anchor, clause_tense(text, m.start()))
            except (OverflowError, ValueError):
                continue  # "next year" said on 31 December 9999: no date the calendar holds
            if res is not None:
                found.append((m.start(), word_end(m.end(), words), *res))
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    out: list[TimeRef] = []
    last_end = -1
    for s, e, ts, te, gran in found:
        if s >= last_end:
            out.append(TimeRef(said[s:e], ts, te, gran, (s, e)))
            last_end = e
    return out


_SESSION = re.compile(
    r"^\s*(?:(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>[ap])\.?\s*m\.?\s+on\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+"
    r"(?P<mon>" + MONTH + r")\.?,?\s+(?P<yr>\d{4})\s*$",
    re.I,
)


def parse_session_datetime(value: str) -> datetime:
    """Parse a LoCoMo session time ("1:56 pm on 8 May, 2023") or ISO 8601 into aware UTC.

    >>> parse_session_datetime("1:56 pm on 8 May, 2023").isoformat()
    '2023-05-08T13:56:00+00:00'
    """
    if not isinstance(value, str) or not value.strip():
        raise InputError(
            f"empty or non-text date {value!r}; expected e.g. '1:56 pm on 8 May, 2023' or ISO 8601"
        )
    m = _SESSION.match(value)
    if m:
        hour = int(m.group("h") or 0)
        if m.group("h"):
            if not 1 <= hour <= 12:
                raise InputError(f"bad hour in date {value!r}")
            hour = hour % 12 + (12 if m.group("ap").lower() == "p" else 0)
        try:
            return datetime(int(m.group("yr")), MONTHS[m.group("mon").lower()], int(m.group("day")),
                            hour, int(m.group("mi") or 0), tzinfo=UTC)
        except ValueError as exc:
            raise InputError(f"impossible date {value!r}: {exc}") from None
    iso = value.strip()
    if iso.endswith(("Z", "z")):
        iso = iso[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(iso)
    except ValueError:
        raise InputError(
            f"unrecognised date {value!r}; expected e.g. '1:56 pm on 8 May, 2023' or ISO 8601 "
            "'2023-05-08T13:56:00Z'"
        ) from None
    try:
        return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
    except OverflowError:
        raise InputError(f"date {value!r} is out of range in UTC (years 1 to 9999)") from None
