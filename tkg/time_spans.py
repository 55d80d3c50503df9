"""Calendar spans relative times resolve to: whole days, weeks, months, seasons and years.

Every span is [start, end) in UTC, and the repeats of a period (this July, last July, next July)
are chosen between by `choose`, by tense or by "last"/"next"/"this" (`timeparse.py` states the
conventions).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dateutil.easter import easter
from dateutil.relativedelta import relativedelta

from tkg.time_words import FUZZY, HOLIDAYS, NUMBERS, SEASONS, YEAR_PARTS

Span = tuple[datetime, datetime]


def day_of(d: datetime) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=UTC)


def bucket(point: datetime, unit: str) -> tuple[datetime, datetime]:
    """The whole day/week/month/year containing `point`."""
    d = day_of(point)
    if unit == "day":
        return d, d + timedelta(days=1)
    if unit == "week":
        s = d - timedelta(days=d.weekday())
        return s, s + timedelta(days=7)
    if unit == "month":
        s = d.replace(day=1)
        return s, s + relativedelta(months=1)
    if unit == "decade":
        s = d.replace(year=d.year - d.year % 10, month=1, day=1)
        return s, s + relativedelta(years=10)
    s = d.replace(month=1, day=1)
    return s, s + relativedelta(years=1)


def step(unit: str, n: int) -> relativedelta:
    if unit == "day":
        return relativedelta(days=n)
    if unit == "week":
        return relativedelta(weeks=n)
    if unit == "month":
        return relativedelta(months=n)
    return relativedelta(years=n * (10 if unit == "decade" else 1))


_UNIT_ABBR = {"wk": "week", "mo": "month", "mth": "month", "yr": "year"}


def unit_word(word: str) -> str:
    """The unit a (possibly abbreviated, plural) unit word names: "wks" → "week"."""
    w = word.lower().rstrip("s")
    return _UNIT_ABBR.get(w, w)


def count_range(word: str) -> tuple[int, int]:
    w = " ".join(word.lower().split())
    if w in FUZZY:
        return FUZZY[w]
    n = int(w) if w.isdigit() else NUMBERS.get(w, 1)
    return n, n


def weekend(anchor: datetime, offset_weeks: int) -> tuple[datetime, datetime]:
    monday = day_of(anchor) - timedelta(days=anchor.weekday())
    s = monday + timedelta(days=5 + 7 * offset_weeks)
    return s, s + timedelta(days=2)


def month_span(year: int, month: int) -> tuple[datetime, datetime]:
    s = datetime(year, month, 1, tzinfo=UTC)
    return s, s + relativedelta(months=1)




def choose(cands: list[Span], anchor: datetime, rel: str, tense: str) -> Span:
    """Pick among yearly (or weekly) repeats of the same period, sorted by start.

    rel: "last" | "next" | "this" | "" ; tense decides for "": the repeat holding
    the anchor, else past -> latest before, future -> first after, present -> nearest.
    """
    current = [c for c in cands if c[0] <= anchor < c[1]]
    before = [c for c in cands if c[1] <= anchor]
    after = [c for c in cands if c[0] > anchor]
    if rel == "last":
        return before[-1]
    if rel == "next":
        return after[0]
    if current:
        return current[0]
    if rel == "this":
        return next((c for c in cands if c[0].year == anchor.year), after[0])
    if tense == "past" or (tense == "present" and (anchor - before[-1][1]) <= (after[0][0] - anchor)):
        return before[-1]
    return after[0]


def season_span(year: int, first_month: int) -> Span:
    s = datetime(year, first_month, 1, tzinfo=UTC)
    return s, s + relativedelta(months=3)

def seasons_around(anchor: datetime, unit: str) -> list[Span]:
    return [season_span(y, SEASONS[unit]) for y in range(anchor.year - 2, anchor.year + 2)]


def day_of_month(anchor: datetime, day: int, weekday: int | None, *, past: bool) -> datetime | None:
    """"the 8th", "Wednesday the 19th": that day of a month near the anchor (of one whose weekday fits
    when a weekday is said), the latest by the anchor's day when ``past``, else the next from it."""
    cands = []
    for k in range(-3, 4):
        y, mo = divmod(anchor.month - 1 + k, 12)
        try:
            cands.append(datetime(anchor.year + y, mo + 1, day, tzinfo=UTC))
        except ValueError:
            continue  # the 31st of a short month
    if weekday is not None:
        cands = [c for c in cands if c.weekday() == weekday] or cands
    today = day_of(anchor)
    before, ahead = [c for c in cands if c <= today], [c for c in cands if c >= today]
    if not cands:
        return None
    return (before[-1] if before else ahead[0]) if past else (ahead[0] if ahead else before[-1])


def year_of(word: str) -> int:
    """A written year: "2022", or "'22" (this century, or the last for '70 and above)."""
    w = word.strip().lstrip("'’")
    n = int(w)
    return n if len(w) == 4 else n + (1900 if n >= 70 else 2000)


def year_said(year: str | None, relative: str | None, anchor: datetime) -> int | None:
    """The year written after a date: "2023", "'23", or "next"/"last"/"this" (year) from the turn's."""
    if year:
        return year_of(year)
    rel = (relative or "").lower()
    return anchor.year + {"next": 1, "last": -1}.get(rel, 0) if rel else None


def year_part(words: str, year: int) -> Span | None:
    """The months a part of a year names ("early", "the end of", "the first half of"), [start, end)."""
    w = " ".join(words.lower().replace("-", " ").split())
    key = next((k for k in sorted(YEAR_PARTS, key=len, reverse=True) if k in w), None)
    if key is None:
        return None
    first, last = YEAR_PARTS[key]
    return datetime(year, first, 1, tzinfo=UTC), datetime(year, last, 1, tzinfo=UTC) + relativedelta(months=1)


_PART_NAMES = {(1, 4): "early", (1, 3): "the start of", (5, 8): "mid", (9, 12): "late",
               (10, 12): "the end of", (1, 6): "the first half of", (7, 12): "the second half of"}


def part_name(start: datetime, end: datetime) -> str | None:
    """"early 2022 (January–April)" for the span `year_part` gives, None for any other span."""
    last = end - timedelta(days=1)
    name = _PART_NAMES.get((start.month, last.month))
    if name is None or start.day != 1 or end.day != 1 or start.year != last.year:
        return None
    return f"{name} {start.year} ({start:%B}–{last:%B})"


def holiday(name: str, year: int) -> datetime | None:
    """The day a holiday falls on in ``year`` (Easter by dateutil, Thanksgiving the fourth Thursday
    of November), None for a name not known."""
    w = " ".join(name.lower().replace("’", "'").split())
    if w.startswith("easter"):
        d = easter(year)
        return datetime(d.year, d.month, d.day, tzinfo=UTC) + timedelta(days=1 if w.endswith("monday") else 0)
    if w == "thanksgiving":
        first = datetime(year, 11, 1, tzinfo=UTC)
        return first + timedelta(days=(3 - first.weekday()) % 7 + 21)
    day = HOLIDAYS.get(w) or HOLIDAYS.get(w.replace("'", ""))
    return datetime(year, day[0], day[1], tzinfo=UTC) if day else None
