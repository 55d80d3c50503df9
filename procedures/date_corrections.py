"""A date the conversation gives an event, and the last word on it (`procedures.when` finds the first).

A correction ("sorry, it's the 27th", "Wednesday the 19th, not the 18th") or a move ("moved to aug
22") in the turns after the dating one, or in a later exchange about the event, replaces the date; so
does a later turn that says the day was wrong without naming the event ("the 14th not the 12th"). A
date only floated ("maybe the 14th?") does not replace one that was set; the old date said again
("I told you the 17th of April … it was the 27th") is not the new one; a turn that dates something
else in between ("the show's saturday 13th") takes the corrections after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from tkg.models import Evidence
from tkg.nlp import parse
from tkg.text import content_terms, split_sentences
from tkg.time_words import MONTH
from tkg.timeparse import TimeRef, find_times

from .backfill import turn_evidence
from .event_words import QuestionEvent
from .group_turns import turns_by_seq, turns_by_uuid, turns_with_terms
from .slots import FAR_PAST
from .stated import hypothetical
from .synthesis import dedupe, format_day, format_ref

if TYPE_CHECKING:
    from tkg.context import Context

# "actually" corrects at a clause's start or of "it" ("actually, the 20th", "it's actually the 27th"), not
# as emphasis ("he was actually here for the fall"); "sorry" not as sympathy ("I'm so sorry, that's rotten
# luck"); "12th JUNE, not July!" corrects a month
_CORRECTS = re.compile(
    r"\b(?:(?<!so )(?<!'m )(?<!am )(?<!really )sorry(?!\s+(?:to|about|for)\b)"
    r"|actually(?=,|\s+(?:it|its|it's|the|on|no)\b)|(?:it|that)(?:'s|\s+is|\s+was)\s+actually|wait"
    r"|correction|i mean|my mistake|my bad|oops|scratch that|forgive me|corrected"
    r"|misread|wrong (?:line|date|day)|we went with|changed (?:it|the date)|not the \d|not " + MONTH + r")\b",
    re.I)
# a new date said of the event's own thing ("the wedding is now on 15 June instead"), not of another
_INSTEAD = re.compile(r"\b(?:instead|is now on|now on the)\b", re.I)
_MOVED = re.compile(r"\b(?:moved|pushed(?:\s+back)?|postponed|rescheduled|changed|put\s+back"
                    r"|brought\s+forward|bumped|delayed)\b(?:\s+\w+){0,3}?\s+(?:to|till|until|for)\b", re.I)
_MOVED_TO = 12  # characters between a move's "to" and the date it moves to ("moved to the 22nd")
_SET = re.compile(r"\b(?:set|fixed|locked|confirmed|booked|official|final)\b", re.I)
_BARE_ORDINAL = re.compile(r"(?<![\w£$€])([12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?"
                           + MONTH + r"\b)", re.I)
MONTH_NAME = re.compile(r"\b" + MONTH + r"\b", re.I)
# when something was said, not when the event is: "what I told you last month"
_SAID_BEFORE = re.compile(r"\b(?:told|said|mentioned|wrote|texted|messaged)\b(?:\s+\w+){0,2}\s*$", re.I)
_DENIED_BEFORE = re.compile(r"(?:\bnot|n't|\bno)\s+(?:on\s+)?(?:the\s+)?$", re.I)
OWN_DATE = "the turn's own date"  # how a date is had from the turn that tells the event as done
CORRECT_TURNS = 4  # turns after a dated mention a correction of it may come in
SHORT = 12  # words of a sentence that dates the event told just before it


@dataclass
class Dated:
    """A date the conversation gives the event, with the turn that gives it."""

    start: datetime
    text: str  # how it was written: the answer's words
    evidence: Evidence
    proposed: bool = False
    how: str = ""
    sentence: str = ""  # the sentence that gave it: corrections come after it
    ref_end: int = 0  # where its date's words end in ``sentence`` (0: not in it)
    monthless: bool = False  # its words name a day but no month ("on the 9th")


def said_dates(text: str, at: datetime, *, lead: str = "") -> list[TimeRef]:
    """The dates ``text`` says, resolved against ``at``, none denied ("not the 18th"), a span
    ("since May") or the time of a saying ("as I told you last week"); with ``lead`` (the telling
    sentence) its tense reads a follow-up's date."""
    joined = f"{lead.rstrip(' .!?')}, {text}" if lead else text
    off = len(joined) - len(text)
    return [TimeRef(r.text, r.start, r.end, r.granularity, (r.span[0] - off, r.span[1] - off))
            for r in find_times(joined, at) if r.span[0] >= off and r.granularity != "range"
            and not _DENIED_BEFORE.search(joined[max(0, r.span[0] - 8):r.span[0]])
            and not _SAID_BEFORE.search(joined[max(0, r.span[0] - 30):r.span[0]])]


