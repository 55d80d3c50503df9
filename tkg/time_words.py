"""The date words relative times are read with, and the tense of the clause around one.

Months, weekdays, seasons and counts as tables (what a word means) and as regex fragments (how
it is spelled), shared by `timeparse.py` and the question cues (`planners/cues.py`). The tense
decides which July a bare "in July" means: see the conventions in `timeparse.py`.
"""

from __future__ import annotations

import re

MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
         ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
         ("october", "oct"), ("november", "nov"), ("december", "dec")]
    )
    for m in names
}
WEEKDAYS = {
    d: i for i, d in enumerate(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
}
# short weekday names; the ones that are also English words ("sat", "wed", "sun") only after "on", "last"…
WEEKDAY_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3,
                "fri": 4, "sat": 5, "sun": 6}
SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}  # first month of each
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
}
FUZZY = {"a few": (2, 4), "few": (2, 4), "a couple of": (2, 3), "a couple": (2, 3), "couple of": (2, 3),
         "several": (3, 6), "many": (3, 10)}

# any spelling of a month: full or abbreviated
MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
         r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
# the date words as regexes, also what planners/cues.py reads questions with
LONG_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
WEEKDAY = "(?:" + "|".join(WEEKDAYS) + ")"
# a weekday however spelled, and the spellings that name one with no word before them ("starting thurs")
ANY_WEEKDAY = (r"(?:monday|mon|tuesday|tues?|wednesday|weds?|thursday|thurs?|thu|friday|fri|saturday|sat"
               r"|sunday|sun)")
LEAD_WEEKDAY = re.compile(r"(?:on\s+)?(" + ANY_WEEKDAY + r")\b", re.I)  # the weekday a date starts with
BARE_WEEKDAY = r"(?:monday|tuesday|tues|wednesday|weds|thursday|thurs?|friday|fri|saturday|sunday)"
# a day of the month said alone: "the 8th", "the 27th" (a month name after it makes it a full date)
ORDINAL_DAY = r"(?P<day>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)"
SEASON = "(?:" + "|".join(SEASONS) + ")"
_UNITS = "first second third fourth fifth sixth seventh eighth ninth".split()
_TEENS = ("tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
          "nineteenth").split()
_DAY_WORDS = {w: i + 1 for i, w in enumerate(_UNITS)} | {w: i + 10 for i, w in enumerate(_TEENS)} | {
    "twentieth": 20, "thirtieth": 30} | {f"twenty-{w}": 21 + i for i, w in enumerate(_UNITS)} | {
    "thirty-first": 31}
# a day of the month in words where a date goes: "on (the) fifteenth", "Tuesday the twelfth", "the first of
# May" (not "the fifth in a row", "the first in line")
_WORDS = "|".join(w.replace("-", "[-\\s]") for w in sorted(_DAY_WORDS, key=len, reverse=True))
_WORD_DAY = re.compile(r"(?:(?<=\bon the )|(?<=\bon )|(?<=day the )|(?<=day ))(?:" + _WORDS + r")\b"
                       r"|\b(?:" + _WORDS + r")(?=\s+of\s+" + MONTH + r"\b)", re.I)


