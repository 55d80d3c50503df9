"""Surface cues in a question: time anchors, recency, summary and count requests, the place a list is in.

Gates, classifier features and the hop planner all read questions through these few
patterns, so a cue that is fixed here is fixed everywhere. Each detector returns the
matched text (for the trace) or None; near-misses that are common English ("look after",
"all the time", "know", "currency") are excluded on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from tkg.time_words import HOLIDAY as _HOLIDAY
from tkg.time_words import LONG_MONTH as _MONTH_FULL
from tkg.time_words import SEASON as _SEASON
from tkg.time_words import UNIT as _UNIT_WORD
from tkg.time_words import WEEKDAY as _WEEKDAY
from tkg.time_words import YEAR_PART as _YEAR_PART
from tkg.words import countries_of, town_size

_MONTH = rf"(?:{_MONTH_FULL}|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?)"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"
_UNIT = rf"(?:{_UNIT_WORD}|weekends?)"
_DATE = (
    rf"\d{{4}}-\d{{2}}-\d{{2}}"
    rf"|\d{{1,2}}/\d{{1,2}}/(?:{_YEAR}|\d{{2}})|\d{{1,2}}\.\d{{1,2}}\.{_YEAR}|\d{{1,2}}/{_YEAR}"
    rf"|{_YEAR_PART}[\s-]+(?:{_YEAR}|(?:last|this|next)\s+year)"
    # a holiday as a time, not as the name of a thing ("the christmas concert")
    rf"|(?:the\s+(?:day|week)\s+(?:before|after)\s+)?(?:(?:last|this|next)\s+)?{_HOLIDAY}(?:\s+{_YEAR})?"
    r"(?![\s-]+(?!(?:in|on|at|with|and|or|was|is|did|last|this|that|when|while|before|after)\b)[a-z])"
    rf"|{_MONTH}\s+{_DAY},?\s+{_YEAR}"
    rf"|{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}"
    rf"|{_MONTH},?\s+(?:of\s+)?{_YEAR}"
    rf"|(?:the\s+)?(?:early|mid|late)[- ]{_YEAR}s?"
    rf"|(?:the\s+)?{_SEASON}\s+(?:of\s+)?(?:{_YEAR}|['\u2019]\d{{2}})"
    rf"|{_YEAR}"
    rf"|{_MONTH}\s+{_DAY}\b"
    rf"|(?:last|this|next|past|previous)\s+(?:{_SEASON}|{_UNIT}|{_WEEKDAY}|christmas|easter)"
    rf"|(?:a|one|two|three|four|five|six|a\s+few|a\s+couple\s+of|several|\d+)\s+{_UNIT}\s+ago"
    rf"|yesterday|the\s+day\s+before\s+yesterday"
)
_KEEP_PREP = r"before|after|since|until|till|prior\s+to"
_STRIP_PREP = (
    r"back\s+in|in|on|as\s+of|during|around|by|over|throughout|at"
)


@dataclass(frozen=True)
class TimeAnchor:
    """A date-like phrase of a question (what the walker resolves) and where it stands in it."""

    text: str  # what the walker should resolve: "March 2023", "before 2022", "last summer"
    start: int  # span in the question, including a stripped preposition
    end: int

    def cut(self, question: str, by: str = "") -> str:
        """``question`` with the anchor's span replaced by ``by``: what is left says what is asked."""
        return question[: self.start] + by + question[self.end :]


