"""What the conversation last called off: a question that takes as done a plan or an outing whose
last word in the turns calls it off ("what did they see in Amsterdam?" after "amsterdam is off for
me") rests on a false premise (`procedures.premise`).

The question's nouns are followed through the turns in time order. A sentence that names one
inside a bigger thing ("a cruise *to the fjords*", "a talk *at the meetup*") follows that thing
too: calling off the cruise calls off the fjords. A question one speaker puts about a followed
noun ("what about Lisbon for your birthday?") takes the other's reply as its last word when the
reply's first sentences call something off ("ah... is cancelled"), and so does a sentence right after
the one naming it, in the same turn ("Amazon offered me nights. And I said no."). A plain statement
after the call-off restores it; a plan, a question or a denial ("the meetup never did reschedule") does not.
"""

from __future__ import annotations

import re
from typing import Any

from planners.question import Question
from tkg.models import Evidence
from tkg.nlp import parse, parse_many, token_stems
from tkg.text import any_of, content_terms, split_sentences, stem, stems_of
from tkg.time_words import MONTHS, WEEKDAYS
from tkg.words import is_place_name

from .about import Subject
from .abstain import GENERIC
from .slots import FAR_PAST
from .stated import CALLED_OFF, called_off, governing_verb, hypothetical, negated, offered, rescheduled

# "how did the talk go?": an outcome question presupposes the thing took place (other "how did …"
# summaries, "how did her job change", presuppose nothing)
OUTCOME = re.compile(r"^\s*how did\b.*\bgo\s*\??\s*$", re.I)
_TIME_NOUNS = stems_of([*MONTHS, *WEEKDAYS, "today", "tomorrow", "weekend", "night", "morning", "evening",
                        "day", "week", "month", "year", "date", "time"])
EVERYONES = stems_of(["birthday", "born", "birth"])  # what every person has: its date is never called off
REPLY_SENTENCES = 3  # the reply's first sentences that may call off what the question asked about
AFTER_SENTENCES = 2  # the sentences after one naming a thing, in its turn, that may call it off unnamed
# verbs that arrange a thing rather than do it: "we've booked a cruise" tells of no cruise taken
_ARRANGE = frozenset("book plan schedule arrange organise organize reserve register enter sign set pencil"
                     .split())
_LINK_DEPS = frozenset({"pobj", "prep", "compound", "amod", "nmod"})
# "how was the trip", "how did it go": a question however it ends
_HOW_WAS = re.compile(r"(?:^|[.!?]\s+)(?:(?:so|and|but|ok|oh|also),? )?how (?:was|were|did)\b", re.I)
# a reply saying the thing asked after never took place; "it didn't go well" tells how it went
_NOT_HELD = any_of("(?:didn'?t|did not|never) (?:go|went|happen|make it)",
                   after=r"\b(?! (?:well|as|so|too|great|smoothly|badly|according|to plan|down))")


def question_nouns(q: Question, subject: Subject | None) -> set[str]:
    """The stems of the question's nouns that may name a plan or an outing: not its first word, not a
    person's name, not the kind of thing asked ("what *present* did he bring"), no calendar word, no
    common noun that only sorts another ("home *health* aides"). A town the tagger took for a person
    is kept where it sorts a noun ("her *Glasgow* internship") or a preposition takes it ("her job in
    *Rotterdam*")."""
    drop = stems_of([*(subject.aliases if subject and subject.speaker else ())])  # people are not called off
    head = stem(q.asked.head) if q.asked.head else ""
    if q.asked.kind == "date":  # "when is his birthday": a party called off leaves the date
        drop = drop | EVERYONES
    return {stem(t.lower_) for t in parse(q.text) if t.i > 0 and t.pos_ in ("NOUN", "PROPN")
            and (t.ent_type_ != "PERSON" or t.dep_ in ("compound", "pobj") and is_place_name(t.text))
            and t.is_alpha and len(t.text) >= 3
            and not (t.pos_ == "NOUN" and t.dep_ == "compound")} \
        - GENERIC - drop - _TIME_NOUNS - {head}


