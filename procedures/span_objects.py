"""Spans read off a sentence's structure rather than typed by `procedures.spans`: the objects of the
question's verb ("I play the *keyboard*"), cue words the tokenizer split ("10K"), the test for a span
that names no thing ("a lovely old instrument", "the keys to the flat"), and the place a workplace is
named at ("joined Barclays at *Canary Wharf*"). Used by `procedures.reader`.
"""

from __future__ import annotations

from typing import Any

from tkg.words import is_place_name

from .span_base import Span, nameless, plausible, pronominal, street_name
from .span_words import LOCATIVE


def glued_cues(sent: Any, cues: set[str]) -> list[int]:
    """Where the sentence writes a cue the tokenizer split in two: "10K" (a race, "10" and "K"),
    "5km", "4x4": a number and the letters glued to it."""
    toks = list(sent)
    return [a.i for a, b in zip(toks, toks[1:], strict=False)
            if not a.whitespace_ and a.like_num and b.is_alpha and (a.lower_ + b.lower_) in cues]


def not_a_thing(tokens: Any, head: str, *, listing: bool = True) -> bool:
    """A span that answers no thing question: the head noun with only adjectives before it ("a
    lovely old instrument" names none), or in a list of things a place ("Sibiu" for "which
    instruments has he owned"; one "which marathon" may well be "Rotterdam"), or a date. "The keys
    to the flat" are a door's, no keyboard.

    >>> from tkg.nlp import parse
    >>> doc, band = parse("We got the keys to the flat."), parse("I play keys.")
    >>> not_a_thing(doc[3:4], "instrument", listing=False), not_a_thing(band[2:3], "instrument")
    (True, False)
    """
    start = tokens[0].i
    after = tokens.doc[tokens[-1].i + 1] if tokens[-1].i + 1 < len(tokens.doc) else None
    if tokens[-1].lower_ == "keys" and after is not None and after.lower_ in ("to", "for", "of"):
        return True
    after_locative = start > 0 and tokens.doc[start - 1].lower_ in LOCATIVE
    if listing and (is_place_name(tokens.text, locative=after_locative)
                    or all(t.ent_type_ in ("DATE", "TIME") for t in tokens)):  # nor is a date ("December")
        return True
    last = tokens[-1]
    bare = last.lemma_.lower() == head or last.lower_ in (head, head + "s")
    return bool(head) and bare and all(t.pos_ in ("ADJ", "DET", "ADV", "PRON") for t in tokens[:-1])


_TIME_UNITS = frozenset("second minute hour day week month year decade age while".split())
_AT = frozenset("in on at near around outside inside by off along".split())


def _where_or_when(target: Any) -> bool:
    """A preposition's object that says a time (tagged so, or a time unit: "in years") or, after "in",
    "on", "at"…, a place (tagged so, or a street's name: "on Mill Lane", which the tagger may call a
    person); "play *for* Kralingen Runners" keeps its team."""
    toks = list(target.subtree)
    if target.lemma_.lower() in _TIME_UNITS or any(x.ent_type_ in ("DATE", "TIME") for x in toks):
        return True
    return target.head.lower_ in _AT and (street_name(toks)
                                          or any(x.ent_type_ in ("GPE", "LOC", "FAC") for x in toks))


def objects_of(sent: Any, verb: str) -> list[Any]:
    """Direct objects of the question's verb in the sentence ("I play the *keyboard*")."""
    out = []
    for t in sent:
        if t.lemma_.lower() == verb and t.pos_ == "VERB":
            for child in t.children:
                if child.dep_ in ("dobj", "attr", "pobj") or (child.dep_ == "prep" and list(child.children)):
                    target = child if child.dep_ != "prep" else next(iter(child.children))
                    if child.dep_ == "prep" and _where_or_when(target):
                        continue  # "opened a bakery on Mill Lane", "seen in years": where or when, not what
                    toks = [
                        x for x in target.subtree if x.lower_ not in ("the", "a", "an", "my", "our", "your")
                    ]
                    if not toks or len(toks) > 5 or pronominal(toks) or nameless(toks):
                        continue
                    said = Span(" ".join(x.text for x in toks), "thing", 0.7, toks[0].i, toks[-1].i + 1)
                    if plausible(said):  # ("worked Boxing Day": when, not what)
                        out.append(said)
    return out


def site_of_object(token: Any) -> bool:
    """The name at ``token`` says where the verb's named object is ("joined Barclays at Canary Wharf",
    "started with Arup in Leeds"): the place of the organisation, not another one.

    >>> from tkg.nlp import parse
    >>> doc = parse("She joined Barclays at Canary Wharf as an analyst.")
    >>> site_of_object(doc[5]), site_of_object(doc[2]), site_of_object(parse("I started at Deloitte.")[3])
    (True, False, False)
    """
    while token.dep_ in ("compound", "amod") and token.head is not token:
        token = token.head
    prep = token.head
    if token.dep_ != "pobj" or prep.lower_ not in ("at", "in"):
        return False
    return any(c.dep_ == "dobj" and c.pos_ == "PROPN" for c in prep.head.children)
