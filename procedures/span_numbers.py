"""Numbers in one parsed sentence, as the reader types them: counts, clock and race times, ages, and
sums of money.

`procedures.spans` asks here for the spans of the "number" kind. An age is a count of years, never a
clock time, money or an ordinal; a number whose own words say it is an age ("turned 40", "nine years
old", "at sixty-one") is cued, so the reader needs no cue word near it. A sum of money ("£4,200", "80
quid", "4.2k", "2 million") is what a "how much did it cost" question asks for.
"""

from __future__ import annotations

import re
from typing import Any

from planners.asked import RACE_TIME

from .span_base import Span, entity_spans
from .span_words import AGE_AFTER, AGE_BEFORE, CLOCK, NER_KINDS, NUMBER_WORDS

AGE_WORDS = re.compile(r"\s*-?\s*(?:years?|yrs?)\s*-?\s*old\b|\s+yo\b", re.I)
_CURRENCY = frozenset("£ $ € ¥ usd gbp eur".split())
# what makes a clock-like number no race result: a time of day ("at 10:40", "6:30 pm"), a pace ("5:20
# pace", "5:20s", "5:20/km"), a target ("sub-1:45", "under 50:00", "go for 3:45")
_CLOCK_BEFORE = frozenset("at by around till until from before after sub under below".split())
_PACE_AFTER = frozenset("pace pm am a.m. p.m. per s".split())  # and anything after a "/" ("/km")
_THOUSANDS = re.compile(r"^[£$€]?\d[\d,.]*[km]$", re.I)  # "4.2k", "£2m"
_MONEY_VERBS = frozenset("sell pay cost buy raise price charge earn spend offer worth rent salary".split())
_MONEY_AFTER = frozenset("k grand quid bucks pounds pound dollars dollar euros euro million m mil bn billion "
                         "thousand".split())


def number_runs(sent: Any) -> list[Span]:
    """Numbers as written: "34", "sixty-two", "twenty five" (a run of number words and hyphens)."""
    out: list[Span] = []
    run: list[Any] = []
    toks = list(sent) + [None]
    for t in toks:
        # a number word counts as a numeral only ("one dog"), not as a pronoun ("the one you drove")
        is_num = t is not None and (t.like_num and not t.text[:1].isalpha()
                                    or t.lower_ in NUMBER_WORDS and t.pos_ == "NUM")
        if is_num or (t is not None and t.text == "-" and run):
            run.append(t)
            continue
        while run and run[-1].text == "-":
            run.pop()
        if run:
            doc = run[0].doc
            out.append(Span(doc.text[run[0].idx : run[-1].idx + len(run[-1].text)], "number", 0.8,
                            run[0].i, run[-1].i + 1))
        run = []
    return out


def numbers(sent: Any, head: str) -> list[Span]:
    if head == "amount":
        return amounts(sent)
    if head == RACE_TIME:
        return race_times(sent)
    if head == "time":  # a clock time or a race time: "6:30 pm", "3:41:07", not a count or a date
        clocks = [Span(e.text, "number", 0.9, e.start, e.end) for e in sent.ents
                  if e.label_ == "TIME" and any(c.isdigit() for c in e.text)]
        return clocks + [Span(t.text, "number", 0.9, t.i, t.i + 1) for t in sent
                         if CLOCK.match(t.text) and not any(c.start <= t.i < c.end for c in clocks)]
    if head == "age":  # an age is a count of years: no clock times, money or ordinals
        return [Span(s.text, s.kind, 0.95 if _says_age(sent, s) else s.sure, s.start, s.end,
                     _names_age(sent, s))
                for s in number_runs(sent) if not (s.text.isdigit() and int(s.text) > 130)
                and sent.doc[s.start].ent_type_ not in ("TIME", "MONEY", "PERCENT", "ORDINAL")]
    out = [s for s in entity_spans(sent, NER_KINDS["number"], "number", 0.9)
           if not (s.end - s.start == 1 and sent.doc[s.start].lower_ in NUMBER_WORDS
                   and sent.doc[s.start].pos_ != "NUM")]  # "the one you drove": a pronoun
    seen = {i for s in out for i in range(s.start, s.end)}
    found = out + [s for s in number_runs(sent) if s.start not in seen]
    if head in _MEASURES:  # a score or a price is no rank: "nursing 2nd year" says none
        found = [s for s in found
                 if sent.doc[s.start].ent_type_ != "ORDINAL" and not _ORDINAL.fullmatch(s.text)]
    return found