def _bigger_thing(t: Any) -> Any | None:
    """The noun a followed noun names a part or a place of ("a cruise to the *fjords*", "a talk at
    the *meetup*"): up through prepositions and compounds to a noun, or to a verb's object ("booked
    a cruise to the fjords"); None for a verb with none ("going to the fjords")."""
    x, hops = t, 0
    while x.dep_ in _LINK_DEPS and x.head is not x and hops < 3:
        x, hops = x.head, hops + 1
        if x.pos_ == "NOUN" and x.ent_type_ != "PERSON":
            return x
        if x.pos_ in ("VERB", "AUX"):
            return next((c for c in x.children if c.dep_ == "dobj" and c.pos_ == "NOUN" and c.i < t.i), None)
    return None


def _named(sent: Any, nouns: set[str]) -> list[Any]:
    """The sentence's tokens naming a followed noun; "my sister's visit is off" calls off no sister.
    The stems of the sentence's words that could name one are kept with the parsed doc: every
    question's premise check reads the same turns (as `procedures.spans.spans_of` keeps spans)."""
    key = ("tkg.calloff.words", sent.start, sent.end)
    words = sent.doc.user_data.get(key)
    if words is None:
        words = tuple((stem(t.lower_), t.i) for t in sent  # a town tagged a person is still a town
                      if t.is_alpha and (t.ent_type_ != "PERSON" or is_place_name(t.text))
                      and t.dep_ != "poss")
        sent.doc.user_data[key] = words
    return [sent.doc[i] for w, i in words if w in nouns]


def followed(q: Question, subject: Subject | None, turns: list[Evidence]) -> set[str]:
    """The question's nouns and the bigger things the turns name them in (see the module doc)."""
    nouns = question_nouns(q, subject)
    out = set(nouns)
    naming = [ev for ev in turns
              if not nouns.isdisjoint(token_stems(ev.text))]
    parse_many([ev.text for ev in naming])  # only the turns naming one, parsed in one batch
    for ev in naming:
        for sent in parse(ev.text).sents:
            for t in _named(sent, nouns):
                bigger = _bigger_thing(t)
                if bigger is not None and stem(bigger.lower_) not in GENERIC | _TIME_NOUNS:
                    out.add(stem(bigger.lower_))
    return out


def _talked_about(t: Any) -> bool:
    """The noun is what is talked about, not what is done ("sorry *about* Rarotonga", "any news
    *about* the move"): such a mention restores nothing called off."""
    return t.dep_ == "pobj" and t.head.lower_ == "about"


def _told_done(t: Any) -> bool:
    """The verb the noun hangs on tells it as done ("I *won* my first tournament", "we've *seen* the
    fjords"), not as arranged ("we've *booked* a cruise") nor denied."""
    x = governing_verb(t, 4)
    if x is None:
        return False
    past = x.tag_ == "VBD" or x.tag_ == "VBN" and any(c.lemma_ == "have" for c in x.children)
    return past and x.lemma_.lower() not in _ARRANGE and not any(c.dep_ == "neg" for c in x.children)


def asks(text: str) -> bool:
    """The turn ends on a question, or asks how something went however it is punctuated ("so how
    was evo!!! i waited for the vod"): the next turn by the other speaker answers it."""
    return text.rstrip().endswith("?") or bool(_HOW_WAS.search(text))


def _reply_calls_off(reply: str) -> bool:
    """The reply's first sentences call something off ("Ah... is cancelled.", "It didn't. They
    cancelled the whole meetup."), or say it never took place ("how was Oslo?" → "we didn't go").

    >>> _reply_calls_off("didnt go 😭 the visa never came"), _reply_calls_off("It didn't go well, sadly.")
    (True, False)
    """
    return any((CALLED_OFF.search(s) or _NOT_HELD.search(s)) and not rescheduled(s)
               for s in split_sentences(reply)[:REPLY_SENTENCES])


_WHEN_ENTITIES = frozenset({"DATE", "TIME"})