def _seq_of(ctx: Context, group: str, e: Evidence) -> int | None:
    """Where ``e`` stands in its group's turns, or None when the store does not say."""
    rows = turns_by_uuid(ctx, group, [e.episode])
    return None if not rows or rows[0].get("seq") is None else int(rows[0]["seq"])


def turns_after(ctx: Context, group: str, e: Evidence, n: int) -> list[Evidence]:
    """The ``n`` turns said after ``e`` in the same sitting (within twelve hours of it)."""
    seq = _seq_of(ctx, group, e)
    if seq is None:
        return []
    rows = sorted(turns_by_seq(ctx, group, list(range(seq + 1, seq + n + 1))), key=lambda r: r["seq"])
    out = []
    for r in rows:
        if e.valid_at and r.get("valid_at") and abs(r["valid_at"] - e.valid_at) > timedelta(hours=12):
            break
        out.append(turn_evidence(r, 0.0, group))
    return out


def _month_only(dated: Dated) -> bool:
    """The date was told to its month only ("January 2025 (…)"), not to a day."""
    return dated.text.split(" (")[0] == f"{dated.start:%B %Y}"


def _correction(text: str, current: Dated, turn: Evidence, *, cued: bool, about: bool) -> Dated | None:
    """A new date for the event from a sentence that corrects or moves it (``cued``: its turn says
    so), or, in a later turn ``about`` the event, one that says its date is set ("date locked: 9 august")."""
    if text.rstrip().endswith("?") or turn.valid_at is None:
        return None
    moved = _MOVED.search(text)
    told = cued or bool(_CORRECTS.search(text)) or about and bool(_SET.search(text))
    said = told or moved is not None
    if not (said or about and _month_only(current)):
        return None
    # the date it corrects said again ("I told you the 17th of April … It was the 27th") is not the new one
    # (by day and month: "I told you it was on the 17th of April" may read as a year back)
    refs = [r for r in said_dates(text, turn.valid_at)
            if (r.start.month, r.start.day) != (current.start.month, current.start.day)
            and not (r.granularity == "month" and (r.start.year, r.start.month) == (
                current.start.year, current.start.month))]  # "June, sorry": the day's own month again
    if moved is not None and not told:  # a move names its new date: "pushed back to june 10", not "she
        refs = [r for r in refs if 0 <= r.span[0] - moved.end() <= _MOVED_TO]  # moved to a job in December"
    # a later word on the event that names the day inside the month it was told in ("I'd start in
    # January" … "start date is January 8th") refines it
    month = (current.start.year, current.start.month)
    same_month = bool(refs) and (refs[0].start.year, refs[0].start.month) == month
    if not said and not (same_month and refs[0].granularity == "day"):
        return None
    bare = _BARE_ORDINAL.search(text)
    monthless = not refs or not MONTH_NAME.search(refs[0].text)  # "Wednesday the 19th": the month corrected
    first = bare is not None and (not refs or bare.start() < refs[0].span[0]
                                  or monthless and bare.start() < refs[0].span[1])
    # a date no one said (the telling turn's own) has no month to correct: the day is read where it is said
    if bare and first and current.how != OWN_DATE \
            and not _DENIED_BEFORE.search(text[max(0, bare.start() - 8):bare.start()]):
        try:  # "wait no, 25th": the day in the month of the date it corrects
            day = current.start.replace(day=int(bare.group(1)))
        except ValueError:
            return None
        if current.monthless and current.ref_end:  # "on the 9th — sorry, the 16th": the 16th read as the
            again = said_dates(f"on the {bare.group(0)}", turn.valid_at,  # 9th was, by the words before it
                               lead=current.sentence[:current.ref_end])
            day = again[0].start if again else day
        return Dated(day, format_day(day), turn, hypothetical(parse(text)[:]),
                     f"corrected in {turn.source_ref}")
    if not refs or refs[0].granularity not in ("day", "month", "weekend", "week"):
        return None
    ref = refs[0]
    shown = format_day(ref.start) if ref.granularity == "day" else format_ref(ref)
    return Dated(ref.start, shown, turn, hypothetical(parse(text)[:]), f"corrected in {turn.source_ref}")