# heads a measured value answers, which an ordinal never does
_MEASURES = frozenset("score price salary rent height weight distance grade mark result".split())
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)", re.I)


# a duration in words: "47 minutes", "52 min 40", "1 hour 41", "3 hrs 52 mins", "52 minutes and 40 seconds"
_WORDED = re.compile(
    r"(?<![\w:.-])(?:\d{1,2}\s*(?:h|hr|hrs|hour|hours)(?:\s*(?:and\s*)?\d{1,2}(?:\s*(?:m|min|mins|minutes))?)?"
    r"|\d{1,3}\s*(?:min|mins|minutes)(?:\s*(?:and\s*)?\d{1,2}(?:\s*(?:s|sec|secs|seconds))?)?)(?![\w:])",
    re.I,
)
# what a duration that is no result is said with: "10 minutes away", "5 min per km", "20 minutes late"
_NOT_RESULT = re.compile(
    r"^\s*(?:per|a\s+(?:km|mile)|/|away|late|early|ago|walk|drive|ride|left|to\s+go|off)\b", re.I)


def race_times(sent: Any) -> list[Span]:
    """Durations written as a race result: "48:59", "1:41:50" (see `_CLOCK_BEFORE`, `_PACE_AFTER`),
    or in words, "47 minutes", "52 min 40", "1 hour 41" (not "10 minutes away", "5 min per km").

    >>> from tkg.nlp import parse
    >>> said = parse("New PB: 48:59, at 10:40 on the track, 4:50 pace. Sub-45:00 next!")
    >>> [s.text for s in race_times(said[:])]
    ['48:59']
    >>> [s.text for s in race_times(parse("52 minutes 40 in the 10k, a 10 minute walk from home")[:])]
    ['52 minutes 40']
    """
    out = _worded(sent)
    for t in sent:
        if not CLOCK.match(t.text):  # "sub-22:30" is one token and no clock
            continue
        before = sent.doc[t.i - 1].lower_ if t.i > sent.start else ""
        after = sent.doc[t.i + 1].lower_ if t.i + 1 < sent.end else ""
        if before in _CLOCK_BEFORE or before == "-" or after in _PACE_AFTER or after.startswith("/"):
            continue
        out.append(Span(t.text, "number", 0.9, t.i, t.i + 1))
    return out


def _worded(sent: Any) -> list[Span]:
    """Race durations written in words (see `race_times`), as spans of the sentence's tokens."""
    out = []
    for m in _WORDED.finditer(sent.text):
        before = sent.text[max(0, m.start() - 6):m.start()].lower()
        if _NOT_RESULT.match(sent.text[m.end():]) or re.search(r"(?:sub|under|target)\W*$", before):
            continue
        start, end = sent.start_char + m.start(), sent.start_char + m.end()
        at = sent.doc.char_span(start, end, alignment_mode="expand")
        if at is not None:
            out.append(Span(m.group(0), "number", 0.6, at.start, at.end))  # less sure than "48:59"
    return out


def _says_age(sent: Any, span: Span) -> bool:
    """A number the sentence gives as an age: "turned 40", "at sixty-one", "nine years old"."""
    doc = sent.doc
    before = doc[span.start - 1].lower_ if span.start > sent.start else ""
    after = doc[span.end].lower_ if span.end < sent.end else ""
    return before in AGE_BEFORE or after in AGE_AFTER or after.startswith("year-old")