_ANCHOR = re.compile(
    rf"(?:(?P<keep>{_KEEP_PREP})\s+|(?P<strip>{_STRIP_PREP})\s+)?(?P<date>{_DATE})(?![\w-])"
    rf"|(?:(?P<keep2>{_KEEP_PREP})\s+|(?P<strip2>in|during|since|by|until|over)\s+)"
    rf"(?P<month>{_MONTH_FULL}|(?:the\s+)?{_SEASON})\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=10_000)
def find_time_anchor(question: str) -> TimeAnchor | None:
    """The first date-like anchor in `question`, without "in"/"as of"/"during" (kept per text: the
    planner and the procedures look for it in one question several times).

    >>> find_time_anchor("Where did Priya live in March 2023?").text
    'March 2023'
    """
    for m in _ANCHOR.finditer(question):
        date = m.group("date") or m.group("month")
        if (
            m.group("month")
            and m.group("month").lower() == "may"
            and not m.group("keep2")
            and not m.group("strip2")
        ):
            continue
        keep = m.group("keep") or m.group("keep2")
        text = f"{' '.join(keep.split())} {date}" if keep else date
        return TimeAnchor(" ".join(text.split()), m.start(), m.end())
    return None


_EVENT_ANCHOR = re.compile(
    r"^\s*when (?:did|was|were|had|has|have)\b|\bsince when\b|\bby when\b|\bwhat (?:year|month|date|day)\b"
    r"|\bhow long ago\b"
    r"|\bused to\b|\bdid(?:n't|\s+not)?\s+(?:\S+\s+){1,3}?use to\b"  # not "what does she use to get around"
    r"|\bpreviously\b|\bformerly\b|\bat the time\b|\bback then\b|\bat that time\b"
    r"|(?<!look )(?<!looks )(?<!looked )(?<!looking )(?<!named )(?<!take )(?<!takes )(?<!took )"
    r"\b(?:before|after|until|since)\b(?!\s*[?.!]?\s*$)",
    re.IGNORECASE,
)


def time_cue(question: str) -> str | None:
    """A date, or a word that ties the question to a moment ("when", "before", "used to")."""
    anchor = find_time_anchor(question)
    if anchor is not None:
        return anchor.text
    m = _EVENT_ANCHOR.search(question)
    return " ".join(m.group(0).split()) if m else None



def _cue(pattern: str, doc: str) -> Callable[[str], str | None]:
    """A cue detector: the text of the first case-insensitive match of ``pattern``, or None."""
    compiled = re.compile(pattern, re.IGNORECASE)

    def detect(question: str) -> str | None:
        m = compiled.search(question)
        return m.group(0) if m else None

    detect.__doc__ = doc
    return detect


recency_cue = _cue(
    r"\b(?:right now|now|currently|current|still|anymore|any more|these days|nowadays|latest|"
    r"most recent(?:ly)?|at the moment|at present|presently|newest|today|up[- ]to[- ]date)\b(?!-)",
    'A marker that asks for the value as it stands now ("still", "currently", "latest").',
)
outcome_cue = _cue(
    r"\b(?:finally|in the end|end(?:s|ed)? up|eventually|final (?:plan|choice|decision|pick)|at last)\b",
    'A marker that asks how something turned out ("finally", "in the end"): the last value said, '
    "though the question is no question about now",
)
_HOW_AUX = r"\bhow(?:'s|\s+(?:is|are|was|were|has|have|had|did|does|do))\b"
# the ordinary ways English asks for the story of something rather than one fact of it: "what happened
# with/to X", "how did X change/develop/go/turn out", "tell me about X", "walk me through X", "what's the
# story with X". "How did she get to work?", "how did he pay?" and "what happened on 3 May" are not.
STORY = (
    r"\bwhat(?:'s|\s+has|\s+had)?\s+happened\s+(?:with|to)\b|\bwhat\s+became\s+of\b"
    rf"|{_HOW_AUX}[^?.!]{{1,70}}?\b(?:chang(?:e|ed|ing)|develop(?:ed|ing)?|evolv(?:e|ed|ing)|unfold(?:ed|ing)?"
    r"|progress(?:ed|ing)?)\b"
    rf"|{_HOW_AUX}[^?.!]{{1,70}}?\b(?:go|gone|going|went|turn(?:ed)?\s+out|work(?:ed)?\s+out|pan(?:ned)?\s+out)"
    r"(?:\s+(?:so\s+far|overall|in\s+the\s+end|lately|recently))?\s*[?.!]?\s*$"
    r"|\btell\s+me\s+(?:more\s+|all\s+)?about\b|\b(?:walk|talk|take)\s+me\s+through\b"
    r"|\bwhat(?:'s|\s+is|\s+was)\s+the\s+(?:story|deal|situation)\s+(?:with|behind)\b"
)
summary_cue = _cue(
    r"\bsummari[sz]e\b|\bsummary\b|\boverview\b|\brecap\b|\brun-?down\b|\btell me everything\b"
    r"|\beverything (?:you know|that) |\beverything about\b|\bbeen up to\b|\bgoing on (?:with|in)\b"
    r"|\bcatch me up\b|\bfill me in\b|\b(?:whole|full) (?:story|picture)\b|\bhow has\b.{1,50}\bchanged\b"
    r"|\bdescribe\b|\bexplain what\b|'s story\b|\bwhat (?:is|'s) \w+ like\b|\bwhat do you know about\b"
    rf"|\bthe story of\b|\bin a nutshell\b|\bbig picture\b|{STORY}",
    "A request for a summary, an overview or the story of something rather than one fact.",
)
_count_words = _cue(
    r"\bhow many\b|\bhow often\b|\bnumber of\b|\blist\b|\bname (?:all|every|each)\b|\bcount\b|\bin total\b"
    r"|\bwhat (?:kinds|types|sorts) of\b|\bwhich of\b|^\s*who are\b|\bevery (?:place|city|country|person|book"
    r"|pet|job)\b"
    r"|\ball (?:of )?(?:the|her|his|their|its|those|these|my)\b(?! time\b| way\b| same\b| while\b)"
    r"|\ball of \w+'s?\b|\bhousehold\b|\bfamily members\b"
    r"|^\s*who\s+(?:have|has)\s+(?:been\s+(?:the|\w+['\u2019]s)\s|\w+\s+\w+ed\b)"
    r"|\bover (?:the|these|those) (?:past |last )?(?:few )?(?:months|years|weeks)\b"
    r"|\bin (?:chronological |the right )?order\b|^\s*who\s+have\s+\w+ed\b"  # "who have managed it, in order"
    r"|\b(?:over|during|across|throughout) (?:the course of )?(?:the|these|our) (?:conversations|chats)\b",
    "The words that ask for a count or a list.",
)
_AUX_AFTER = r"(?:has|have|had|did|does|do|can|could|will|would|is|are|was|were)\b"
_WHICH_PLURAL = re.compile(r"\b(?:which|what) ((?:\w+ ){0,2}?\w+)(?: or \w+)? " + _AUX_AFTER, re.IGNORECASE)
# the head before a place or a part it is of: "which places in Ireland has", "which areas of Perth has"
_WHICH_PLURAL_IN = re.compile(r"\b(?:which|what) (\w+) (?:in|of|at|on|around|across|near|within|outside) "
                              r"(?:the )?[\w'-]+(?: [\w'-]+)? " + _AUX_AFTER, re.IGNORECASE)
_AFTER_NOUN = frozenset("away abroad exactly specifically again together out overseas here there".split())
_NOT_PLURAL = frozenset({"does", "is", "was", "has", "this", "us", "bus", "gas", "news", "yes", "ss"})


def count_cue(question: str) -> str | None:
    """A request for a count or a list ("how many", "list", "which books has ...")."""
    if m := _count_words(question):
        return m
    for w in _WHICH_PLURAL.finditer(question):
        words = w.group(1).lower().split()
        while len(words) > 1 and words[-1] in _AFTER_NOUN:  # "which trips away did she take": "trips"
            words.pop()
        # the head, last: "what graphics card is it" asks for one card; a name after it is no head
        # ("which city in Wales does she live in")
        named = len(words) > 1 and w.group(1).split()[len(words) - 1][:1].isupper()
        if _plural(words[-1]) and not named:
            return w.group(0)
    plural_in = (w for w in _WHICH_PLURAL_IN.finditer(question) if _plural(w.group(1).lower()))
    return next((w.group(0) for w in plural_in), None)


def _plural(noun: str) -> bool:
    return noun in {"people", "children", "kids"} or (
        noun.endswith("s") and not noun.endswith(("ss", "us", "is")) and noun not in _NOT_PLURAL)


# "… over the mentorship", "… during these conversations": a trailing span of time a list or a story is
# gathered over, which names neither what is asked nor its topic
_SPAN_FRAME = re.compile(r"\s*\b(?:over|during|throughout|across|in the course of)\s+"
                         r"(?:the\s+course\s+of\s+)?(?:the|these|those|this|that|his|her|their|its|our|my|your)\s+[^?.!,]+?\s*[?.!]?\s*$",
                         re.I)


def without_span(question: str) -> str:
    """``question`` without the span of time it is asked over, if it ends on one.

    >>> without_span("Which clubs has Ann joined during these conversations?")
    'Which clubs has Ann joined'
    """
    return _SPAN_FRAME.sub("", question)


# the place a list of places is confined to: "in Ireland", "within Brisbane", "areas of Perth"
_WITHIN = re.compile(r"\b(?:in|within|inside|around|across|of)\s+(?:the\s+)?"
                     r"([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\b")


def within_cue(question: str) -> str | None:
    """The place GeoNames knows that a question confines its places to.

    >>> within_cue("Which towns in Wales has Ffion lived in?"), within_cue("Which towns has she lived in?")
    ('Wales', None)
    """
    return next((m.group(1) for m in _WITHIN.finditer(question)
                 if countries_of(m.group(1)) or town_size(m.group(1))), None)
