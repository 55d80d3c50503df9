"""The less common date forms `timeparse.find_times` reads, each a (regex, handler) rule.

Parts of a year ("early 2022", "mid-2021", "the end of last year", "the first half of 2023"), a
season of a year ("the summer of 2022", "spring '21"), numeric dates ("3/14/2023", "14.03.2023",
"03/2023"; dateutil reads the day and month, the reading nearer the turn's time when both are dates)
and holidays ("christmas", "last easter", "new year's eve 2022", "the week before christmas").
A handler takes the match, the turn's time and its clause's tense, like `timeparse`'s own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from dateutil import parser as date_parser

from tkg.time_spans import choose, holiday, month_span, season_span, year_of, year_part
from tkg.time_words import HOLIDAY, SEASON, SEASONS, YEAR_PART

Result = tuple[datetime, datetime, str] | None
Handler = Callable[[re.Match[str], datetime, str], Result]


def _h_year_part(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    """"early 2022", "mid-2021", "the end of last year", "the first half of 2023"."""
    rel = (m.group("rel") or "").lower()
    year = year_of(m.group("yr")) if m.group("yr") else anchor.year + {"last": -1, "next": 1}.get(rel, 0)
    span = year_part(m.group("mod"), year)
    return (*span, "part") if span else None


def _h_season_year(m: re.Match[str], anchor: datetime, tense: str) -> Result:  # "the summer of 2022"
    return (*season_span(year_of(m.group("yr")), SEASONS[m.group("unit").lower()]), "season")


def _h_numeric(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    """"3/14/2023", "14.03.2023", "03/2023" (a month). dateutil reads the numbers; when both readings
    are dates ("3/10/2023": 10 March or 3 October) the one nearer the turn's time wins: a conversation
    names dates near the day it is had."""
    if m.group("mo"):
        return (*month_span(int(m.group("yr")), int(m.group("mo"))), "month")
    days = []
    for first in (False, True):
        try:
            d = date_parser.parse(m.group(0), dayfirst=first)
        except (ValueError, OverflowError):
            continue
        days.append(datetime(d.year, d.month, d.day, tzinfo=UTC))
    if not days:
        return None
    s = min(days, key=lambda d: (abs(d - anchor), d))
    return s, s + timedelta(days=1), "day"


def _h_holiday(m: re.Match[str], anchor: datetime, tense: str) -> Result:
    """"christmas", "last easter", "new year's eve 2022", "the week before christmas"."""
    name, yr = m.group("hol") or m.group("hol2"), m.group("yr") or m.group("yr2")
    years = [year_of(yr)] if yr else list(range(anchor.year - 1, anchor.year + 2))
    days = [d for d in (holiday(name, y) for y in years) if d is not None]
    if not days:
        return None
    rel = (m.group("rel") or "").lower()
    spans = [(d, d + timedelta(days=1)) for d in days]
    day = days[0] if len(days) == 1 else choose(spans, anchor, rel, tense)[0]
    off, side = (m.group("off") or "").lower(), (m.group("side") or "").lower()
    if off == "week":
        s = day - timedelta(days=7) if side == "before" else day + timedelta(days=1)
        return s, s + timedelta(days=7), "week"
    s = day + timedelta(days={"before": -1, "after": 1}.get(side, 0))
    return s, s + timedelta(days=1), "day"


# (gate, rule, handler): a rule is tried only on a text whose lower case holds a word of its gate
EXTRA_RULES: list[tuple[tuple[str, ...], re.Pattern[str], Handler]] = [
    (("year", "19", "20"),
     re.compile(r"\b(?P<mod>" + YEAR_PART + r")[\s-]+(?:(?P<yr>(?:19|20)\d{2})"
                r"|(?P<rel>last|this|next)\s+year)\b", re.I), _h_year_part),
    (("spring", "summer", "fall", "autumn", "winter"),
     re.compile(r"\b(?:(?:in|during|over|by)\s+)?(?:the\s+)?(?P<unit>" + SEASON
                + r")\s+(?:of\s+)?(?P<yr>(?:19|20)\d{2}\b|['\u2019]\d{2}\b)", re.I), _h_season_year),
    (("/", ".19", ".20"),
     re.compile(r"\b(?:\d{1,2}/\d{1,2}/(?:(?:19|20)\d{2}|\d{2})|\d{1,2}\.\d{1,2}\.(?:19|20)\d{2})\b"
                r"|\b(?P<mo>0?[1-9]|1[0-2])/(?P<yr>(?:19|20)\d{2})\b"), _h_numeric),
    # a holiday only as a time: after a preposition or "last"/"next", or with its year ("a Christmas
    # concert", "Merry Christmas" and "new year, new me" are no times)
    (("christmas", "xmas", "easter", "halloween", "thanksgiving", "new year", "valentine", "boxing day"),
     re.compile(r"\b(?:the\s+(?P<off>day|week)\s+(?P<side>before|after)\s+|(?:on|at|for|by|over|before|after"
                r"|until|till|since|around|during|from)\s+|(?P<rel>last|this|next)\s+)(?P<hol>" + HOLIDAY
                + r")(?:\s+(?P<yr>(?:19|20)\d{2}))?\b"
                r"|\b(?P<hol2>" + HOLIDAY + r")\s+(?P<yr2>(?:19|20)\d{2})\b", re.I), _h_holiday),
]


def extra_rules(text: str) -> list[tuple[re.Pattern[str], Handler]]:
    """The rules of `EXTRA_RULES` worth trying on ``text``: those whose gate it holds."""
    low = text.lower()
    return [(rx, h) for gate, rx, h in EXTRA_RULES if any(w in low for w in gate)]
