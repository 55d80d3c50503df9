"""Where someone lives, read from a sentence's structure rather than from any place it names.

A place answers "where does X live" when the clause holding it says so: the object of a living or
moving verb ("moved to Leeds", "she's in Bergen now"), a home noun ("a flat in Clapham") or a
greeting ("hi from Ghent"), or a fragment after a sentence that tells of a home ("we bought a house!
In Oak Park."). A place hung on another noun ("a job in Lyon", "the best band in
Chile", "a hospital in Kochi"), the place a move started from ("moved there from York"), a place
named with an event ("the wedding is in Porto"), a stay to come or for a purpose ("I'll be in Cork
for the wedding"), a place being left ("for the last time") and a value taken back in the same turn
("she's in Oslo. wait no, she's in Bergen") weigh less.
`procedures.reader` multiplies a place candidate's support by `residence_scale` when the question's
slot is `lives_in`.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from tkg.words import is_country, is_place_name

from .span_words import GREETING

_HOME_VERBS = frozenset("live move relocate settle reside base be emigrate immigrate".split())
_MOVE_VERBS = frozenset("move relocate emigrate immigrate transfer".split())
HOME_NOUNS = frozenset(
    "flat apartment house place home room condo bedroom bed lease address neighbourhood neighborhood "
    "district suburb area street bungalow cottage terrace maisonette townhouse farmhouse dorm "
    "houseshare share".split()
)
# "welcome to Whitby", said to someone who has just moved there
_ARRIVAL = frozenset({"welcome"})
# a place being left ("locked the door in Harrogate for the last time", "my last night in Leeds",
# "moving out of Rathmines"): where someone lived, not where they live
_LEAVING = re.compile(r"\b(?:for\s+the\s+last\s+time|(?:my|our|her|his|their)\s+last\s+(?:night|day|week|"
                      r"month)s?\s+in|mov(?:e|ed|ing)\s+out\s+of)\b", re.I)
# an event held somewhere is not a move there ("we got married in Porto", "the gig in Leeds")
EVENTS = frozenset(
    "wedding married marry marrying engaged proposed proposal honeymoon funeral party gig concert "
    "festival conference interview mehendi reception ceremony".split()
)
# "…in Oslo. wait no, she's in Bergen": the value before the marker is taken back
_CORRECTION = re.compile(
    r"\b(?:wait,?\s+no|no,?\s+wait|sorry,?\s+no|i\s+mean|i\s+meant|scratch\s+that|correction|actually,?\s+no"
    r"|but,?\s+no(?=,))\b",
    re.I,
)
_CLIMB = ("compound", "flat", "amod", "appos", "nmod")
# a trip over by the telling: "back from Sardinia", "just home from a week in Menorca", "returned from our
# honeymoon in Capri" (a few words between, none ending the clause)
_RETURNED = re.compile(r"\b(?:back|home|returned|returning)\s+from\s+(?:[\w'\u2019-]+\s+){0,4}$", re.I)
TRIP_DAYS = 7  # how long before its telling a trip one is back from is dated: about a week away
# the question asks where someone lives, not where a move started ("move to Malmö from?") or where
# something else happened ("which city did he start his company in?")
_LIVES_Q = re.compile(r"\b(?:live[sd]?|living|reside[sd]?|home|based)\b", re.I)
_FROM_Q = re.compile(r"\bfrom\b", re.I)


def lives_question(question: str) -> bool:
    """Whether a question asks where someone lives (then `residence_scale` weighs its places)."""
    return bool(_LIVES_Q.search(question)) and not _FROM_Q.search(question)


def _governor(tok: Any) -> tuple[str, Any] | None:
    """The preposition a place hangs on and the word that preposition attaches to (past adverbs
    such as "up in", "back to")."""
    while tok.dep_ in _CLIMB and tok.head.i != tok.i:
        tok = tok.head
    if tok.dep_ != "pobj" or tok.head.i == tok.i:
        return None
    prep = tok.head
    gov = prep.head
    while gov.pos_ == "ADV" and gov.head.i != gov.i:
        gov = gov.head
    return prep.lower_, gov


_FOR_GOOD = frozenset({"good", "now", "ever", "life", "keeps"})


def _passing(be: Any) -> bool:
    """Being somewhere said as a stay to come or for a purpose ("I'll be in Cork", "I'm in Leeds for
    the wedding"), not "for good" or "for now".

    >>> from tkg.nlp import parse
    >>> [_passing(next(parse(t).sents).root) for t in ("I'll be in Cork", "I'm in Leeds for a wedding",
    ...                                                 "I'm in Leeds for good", "she is in Bergen")]
    [True, True, False, False]
    """
    if any(c.dep_ == "aux" and c.lower_ in ("'ll", "will", "wil", "ll") for c in be.children):
        return True
    return any(c.dep_ == "prep" and c.lower_ == "for" and not any(o.lower_ in _FOR_GOOD for o in c.children)
               for c in be.children)


def residence_scale(doc: Any, start: int, end: int) -> float:
    """How surely the place at ``doc[start:end]`` is where the clause's subject lives (1.0: the
    clause says so or its structure is unknown; less: see the module doc)."""
    if _LEAVING.search(doc[start].sent.text) or any(
            t.lemma_.lower() == "leave" and t.pos_ == "VERB" for t in doc[end - 1].ancestors):
        return 0.3  # "leaving Kendal", "left Leeds for good"
    if home_named(doc, end):
        return 1.0  # "our Fallowfield kitchen"
    got = _governor(doc[end - 1])
    event = any(t.lemma_.lower() in EVENTS or t.lower_ in EVENTS for t in doc[start].sent)
    if got is None:
        return 0.4 if event else 1.0
    prep, gov = got
    if gov.dep_ == "ROOT" and gov.pos_ == "ADP" and gov.sent.start > 0:  # "we bought a house! In Oak Park."
        before = doc[gov.sent.start - 1].sent  # the fragment places what the sentence before said
        if any(t.lemma_.lower() in HOME_NOUNS or t.lemma_.lower() in _MOVE_VERBS for t in before):
            return 1.0
    lemma = gov.lemma_.lower()
    if prep == "to" and gov.lower_ in _ARRIVAL:
        return 1.0
    if prep == "from":
        if lemma in _MOVE_VERBS or gov.lower_ in ("home", "back"):
            return 0.3  # the place the move left; "home from Durham", "back from Leeds": where one was away
        return 1.0 if gov.lower_ in GREETING or gov.is_sent_start else 0.6
    if (lemma in _HOME_VERBS and lemma != "be") or lemma in HOME_NOUNS or gov.lower_ in GREETING:
        return 1.0  # "moved to Leeds after the wedding" is still a move
    if event:
        return 0.4
    if lemma == "be":  # "she's in Bergen now"; "i'll be down in swansea for nan's 80th": a visit to come
        return 0.4 if _passing(gov) else 1.0
    if gov.dep_ == "pobj" and gov.head.head.lemma_.lower() in _HOME_VERBS - {"be"}:
        return 1.0  # "I live with a homestay family in Box Hill": the tagger hangs the place on the family
    return 0.45 if gov.pos_ in ("NOUN", "PROPN") else 0.6  # "a job in Lyon"; "ate out in Rome"


def taken_back(doc: Any, start: int, later_starts: list[int]) -> bool:
    """Whether a correction marker follows the span at ``start`` in the turn and another span of
    the same kind follows the marker ("up in oslo lol. wait no, she's in bergen")."""
    for m in _CORRECTION.finditer(doc.text):
        at = doc.char_span(m.start(), m.end(), alignment_mode="expand")
        if at is None or at.start <= start:
            continue
        if any(s >= at.end for s in later_starts):
            return True
    return False


# the rooms and corners of a home, named with its place by whose it is ("our Fallowfield kitchen")
_ROOMS = frozenset("kitchen garden balcony lounge sofa sitting living".split())


def home_named(doc: Any, end: int) -> bool:
    """The place ending at ``doc[end - 1]`` names someone's home by modifying it: "sat in our Fallowfield
    kitchen", "my Leith flat" (not "the Leeds office", nor "a Glasgow kitchen" of no one's)."""
    head = doc[end - 1].head
    return doc[end - 1].dep_ == "compound" and head.i >= end and (
        head.lemma_.lower() in HOME_NOUNS | _ROOMS) and any(
        c.dep_ == "poss" and c.lower_ in ("my", "our", "his", "her", "their") for c in head.children)


