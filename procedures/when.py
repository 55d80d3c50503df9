"""A "when" question answered with the date of the asked event, never with a sentence.

The turn that tells the event is found by the event's own words and their common paraphrases
(`procedures.event_words`: "passed away" for die, "got him from the shelter" for adopt) and by its
object ("the bike", "Segfault"), the procedure's ranking breaking ties; a date given in reply to
"when's your X again?" tells X too. Its date is the time its sentence says, resolved against when the
turn was said ("yesterday", "on saturday", "on the 8th"), else a short dated reply after it ("lena and
i broke up" … "like two hours ago"), else the turn's own date when it tells the event as done. Later
words win (`procedures.date_corrections`: corrections, moves, "not the 12th"); a question about the
original date ("originally planned") keeps the first. No turn telling the event: None, and the caller
abstains rather than quote a sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from planners.question import Question
from tkg.models import Evidence
from tkg.nlp import parse, parse_many
from tkg.text import content_terms, split_sentences
from tkg.time_words import clause_tense
from tkg.timeparse import TimeRef

from .about import Subject
from .backfill import turn_evidence
from .date_corrections import MONTH_NAME, OWN_DATE, SHORT, Dated, corrected, said_dates, turns_after
from .event_words import ASKS_WHEN, QuestionEvent, asks_when, question_event
from .group_turns import turns_with_terms
from .slots import FAR_PAST
from .stated import CALLED_OFF, hypothetical, intended_tokens, rescheduled
from .synthesis import dedupe, format_day, format_ref

if TYPE_CHECKING:
    from tkg.context import Context

WHEN_Q = re.compile(r"^\s*(?:when\b|(?:on\s+)?what (?:date|day)\b|which (?:date|day)\b|how long ago\b)", re.I)
AGO_Q = re.compile(r"^\s*how long ago\b", re.I)
_ORIGINAL = re.compile(r"\b(?:originally|initially|at first|first planned|supposed to|meant to)\b", re.I)
_IT = re.compile(r"\b(?:it|that|this)\b", re.I)
FOLLOW_TURNS = 3  # turns after the telling one a short dated reply may date it from
LEAD_WITHIN = 3  # how high retrieval must rank the telling turn for it to lead the evidence
@dataclass
class WhenReading:
    answer: str
    support: list[Evidence]
    trace: dict[str, Any]
    theirs: bool = False  # the telling sentence is the subject's own or names them
    teller: str = ""  # who said it
    untold: bool = False  # the question's own verb is said only as asked, wished or denied: no date
    start: datetime | None = None  # the date's first moment


def ago(start: datetime, now: datetime) -> str:
    """How long before ``now`` a date lies, in the unit a person would say it: "about 3 weeks"."""
    days = max(0, (now - start).days)
    for unit, size, below in (("day", 1, 14), ("week", 7, 60), ("month", 30.44, 548)):
        if days < below:
            n = max(1, round(days / size))
            return f"about {n} {unit}{'s' if n != 1 else ''}"
    return f"about {round(days / 365.25 * 2) / 2:g} years"


def is_when(q: Question) -> bool:
    """The question asks for the date or time of an event (not "how long")."""
    return q.asked.kind == "date" and WHEN_Q.search(q.text) is not None


def names_date(answer: str) -> bool:
    """The answer says a date (a year, or a month's name), not only a sentence about the event."""
    return bool(re.search(r"\b(?:1[89]|20)\d\d\b", answer) or MONTH_NAME.search(answer))


def _answer_text(ref: TimeRef, said_at: datetime) -> str:
    words = ref.text.strip()
    text = format_ref(ref)
    if not re.search(r"\b\d{4}\b", words):  # relative words: the words and when they were said
        return f'{text} ("{words}", said on {format_day(said_at)})'
    return text


def _telling(ev: QuestionEvent, pool: list[Evidence], ranked: list[Evidence], names: frozenset[str]
             ) -> list[tuple[float, Evidence, str]]:
    """(score, turn, sentence) for every sentence of ``pool`` that tells the event as stated."""
    rank = {e.episode: i for i, e in enumerate(ranked)}
    # the event's words named without its verb ("the Late Fees have a gig at Fenwick's Tavern on the
    # 25th" for "when did the Late Fees play at Fenwick's Tavern"): most of them, three at least (two
    # people's names are said together of much else)
    enough = max(3, (len(ev.objects) + 1) // 2)

    def naming(text: str) -> bool:
        return len(content_terms(text) & ev.objects) >= enough

    said = [e for e in pool if ev.tells(e.text) or naming(e.text)]
    parse_many([e.text for e in said])
    out = []
    for e in said:
        for sent in parse(e.text).sents:
            text = sent.text
            # "I've never run further than 8k" tells no run; "our cat passed away" no passed test
            verb = ev.tells(text) and not ev.denied(text) and not ev.other_verb(sent)
            if not (verb or naming(text)) or text.rstrip().endswith("?"):
                continue
            hits = min(ev.object_hits(text), 3) + 0.5 * min(ev.object_hits(e.text), 3)
            if ev.nominal and hits < 1:
                continue
            who = 0.5 if (e.speaker or "").lower() in names else 0.0
            bonus = 1.0 / (1 + rank[e.episode]) if e.episode in rank else 0.0
            out.append(((3.0 if verb else 2.0) + hits + who + bonus, e, text))
    return out


def _answered(ctx: Context, group: str, ev: QuestionEvent, pool: list[Evidence], names: frozenset[str]
              ) -> list[tuple[float, Evidence, str]]:
    """(score, reply, its dated sentence) for each turn of ``pool`` that asks when the event is ("when's
    your birthday again?") and is answered by the other speaker's next turn with a date ("Is 14 of
    April."): the reply tells it, though it need not repeat the event's words."""
    out = []
    for e in pool:
        asks = [s for s in split_sentences(e.text) if asks_when(s) and ev.tells(s) and not ev.denied(s)]
        if not asks or e.valid_at is None:
            continue
        for reply in turns_after(ctx, group, e, 1):
            if reply.speaker == e.speaker or reply.valid_at is None:
                continue
            dated = next((s for s in split_sentences(reply.text)
                          if not s.rstrip().endswith("?") and said_dates(s, reply.valid_at)), None)
            if dated is not None:
                who = 0.5 if (reply.speaker or "").lower() in names else 0.0
                out.append((4.0 + min(ev.object_hits(asks[0]), 3) + who, reply, dated))
    return out


def _event_token(ev: QuestionEvent, sent: Any) -> Any | None:
    """The token of the parsed sentence where it first says the event's words, or None."""
    at = ev.told_at(sent.text)
    if at < 0:
        return None
    at += sent.start_char
    return next((t for t in sent if t.idx <= at < t.idx + len(t.text)), None)


def _only_intended(ev: QuestionEvent, sentence: str) -> bool:
    """The sentence says the event's words only inside what someone wants, means or plans to do
    ("Joost has been wanting to move for ages")."""
    sent = parse(sentence)[:]
    token = _event_token(ev, sent)
    return token is not None and token.i in intended_tokens(sent)


_NOT = frozenset({"not", "n't", "never"})


def _denied_after(ev: QuestionEvent, pool: list[Evidence], told: Evidence) -> Evidence | None:
    """A turn said after the telling one whose sentence denies the event's own verb and names one of
    its objects ("Marek didn't move, obviously"; not "we haven't been away since the move"):
    then it never happened. An event named by nouns ("his hip operation") is read by its words alone,
    which a denial of something else may hold ("his father doesn't fuss"): those are not checked."""
    if ev.nominal:
        return None
    for e in pool:
        if told.valid_at is None or e.valid_at is None or e.valid_at <= told.valid_at or not ev.tells(e.text):
            continue
        for sent in parse(e.text).sents:
            token = _event_token(ev, sent)
            if token is not None and token.pos_ == "VERB" and ev.object_hits(sent.text) and any(
                    c.dep_ == "neg" or c.lower_ in _NOT for c in token.children):
                return e  # the verb's own denial: not "starting a studio isn't just a business"
    return None


def _date_of(ctx: Context, group: str, ev: QuestionEvent, e: Evidence, sentence: str) -> Dated | None:
    """The date the telling sentence gives, or a short dated sentence after it (`SHORT` words, in its
    turn, the teller's next turns or the answer to a "when?" among the `FOLLOW_TURNS` after), or the
    turn's own date when it tells the event as done. An asked verb told as done ("they offered me the
    job") is dated by the sentence just before it too, and never by a day still ahead."""
    at = e.valid_at
    if at is None:
        return None
    refs = said_dates(sentence, at)
    if refs:
        return Dated(refs[0].start, _answer_text(refs[0], at), e, hypothetical(parse(sentence)[:]),
                     "its sentence", sentence, refs[0].span[1], not MONTH_NAME.search(refs[0].text))
    later = split_sentences(e.text)
    at_told = next((i for i, s in enumerate(later) if sentence.strip() in s), len(later))
    rest = later[at_told + 1:]
    done = not ev.nominal and clause_tense(sentence, 0) == "past"  # the asked verb told as done
    if done and at_told > 0:  # "brightwell rang yesterday. they offered me the job": the sentence before
        rest = [later[at_told - 1], *rest]
    after, asked = [], False
    for t in turns_after(ctx, group, e, FOLLOW_TURNS):  # the teller's next turns, or the answer to "when?"
        if t.speaker == e.speaker or asked:
            after.append((t, split_sentences(t.text)))
        asked = ASKS_WHEN.search(t.text) is not None
    for turn, sents in [(e, rest), *after]:
        for s in sents:
            # the next sentence of the turn that takes the event up again by "it" is about it, however
            # long ("…wrote about my hip. They are going to do it at the Pembury on the 17th of April.")
            back = turn is e and s is sents[0] and not (done and at_told > 0) and _IT.search(s) is not None
            if s.rstrip().endswith("?") or len(s.split()) > SHORT and not back:
                continue
            got = said_dates(s, turn.valid_at or at, lead="" if back else sentence)  # its own tense, if "it"
            if done:  # an event told as done is not dated by a day still ahead ("start date is 3rd april")
                got = [r for r in got if r.start <= (turn.valid_at or at)]
            if got:
                return Dated(got[0].start, _answer_text(got[0], turn.valid_at or at), turn, False,
                             f"a short dated sentence after it ({turn.source_ref})", s)
    if clause_tense(sentence, 0) == "future" or _only_intended(ev, sentence):
        return None  # a plan or a wish said without a date has not happened on the day it is said
    return Dated(at, format_day(at), e, False, OWN_DATE, sentence)


def read_when(ctx: Context, q: Question, group: str, turns: list[Evidence], ranked: list[Evidence],
              names: frozenset[str], subject: Subject | None) -> WhenReading | None:
    """The date of the question's event (see the module doc), or None when no turn tells it."""
    ev = question_event(q.text, names)
    needles = ev.needles()
    rows = turns_with_terms(ctx, group, needles, 400) if needles else []
    pool = dedupe(turns + [turn_evidence(r, 0.0, group) for r in rows])
    tellings = _telling(ev, pool, ranked, names) + _answered(ctx, group, ev, pool, names)
    trace: dict[str, Any] = {"event": ev.to_trace(), "tellings": len(tellings)}
    if not tellings:  # the verb said only in questions, wishes or denials ("any chance of rebooking?")
        asked_only = not ev.nominal and any(ev.tells(e.text) for e in pool)
        return WhenReading("", [], {**trace, "reason": "the event is only asked about, wished or denied"},
                           untold=True) if asked_only else None
    # a telling that puts the event off ("the operation was postponed again") says it did not happen then;
    # one that moves it to a day says that day, and `corrected` reads it
    tellings = [t for t in tellings if not CALLED_OFF.search(t[2]) or rescheduled(t[2])] or tellings
    top = max(s for s, _, _ in tellings)
    # a telling in the event's own verb that names its day first ("Got it! I start at Kestrel on Monday
    # the 3rd" over an earlier "I've applied to Kestrel"); then the first that tells it best (later ones
    # look back); in one turn, a sentence that names a day first
    near = [t for t in tellings if t[0] >= top - 0.5]

    def order(t: tuple[float, Evidence, str]) -> tuple[bool, datetime, float, bool]:
        day = bool(said_dates(t[2], t[1].valid_at or FAR_PAST))
        return ev.nominal or not (day and ev.tells(t[2])), t[1].valid_at or FAR_PAST, -t[0], not day

    best = sorted(near, key=order)
    # when none of those can be dated (a wish, a plan said without a day), a close second that names
    # what the event is about (one of its objects) and can be
    second = [t for t in tellings if top - 1.0 <= t[0] < top - 0.5 and t[0] >= 4.0]
    best += sorted(second, key=lambda t: -t[0])
    dated = None
    for _, e, sentence in best:
        dated = _date_of(ctx, group, ev, e, sentence)
        if dated is not None:
            break
    denial = _denied_after(ev, pool, dated.evidence if dated is not None else best[0][1])
    if denial is not None:  # "Marek's moving back to Ohio" … "Marek didn't move, obviously"
        why = f"a later turn says it did not happen ({denial.source_ref})"
        return WhenReading("", dedupe([denial, best[0][1]]), {**trace, "reason": why}, untold=True)
    if dated is None:
        return None
    trace["told_in"] = e.source_ref
    trace["dated_by"] = dated.how
    final = dated if _ORIGINAL.search(q.text) else corrected(ctx, group, ev, dated, pool)
    if final is not dated:
        trace["corrected"] = final.how
    # the telling turns lead when retrieval ranks the telling one among its best few; else the
    # procedure's best turn keeps its place before them (it is often the one that says it again)
    told = [e, dated.evidence, final.evidence]
    best_ranked = [r.episode for r in ranked[:LEAD_WITHIN]]
    support = dedupe(told + ranked if e.episode in best_ranked or not ranked else ranked[:1] + told + ranked)
    theirs = subject is not None and (subject.said_by(e.speaker) or subject.named_in(sentence))
    return WhenReading(final.text, support, trace, theirs, e.speaker or "", start=final.start)
