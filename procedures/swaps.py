"""What a speaker has given up, and what a change gives up and takes up: "I'm over The Marigold
Engine" and "the vegan era is over" give something up; "switched from keyboard to bass" gives up the
keyboard for the bass, "traded the Corsa in for a Leaf" the Corsa for the Leaf; what is left, handed
back, stolen or lost is given up for nothing. The reader weighs such a value less when the question
asks how things stand now (`procedures/reader.py`).
"""

from __future__ import annotations

import re
from typing import Any

from .span_base import modified

# "I'm over The Marigold Engine", "we're done with Netflix", "so sick of Arsenal": a liking given up; "RIP
# the Clio": a thing that is gone
_GIVEN_UP = re.compile(r"\b(?:i'?m|i\s+am|we'?re|we\s+are|im)\s+"
                       r"(?:so\s+|totally\s+|completely\s+|officially\s+)?"
                       r"(?:over|done\s+with|sick\s+of|tired\s+of|bored\s+of|off)\s+(?:the\s+)?$"
                       r"|\bexcept\s+(?:for\s+)?(?:the\s+|my\s+)?$"  # (a recap corrected)
                       r"|\brip\s+(?:the\s+|my\s+|our\s+|your\s+|ur\s+)?(?:old\s+)?$", re.I)  # RIP
# what follows a value that is over: "the vegan era is over", "the Corsa is history"
_OVER_AFTER = re.compile(r"^[\w-]*\s*(?:era|phase|days|chapter|thing)?\s*(?:is|are|'s|’s)\s+"
                         r"(?:so\s+|officially\s+)?(?:over|done|finished|history|dead\s+to\s+(?:me|us))\b",
                         re.I)


# what one leaves a home, a job or a club with: "last ever shift at the warehouse", "moved out of the
# Leith flat", "handed the keys of Rose Cottage to…", "bye Clapham", "resigned from Ardmore"
_ENDED = re.compile(r"\b(?:last\s+(?:ever\s+)?(?:day|shift|night|week|service|session|class|game|match)s?\s+"
                    r"(?:at|in|with|for|on)|mov(?:e|ed|ing)\s+out\s+(?:of|from)|handed\s+(?:back\s+)?"
                    r"(?:the\s+|my\s+|our\s+)?keys?\s+(?:of|to|for|back\s+to)|(?:good)?bye|farewell(?:\s+to)?|"
                    r"resigned\s+from)\s+(?:the\s+|my\s+|our\s+)?(?:old\s+)?(?:[\w-]+\s+){0,2}$", re.I)


# a couple that ended: "Elio and I split up", "we broke up", "Wren ended it", "Done with Bo."
_BROKE_UP = re.compile(r"\b(?:broke|break(?:ing)?|split(?:ting)?|broken)\s+up\b|\bsplit\s+from\b|"
                       r"\bdump(?:ed|s)?\b|\bended\s+(?:it|things)\b|\bcalled\s+it\s+(?:off|quits)\b|"
                       r"^\W*done\s+with\b", re.I)


def broke_up(sent: Any) -> bool:
    """The sentence tells of a couple ending: a partner named in it was the partner until then (the
    reader reads them as left, as a home moved out of).

    >>> from tkg.nlp import parse
    >>> [broke_up(s) for s in parse("Done with Bo. Bo is doing a PhD.").sents]
    [True, False]
    """
    return bool(_BROKE_UP.search(sent.text))


def ended(sent: Any, token: Any) -> bool:
    """The words right before ``token`` say it was left: a last shift there, a move out of it, its keys
    handed over, a goodbye. Held until then: the reader weighs it less for "now" and `choice` reads it
    as held before for "as of".

    >>> from tkg.nlp import parse
    >>> doc = parse("last ever shift at the warehouse done")
    >>> ended(doc[:], doc[5]), ended(parse("Bye Clapham")[:], parse("Bye Clapham")[1])
    (True, True)
    >>> doc = parse("my first shift at the warehouse")
    >>> ended(doc[:], doc[5])
    False
    """
    return bool(_ENDED.search(sent.doc.text[sent.start_char : token.idx]))


def given_up(sent: Any, token: Any) -> bool:
    """The words right before ``token`` say the speaker has given up what it names, the words after it
    say it is over, or the speaker misses it.

    >>> from tkg.nlp import parse
    >>> doc = parse("Full confession: I'm over The Marigold Engine.")
    >>> given_up(doc[:], doc[6]), given_up(doc[:], doc[0])
    (True, False)
    >>> doc = parse("confession: the vegan era is over. All right except the vegan bit")
    >>> given_up(doc[:], doc[3]), given_up(doc[:], doc[-2])
    (True, True)
    >>> doc = parse("I miss the garden at the Ripon bungalow.")
    >>> given_up(doc[:], doc[6])
    True
    """
    text = sent.doc.text
    return bool(_GIVEN_UP.search(text[sent.start_char : token.idx])
                or _OVER_AFTER.search(text[token.idx + len(token.text) : sent.end_char])
                or any(a.lemma_.lower() == "miss" and a.tag_ in ("VBP", "VB") and any(  # "I miss the Ripon
                    c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in a.children)  # bungalow": had once
                       for a in token.ancestors))


# a change said as the old value and the new one: "switched from keyboard to bass", "moved from Leeds to
# York"; "left Ryanair for Jet2", "traded the Corsa in for a Leaf", "swapped oat milk for cow's"
_FROM_TO_VERBS = frozenset("switch change move transfer swap upgrade downgrade convert jump relocate go"
                           .split())