def back_from(doc: Any, start: int, told: datetime | None) -> datetime | None:
    """When the trip to the place at ``doc[start]`` is dated, if its sentence says someone is back from
    it: `TRIP_DAYS` before its telling ``told`` (the trip was over by then); else None.

    >>> from tkg.nlp import parse
    >>> doc = parse("Back from a week in Menorca, burnt to a crisp. Back in Leeds now.")
    >>> [back_from(doc, t.i, datetime(2023, 9, 3)) for t in doc if t.text in ("Menorca", "Leeds")]
    [datetime.datetime(2023, 8, 27, 0, 0), None]
    """
    sent = doc[start].sent
    if told is None or not _RETURNED.search(doc.text[sent.start_char: doc[start].idx]):
        return None
    return told - timedelta(days=TRIP_DAYS)


def locates(doc: Any, start: int) -> bool:
    """A place right after "in"/"to"/"into", or after a greeting's "from" ("hi from ghent!")."""
    prev = doc[start - 1].lower_
    if prev in ("in", "to", "into"):
        return True
    return prev == "from" and (start < 2 or doc[start - 2].lower_ in GREETING or doc[start - 2].is_sent_start)


_BACK = frozenset({"here", "there"})


def named_home(doc: Any, end: int, place_starts: list[int]) -> bool:
    """Whether a later "here"/"there" in the turn says the place at ``doc[..end]`` is home: the adverb
    hangs on a living or moving verb with no other place named between ("hyderabad update: been here
    4 months", "Lisbon news: we've lived there since spring"). "there" needs a home verb other than
    "be" ("we were there a week" is a visit); a negated verb does not count."""
    for tok in doc[end:]:
        if tok.i in place_starts:
            return False  # a nearer place is what the adverb refers back to
        if tok.lower_ not in _BACK or tok.dep_ != "advmod":
            continue
        verb = tok.head
        lemma = verb.lemma_.lower()
        if lemma not in _HOME_VERBS or (tok.lower_ == "there" and lemma == "be"):
            continue
        if not any(c.dep_ == "neg" for c in verb.children):
            return True
    return False


_TOWN_HEADS = frozenset({"city", "town", "country", "village", "state"})
_AREA_HEADS = frozenset({"neighbourhood", "neighborhood", "suburb", "area", "district"})
_CITY_HEADS = frozenset({"city", "town", "village"})


def place_scale(head: str, value: str) -> float:
    """"Which city": a gazetteer city over a neighbourhood; "which suburb": the other way round."""
    town = is_place_name(value, locative=True)
    if head in _TOWN_HEADS:
        return 1.0 if town and not (head in _CITY_HEADS and is_country(value)) else 0.6  # "Ireland": no city
    if head in _AREA_HEADS:
        return 0.6 if town else 1.0
    return 1.0