def _names_age(sent: Any, span: Span) -> bool:
    """A number that can only be an age: "turned 40", "at sixty-one", "aged 9", "nine years old",
    "a 12-year-old" (not "thirty years", which may say how long, nor "at 5", a clock time)."""
    doc = sent.doc
    before = doc[span.start - 1].lower_ if span.start > sent.start else ""
    rest = doc.text[doc[span.end - 1].idx + len(doc[span.end - 1].text) : sent.end_char]
    if before == "at":  # "at sixty-one", "at 67"; "at 5" is more often a clock time
        return span.text[:1].isalpha() or span.text.isdigit() and 13 <= int(span.text) <= 120
    return before in AGE_BEFORE or bool(AGE_WORDS.match(rest))


def amounts(sent: Any) -> list[Span]:
    """Sums of money as written: "£4,200", "$80", "4.2k", "2 million", "eleven hundred pounds" (a
    MONEY entity, or a number with a currency sign before it or a money word after it)."""
    doc = sent.doc
    out = [s for s in entity_spans(sent, ("MONEY",), "number", 0.9)
           if any(c.isdigit() for c in s.text) or any(t.lower_ in NUMBER_WORDS for t in doc[s.start:s.end])]
    seen = {i for s in out for i in range(s.start, s.end)}
    # "sold it, 4.2k", "got it for 4.2k": money; "ran a 5K": a race
    priced = any(t.lemma_.lower() in _MONEY_VERBS for t in sent)
    out += [Span(t.text, "number", 0.9, t.i, t.i + 1) for t in sent
            if t.i not in seen and _THOUSANDS.match(t.text)
            and (priced or t.i > sent.start and doc[t.i - 1].lower_ in ("for", "£", "$", "€"))]
    seen |= {s.start for s in out}
    for s in number_runs(sent):
        if s.start in seen:
            continue
        before = doc[s.start - 1].lower_ if s.start > sent.start else ""
        after = doc[s.end].lower_ if s.end < sent.end else ""
        glued = doc[s.start].lower_[-1:] == "k" or doc[s.start].text[:1] in "£$€"  # "4.2k", "£80"
        if before in _CURRENCY or glued:
            out.append(Span(doc.text[doc[s.start - 1].idx if before in _CURRENCY else doc[s.start].idx:
                                     doc[s.end - 1].idx + len(doc[s.end - 1].text)], "number", 0.9,
                            s.start - (before in _CURRENCY), s.end))
        elif after in _MONEY_AFTER:
            out.append(Span(doc.text[doc[s.start].idx: doc[s.end].idx + len(doc[s.end].text)], "number", 0.85,
                            s.start, s.end + 1))
        elif _exchanged(doc[s.end - 1]):
            out.append(Span(s.text, "number", 0.8, s.start, s.end))
    return out


# verbs that hand a bare sum over for something: "gave me 400 for parts", "got 250 for my old bike"
_EXCHANGE_VERBS = frozenset("give pay get offer charge fetch accept take".split())


def _exchanged(last: Any) -> bool:
    """A bare number (its last token ``last``) that is a price: the object of a verb of exchange
    with a "for" after it ("gave me 400 for parts", "paid 30 for it"), or what a thing was sold or
    bought for ("sold the van for 2500"). A number that counts a noun ("for 3 weeks") is none.

    >>> from tkg.nlp import parse
    >>> [_exchanged(t) for t in parse("got 250 for my old bike; rented it for 3 weeks") if t.like_num]
    [True, False]
    """
    if last.dep_ == "nummod":
        return False
    head = last.head
    if last.dep_ == "pobj" and head.lower_ == "for":  # "sold the van for 2500"
        return head.head.lemma_.lower() in _MONEY_VERBS | _EXCHANGE_VERBS
    after = last.nbor(1) if last.i + 1 < len(last.doc) else None
    return last.dep_ == "dobj" and head.lemma_.lower() in _EXCHANGE_VERBS and after is not None \
        and after.lower_ == "for"