def digit_days(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with the days of a month said in words written in digits, each padded with spaces to the
    word's length so that every offset into ``text`` stays where it was, and where each such word is.

    >>> digit_days("born on the fifteenth, the first of May")
    ('born on the 15th     , the 1st   of May', [(12, 21), (27, 32)])
    """
    words: list[tuple[int, int]] = []

    def digits(m: re.Match[str]) -> str:  # one scan of the text: each word is noted as it is written
        words.append(m.span())
        day = _DAY_WORDS[re.sub(r"[-\s]+", "-", m.group(0).lower())]
        suffix = "st" if day % 10 == 1 and day != 11 else "nd" if day % 10 == 2 and day != 12 else \
            "rd" if day % 10 == 3 and day != 13 else "th"
        return f"{day}{suffix}".ljust(len(m.group(0)))
    return _WORD_DAY.sub(digits, text), words


def word_end(end: int, words: list[tuple[int, int]]) -> int:
    """Where a match ending at ``end`` ends in the text `digit_days` read: past the rest of a word it
    wrote in digits ("on the 15th" ends after "fifteenth")."""
    return max([end] + [b for a, b in words if a < end <= b])


# a count, in digits or words, vague ones too
COUNT = (r"(?:\d{1,3}|a\s+few|a\s+couple(?:\s+of)?|couple\s+of|few|several|many|an?|one|two|three|four|five"
         r"|six"
         r"|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)")
UNIT = r"(?:days?|weeks?|wks?|months?|mos|mths?|years?|yrs?|decades?)"
# a part of a year, its first and last month ("early 2022", "the end of last year")
YEAR_PARTS = {"early": (1, 4), "start": (1, 3), "beginning": (1, 3), "mid": (5, 8), "middle": (5, 8),
              "late": (9, 12), "end": (10, 12), "first half": (1, 6), "second half": (7, 12)}
YEAR_PART = (r"(?:early|mid|late|(?:the\s+)?(?:start|beginning|end|middle|(?:first|second)\s+half)\s+of"
             r"(?:\s+the\s+year)?)")
# a holiday of a fixed day (month, day), or Easter (dateutil's) and US Thanksgiving (reckoned)
HOLIDAYS = {"christmas eve": (12, 24), "xmas eve": (12, 24), "christmas": (12, 25), "xmas": (12, 25),
            "christmas day": (12, 25), "boxing day": (12, 26), "new year's eve": (12, 31),
            "new years eve": (12, 31), "new year's day": (1, 1), "new years day": (1, 1),
            "new year": (1, 1), "halloween": (10, 31), "valentine's day": (2, 14), "valentines day": (2, 14),
            "valentine's": (2, 14), "valentines": (2, 14), "new years": (1, 1)}
HOLIDAY = (r"(?:christmas(?:\s+(?:eve|day))?|xmas(?:\s+eve)?|boxing\s+day"
           r"|new\s+year(?:'?s)?(?:\s+(?:eve|day))?|halloween|valentine'?s(?:\s+day)?|easter(?:\s+(?:sunday|monday|weekend))?|thanksgiving)")
DAY_PART = r"(?:\s+(?:morning|afternoon|evening|night))?"

# cue words of a clause's tense
_FUTURE = re.compile(
    r"\b(?:will|won't|shall|gonna|going\s+to|plan(?:s|ned|ning)?\s+(?:to|on)|hop(?:e|es|ing)\s+to|"
    r"want(?:s)?\s+to|intend|scheduled|(?:fixed|set|booked|slated)\s+for|upcoming|looking\s+forward|can't\s+wait|tomorrow|next|soon|"
    r"(?:'m|am|are|'re|is)\s+(?:\w+ing))\b|'ll\b"
    # a date something is put off or moved to lies ahead ("moved to aug 22"; not "moved to Leeds")
    r"|\b(?:moved|pushed(?:\s+back)?|postponed|rescheduled|changed|put\s+back|delayed|bumped)\s+"
    r"(?:to|till|until)\s+(?:the\s+)?(?:\d|" + MONTH + r"\b|" + ANY_WEEKDAY + r"\b)",
    re.I,
)
_PAST = re.compile(
    r"\b(?:was|were|went|did|had|got|came|made|took|saw|met|left|bought|sold|found|told|ran|won|lost|swam"
    r"|rode|drove|flew|began|wrote|sang|ate|drank|gave|kept|felt|thought|brought|caught|taught|paid|heard"
    r"|sat|stood|spent|sent|built|broke|chose|fell|forgot|threw|grew|knew|wore|woke|became|slept|\w+ed)\b",
    re.I,
)
_CLAUSE_END = re.compile(r"[.!?;]")
_NOT_PAST = frozenset(
    {
        "need", "feed", "speed", "seed", "indeed", "bed", "red", "proceed", "succeed", "exceed", "weed",
        "breed", "shed", "wed", "sled", "embed", "bleed", "greed",
    }
)


_PART_END = re.compile(r"[,:—–]|\s-\s")
# a present-tense verb of its own in a comma-separated part ("i got the job, first shift is thurs"; "we have a
# gig on the 18th — sorry, the 25th, Marcus double-booked us"), or a
# participle that leads a part after the first ("we found a flat, moving on the 1st of July")
_PRESENT = re.compile(r"\b(?:is|are|am|has|have|starts|begins|opens|runs)\b", re.I)
_LEADING_ING = re.compile(r"\s*(?:and\s+|then\s+)?[a-z]{2,}ing\b", re.I)


def weekday_of(word: str) -> int:
    """Monday 0 … Sunday 6 for a weekday however spelled ("thurs", "Tuesdays")."""
    w = word.lower()
    return WEEKDAYS.get(w.rstrip("s"), WEEKDAY_ABBR.get(w, WEEKDAY_ABBR.get(w.rstrip("s"), 0)))


def clause_tense(text: str, pos: int) -> str:
    """"past", "present" or "future" for the clause of `text` around `pos` (a cheap cue-word guess).
    A comma-separated part with a verb cue of its own speaks for itself."""
    lo = 0
    for m in _CLAUSE_END.finditer(text, 0, pos):
        lo = m.end()
    hi_m = _CLAUSE_END.search(text, pos)
    hi = hi_m.start() if hi_m else len(text)
    part_lo = max([lo, *(m.end() for m in _PART_END.finditer(text, lo, pos))])
    part_hi_m = _PART_END.search(text, pos, hi)
    part_hi = part_hi_m.start() if part_hi_m else hi
    own = _PRESENT.search(text, part_lo, part_hi) or (part_lo > lo
                                                      and _LEADING_ING.match(text, part_lo, part_hi))
    if (part_lo, part_hi) != (lo, hi) and own \
            and not _FUTURE.search(text, part_lo, part_hi) and not _PAST.search(text, part_lo, part_hi):
        return "present"
    if _FUTURE.search(text, lo, hi):
        return "future"
    for m in _PAST.finditer(text, lo, hi):
        if m.group(0).lower() not in _NOT_PAST:
            return "past"
    return "present"
