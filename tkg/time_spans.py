"""Calendar spans relative times resolve to: whole days, weeks, months, seasons and years.

Every span is [start, end) in UTC, and the repeats of a period (this July, last July, next July)
are chosen between by `choose`, by tense or by "last"/"next"/"this" (`timeparse.py` states the
conventions).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dateutil.relativedelta import relativedelta

from tkg.time_words import FUZZY, NUMBERS, SEASONS

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


def unit_word(word: str) -> str:
    return word.lower().rstrip("s")


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