_FOR_VERBS = frozenset("trade swap exchange replace part-exchange".split())
_LEFT_VERBS = frozenset("leave quit sell ditch dump exit".split())  # given up, for another or for none
_GIVEN_BACK = frozenset("hand give turn".split())  # "handed my greggs apron back", "turned in my badge"
# gone: "someone stole my Samsung", "my phone got swiped", "they robbed my bike"; and the noun for it
_LOST = frozenset("steal lose crash total scrap wreck nick swipe pinch snatch rob pickpocket".split())
_LOSS = frozenset("loss theft".split())  # "the loss of the Samsung"
# a doing or a thing stopped: "gave up running", "packed the choir in" (the particle the verb needs),
# "stopped swimming" (none: a doing only, "stopped the car" gives up no car)
_STOPPED = {"give": "up", "pack": "in", "jack": "in", "stop": ""}


def _prep(verb: Any, words: tuple[str, ...], after: int) -> Any | None:
    return next((c for c in verb.children if c.dep_ == "prep" and c.lower_ in words and c.i > after), None)


def replaced(token: Any) -> bool:
    """``token`` names the value a change gave up: what comes after "from" when the verb also says "to"
    ("switched from keyboard to bass guitar"), the object given up for another ("traded the Corsa in
    for a Leaf"), one left ("left Ryanair for Jet2", "left Access Bank and joined Barclays"), handed
    back ("handed my greggs apron back"), lost ("someone stole my Samsung", "my bike got nicked", "the
    loss of the Samsung"), or stopped ("gave up running").

    >>> from tkg.nlp import parse
    >>> doc = parse("I switched from keyboard to bass guitar.")
    >>> replaced(doc[3]), replaced(doc[6])
    (True, False)
    >>> doc = parse("He left Ryanair for Jet2 in March.")
    >>> replaced(doc[2]), replaced(doc[4])
    (True, False)
    >>> doc = parse("Someone stole my Samsung at Carnival, so I'm on Bisi's old iPhone 13.")
    >>> replaced(doc[3]), replaced(doc[-3])
    (True, False)
    >>> doc = parse("I shall overlook the loss of the Samsung; my phone got swiped on the tube.")
    >>> replaced(doc[7]), replaced(doc[10])
    (True, True)
    >>> doc = parse("handed my greggs apron back last week, i'm odeon staff now")
    >>> replaced(doc[2]), replaced(doc[10])
    (True, False)
    >>> replaced(parse("Handed my fleece back at Hillside last week.")[5])
    True
    """
    head = modified(token, "nmod")
    gov = head.head
    if head.dep_ in ("pobj", "pcomp") and gov.lower_ == "from" and gov.head.lemma_.lower() in _FROM_TO_VERBS:
        return _prep(gov.head, ("to", "into"), head.i) is not None
    if head.dep_ in ("dobj", "nsubjpass") and gov.lemma_.lower() in _LOST:
        return True
    if head.dep_ == "pobj" and gov.lower_ == "of" and gov.head.lemma_.lower() in _LOSS:
        return True
    verb = gov.head.head if gov.head.lower_ in ("back", "in") else gov.head  # ("back at Hillside")
    if head.dep_ == "pobj" and gov.lower_ == "at" and _given_back(verb):
        return True  # "handed my fleece back at Hillside": the place whose things went back
    # "gave up running", "packed the choir in", "stopped swimming" (a gerund may hang as a clause: "gave
    # up running after the operation")
    particle = _STOPPED.get(gov.lemma_.lower())
    stopped = head.dep_ in ("dobj", "xcomp") or head.tag_ == "VBG" and head.dep_ == "advcl"
    if stopped and particle is not None and (any(
            c.dep_ == "prt" and c.lower_ == particle for c in [*gov.children, *head.children]) if particle
            else head.tag_ == "VBG"):
        return True
    if head.dep_ != "dobj":
        return False
    if _given_back(gov):
        return True
    return gov.lemma_.lower() in _LEFT_VERBS or gov.lemma_.lower() in _FOR_VERBS and \
        _prep(gov, ("for", "with"), head.i) is not None


def _given_back(verb: Any) -> bool:
    return verb.lemma_.lower() in _GIVEN_BACK and any(
        c.dep_ in ("prt", "advmod") and c.lower_ in ("back", "in") for c in verb.children)


def replacing(token: Any) -> bool:
    """``token`` names the value a change took up: the "to" of a "from … to" change, the "for" of an
    object given up ("traded it in for a secondhand Nissan Leaf").

    >>> from tkg.nlp import parse
    >>> doc = parse("Traded it in for a secondhand Nissan Leaf.")
    >>> replacing(doc[7]), replacing(doc[1])
    (True, False)
    """
    head = modified(token, "nmod")
    gov = head.head
    if head.dep_ not in ("pobj", "pcomp") or gov.dep_ != "prep":
        return False
    verb = gov.head
    if gov.lower_ in ("to", "into") and verb.lemma_.lower() in _FROM_TO_VERBS:
        return any(c.dep_ == "prep" and c.lower_ == "from" and c.i < gov.i for c in verb.children)
    return gov.lower_ in ("for", "with") and verb.lemma_.lower() in _FOR_VERBS | _LEFT_VERBS and any(
        c.dep_ == "dobj" and c.i < gov.i for c in verb.children)