def corrected(ctx: Context, group: str, ev: QuestionEvent, first: Dated, pool: list[Evidence]) -> Dated:
    """The last word on the event's date (see the module doc): in the rest of the turn that dated it
    and the `CORRECT_TURNS` after it, then in each later turn about the event and the two after it;
    a turn's first correction counts."""
    current = first
    e = first.evidence
    sents = split_sentences(e.text)
    said = first.sentence.strip()
    idx = next((i + 1 for i, s in enumerate(sents) if said and said in s), 0)
    # a correction inside the telling sentence ("on the 18th — sorry, the 25th"): from its word on
    cue = _CORRECTS.search(said, first.ref_end) if first.ref_end else None
    # (turn, its sentences, whether a correction word anywhere in the turn cues its dates)
    rest = ([said[cue.start():]] if cue else []) + sents[idx:]
    stretch: list[tuple[Evidence, list[str], bool]] = [(e, rest, True)]
    for t in turns_after(ctx, group, e, CORRECT_TURNS):
        if _dates_another(ev, t, first):  # "the show's saturday 13th" … "sorry, the 20th": the show's
            break
        stretch.append((t, split_sentences(t.text), True))
    things = ev.objects - ev.names  # a later turn naming only the people is not about the event
    denials = _denying(ctx, group, first)  # "the 14th not the 12th", naming the event or not
    later = sorted(dedupe([t for t in pool if t.valid_at and e.valid_at and t.valid_at > e.valid_at
                           and (ev.tells(t.text) or bool(things)
                                and len(content_terms(t.text) & things) >= max(1, len(things) // 2))]
                          + denials), key=lambda t: t.valid_at or FAR_PAST)
    told = {t.episode for t in later if ev.tells(t.text) or t in denials}
    for t in later:  # the turns after a later one: a "sorry!" there may be about anything
        stretch += [(t, split_sentences(t.text), True)]
        stretch += [(x, split_sentences(x.text), False) for x in turns_after(ctx, group, t, 2)]
    seen = {e.episode}
    for turn, texts, loose in stretch:
        if turn.episode in seen and turn is not e:
            continue
        seen.add(turn.episode)
        about = turn.episode in told
        # a correction word cues its own sentence and the next ("Sorry! I meant the 4th"), not the rest of
        # the turn ("June, sorry. … my own interview on Friday")
        says = [bool(_CORRECTS.search(x)) for x in texts]
        for k, s in enumerate(texts):
            cued = loose and (turn in denials or any(says[max(0, k - 1) : k + 1]))
            if not loose and len(s.split()) > SHORT and not ev.tells(s) and not things & content_terms(s):
                continue  # a long sentence after a later mention, of something else ("I told you the knee …")
            instead = bool(_INSTEAD.search(s)) and bool(things & content_terms(s))
            got = _correction(s, current, turn, cued=cued or instead, about=about)
            if got is not None and not (got.proposed and not current.proposed):
                current = got
                break
    return current


def _denying(ctx: Context, group: str, first: Dated) -> list[Evidence]:
    """The turns after the dating one that say its day was wrong ("mum's thing is the 14th not the
    12th", "IELTS is 16 June not 18"): corrections of it, whether or not they name the event again."""
    day = first.start.day
    seq = _seq_of(ctx, group, first.evidence)
    if seq is None or first.how == OWN_DATE:  # no day was said to deny
        return []
    wrong = re.compile(rf"\bnot\s+(?:on\s+)?(?:the\s+)?{day}(?:st|nd|rd|th)?\b(?![.:,]\d|\s*(?:am|pm|%|k\b))",
                       re.I)  # not "not 12.5", "not 12 pm"
    found = turns_with_terms(ctx, group, [f"not the {day}", f"not {day}", f"not on the {day}"], 50)
    return [turn_evidence(r, 0.0, group) for r in found
            if int(r.get("seq") or -1) > seq and wrong.search(r.get("text") or "")]


def _dates_another(ev: QuestionEvent, turn: Evidence, dated: Dated) -> bool:
    """The turn gives a date other than ``dated``'s without telling the event or correcting anything
    ("Noted: 14 June" only says it back): the words after it that correct a date correct that one."""
    return turn.valid_at is not None and not ev.tells(turn.text) and not _CORRECTS.search(turn.text) \
        and not _MOVED.search(turn.text) \
        and any(r.start.date() != dated.start.date() for s in split_sentences(turn.text)
                if not s.rstrip().endswith("?") for r in said_dates(s, turn.valid_at))