def off_after(sents: list[Any], k: int, nouns: set[str]) -> bool:
    """A sentence right after the ``k``th (which names a followed thing), in the same turn, calls it off
    without naming it or anything else ("Amazon offered me nights. And I said no.", "I interviewed at
    Deliveroo in November. Didn't get it."); one naming another name or followed thing ends the look.

    >>> from tkg.nlp import parse
    >>> sents = list(parse("The Rotterdam studio offered me a job. Good money. And I said no.").sents)
    >>> off_after(sents, 0, {"rotterdam"}), off_after(list(parse("Rotterdam was fun. Then Lena said no.")
    ...                                                  .sents), 0, {"rotterdam"})
    (True, False)
    """
    for nxt in sents[k + 1 : k + 1 + AFTER_SENTENCES]:
        if _named(nxt, nouns) or any(t.pos_ == "PROPN" and t.ent_type_ not in _WHEN_ENTITIES for t in nxt):
            return False
        if not hypothetical(nxt) and CALLED_OFF.search(nxt.text) and not rescheduled(nxt.text):
            return True
    return False


def refused(sents: list[Any], k: int, value: str, *, who: bool = False) -> bool:
    """A sentence after the ``k``th calls ``value`` off, unnamed ("We'd booked Lisbon. Cancelled
    it.", "The Spandau clinic offered me a post. I turned it down."): it was never held. A person or a
    pet (``who``) only where the sentence tells an offer: "Me and Elio split up. Cancelled the whole
    trip." calls off the trip, not Elio.

    >>> from tkg.nlp import parse
    >>> refused(list(parse("Arup offered me a post. I said no.").sents), 0, "Arup")
    True
    >>> refused(list(parse("Me and Elio split up. Cancelled the whole trip.").sents), 0, "Elio", who=True)
    False
    """
    return (offered(sents[k]) or not who) and off_after(sents, k, content_terms(value))


def last_called_off(q: Question, subject: Subject | None, turns: list[Evidence],
                    replies: dict[str, str] | None = None) -> tuple[list[str], Evidence] | None:
    """The followed nouns whose last word calls them off, with the turn that said it; None when none
    does (see the module doc). ``replies``: the next turn's text by another speaker, per episode."""
    nouns = followed(q, subject, turns)
    if not nouns:
        return None
    last: dict[str, tuple[bool, Evidence]] = {}  # noun → (its last word calls it off, that turn)
    done: set[str] = set()  # common nouns some sentence told as done: one of many ("I won a tournament")
    # only turns naming one of them (the parse's own tokens) are followed, and parsed, in one batch
    naming = [ev for ev in sorted(turns, key=lambda e: e.valid_at or FAR_PAST)
              if not nouns.isdisjoint(token_stems(ev.text))]
    parse_many([ev.text for ev in naming])
    for ev in naming:
        asked: set[str] = set()  # followed nouns a question of this turn names
        sents = list(parse(ev.text).sents)
        for k, sent in enumerate(sents):
            named = _named(sent, nouns)
            if not named:
                continue  # nothing followed is named: nothing to call off, restore or ask after
            if hypothetical(sent) or _HOW_WAS.search(sent.text):  # a question or a plan neither calls
                # off nor restores
                asked |= {stem(t.lower_) for t in named} if asks(sent.text) else set()
                continue
            after = off_after(sents, k, nouns)
            verbless = not any(t.pos_ in ("VERB", "AUX") for t in sent)
            for t in named:
                # a name is one of a kind however it is written ("glasgow fell through", "the scarborough
                # thing's off")
                key, common = stem(t.lower_), not (t.text[:1].isupper() or t.pos_ == "PROPN" or t.ent_type_
                                                   or is_place_name(t.text))
                if common and t.dep_ == "compound":
                    continue  # "my game tournament got pushed back" calls off a tournament, not games
                # (a common noun told as done is one of many: the next one is called off, not the one asked)
                off = (called_off(sent, t) or after) and not (common and key in done)
                if common and _told_done(t):
                    done.add(key)
                # a denial restores nothing ("it never did reschedule"), nor another thing's name
                # ("the cruise company offered a credit")
                # nor does sympathy ("I'm sorry about Rarotonga") or talk about it, nor a name said with
                # no verb ("Oh no, Tuebingen.")
                if off or not (negated(sent) or t.dep_ == "compound" or _talked_about(t) or verbless):
                    last[key] = (off, ev)
        reply = (replies or {}).get(ev.episode) if asks(ev.text) else None
        if asked and reply and _reply_calls_off(reply):
            for n in asked - done:
                last[n] = (True, ev)
    gone = sorted(n for n, (yes, _) in last.items() if yes)
    return (gone, last[gone[0]][1]) if gone else None
