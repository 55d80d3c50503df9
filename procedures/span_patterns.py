"""Spans a phrase pattern or a word list types, whatever the tagger makes of their words: the degree
someone studies ("Bachelor of Nursing", "her midwifery degree"), where a thing was had from ("got him
from the rspca centre in leeds") and the members of a category said without it ("me on bass", "started
weaving"), and the relationship statuses a sentence says. The reader (`procedures.reader`) and the span
finder (`procedures.spans`) add them.
"""

from __future__ import annotations

import re
from typing import Any

from planners.asked import Asked
from planners.head_words import kind_of_noun
from tkg.nlp import may_say

from .span_base import Span, chat_words
from .span_words import (
    AHEAD,
    AHEAD_OR_DONE,
    DASHES,
    FAVOURITE,
    NAMED_MEMBERS,
    OPEN_MEMBERS,
    PEOPLE,
    SELF_TYPED,
    SPAN_MEMBERS,
    STATUS_PHRASES,
    STATUS_WORDS,
    thing_words,
)

# "where did she get her dog (from)", "where was the bike bought": where a thing was had, not a city
_HAD_FROM = re.compile(r"^\s*where\b.*\b(?:get|got|adopt(?:ed)?|buy|bought|rescue[d]?|pick(?:ed)?\s+up)\b",
                       re.I)


# what is had from a person or a place without being handed over: "where did she get the idea"
_NOT_HAD = re.compile(r"\b(?:ideas?|inspiration|inspired|name|news|information|info|advice|tips?)\b", re.I)


def asks_where_had(asked: Asked, question: str) -> bool:
    """The question asks where a thing was had from ("Where did Ana adopt Rex from?"), not an idea."""
    return asked.kind == "place" and _HAD_FROM.search(question) is not None and not _NOT_HAD.search(question)


# a degree said by its name: "Bachelor of Nursing", "a master's in data science", "BSc in Physics", "my
# midwifery degree" (the field before "degree", one or two words)
_DEGREE = re.compile(
    r"(?P<named>\b(?:(?:bachelor|master|doctor)(?:['\u2019]?s)?(?:\s+degree)?\s+(?:of|in)(?:\s+(?:arts|science)\s+in)?"
    r"|(?:bsc|ba|ma|msc|mba|phd|diploma|certificate|degree)\s+(?:of|in))\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    r"|\b[a-z][\w-]*(?:\s+[a-z][\w-]*)?(?=\s+degree\b)", re.I)
_NOT_FIELDS = frozenset("a an the my his her their our your new first second whole online university uni "
                        "college same other this that".split())


_STUDIED = frozenset({"degree", "course", "major", "subject", "programme", "program"})  # what one studies
# words a turn naming a degree says, whatever else it says ("got an offer for Bachelor of Nursing")
DEGREE_WORDS = frozenset({"bachelor", "master", "degree", "diploma", "bsc", "msc", "mba", "phd",
                          "certificate"})


def asks_studied(asked: Asked, verb: str | None) -> bool:
    """The question asks for what someone studies ("what is Minji studying now", "which degree")."""
    return asked.kind == "thing" and (verb == "study" or asked.head in _STUDIED)


def may_hold(asked: Asked, text: str, verb: str | None) -> bool:
    """Whether ``text`` may hold a span of the asked kind: a thing's needs one of a few words (its
    head, a member of its category, a naming word; or ``verb``, whose objects are read too), so a
    turn that says none of them is not parsed. Other kinds may be in any text."""
    studied = DEGREE_WORDS if asks_studied(asked, verb) else frozenset()
    return asked.kind != "thing" or may_say(text, thing_words(asked.head) | ({verb} if verb else set())
                                            | studied)


def degrees(sent: Any) -> list[Span]:
    """The degrees a sentence names, as what someone studies: "an offer for Bachelor of Nursing",
    "started her midwifery degree"."""
    out = []
    for m in _DEGREE.finditer(sent.text):
        words = [w for w in m.group(0).split() if w.lower() not in _NOT_FIELDS]
        if not words or words[-1].lower() in ("of", "in"):
            continue
        start = sent.start_char + m.start() + m.group(0).index(words[0])
        end = start + len(" ".join(words))
        span = sent.doc.char_span(start, end, alignment_mode="expand")
        if span is not None and span.end <= sent.end and (m.group("named") or all(
                t.pos_ in ("NOUN", "PROPN", "ADJ") for t in span)):  # "her midwifery degree", not "have a"
            out.append(Span(span.text, "thing", 0.8, span.start, span.end, cued=True))
    return out


ACQUIRING = frozenset({"get", "adopt", "buy", "rescue", "take", "pick", "collect", "bring"})
_DROPPED = frozenset({"det", "poss", "predet", "nummod", "punct", "case"})
_NOT_SOURCES = frozenset({"home", "work", "there", "here"})


def sources(sent: Any) -> list[Span]:
    """Where something was had from, as the sentence says it ("got him from the rspca centre in leeds",
    "from the greyhound trust in cheshire" after "since when do you have a greyhound??"): the noun the
    "from" after a getting verb governs, with the words before it that name it, lower case or not."""
    out = []
    for t in sent:
        if t.lower_ != "from" or t.dep_ not in ("prep", "ROOT"):  # ROOT: a fragment, "from the trust."
            continue
        verb = t.head
        if t.dep_ == "prep" and (verb.pos_ not in ("VERB", "AUX") or verb.lemma_.lower() not in ACQUIRING):
            continue  # "came from Leeds", "heard from Ana", "a guy from work": not where a thing was had
        obj = next((c for c in t.children if c.dep_ == "pobj" and c.pos_ in ("NOUN", "PROPN")), None)
        if obj is None or obj.ent_type_ in ("DATE", "TIME", "PERSON") or obj.lemma_.lower() in PEOPLE \
                or kind_of_noun(obj.lemma_.lower()) == "person" or obj.lower_ in _NOT_SOURCES:
            continue  # "from a guy on Gumtree" names who, not where
        words = [x for x in obj.lefts if x.dep_ not in _DROPPED and x.i >= obj.left_edge.i] + [obj]
        first = min(x.i for x in words)
        out.append(Span(sent.doc[first: obj.i + 1].text, "place", 0.8, first, obj.i + 1, cued=True))
    return out


# what says a person just introduced is a partner: "we met at parkrun", a reply's "PARKRUN ROMANCE"
# (a match on an app, chatting someone up, being asked out, "I met someone" said in Spanish)
_DATED = "gf|bf|girlfriend|boyfriend"  # what one is asked to be by the one dating them
ROMANCE = re.compile(r"\b(?:romance|romantic|we met|first date|a date|dating|crush|kissed|"
                     r"seeing (?:someone|each other)|matched|got chatting|asked me out|engagement|"
                     rf"be (?:his|her|their|my) (?:{_DATED})|conoc[ií] a alguien)\b", re.I)


# a partner noun one is asked to be ("he asked me to be his bf", "asked if I wanted to be her girlfriend")
_TO_BE_THEIRS = re.compile(rf"\bbe\s+(?:his|her|their|my)\s+(?:{_DATED}|partner)\b", re.I)
_ASKERS = frozenset({"he", "she", "they"})


def asked_out(doc: Any, start: int) -> bool:
    """The name at ``start`` asked the teller to be their partner: it, or "he"/"she" in one of the next
    three sentences with no other name as a subject between, asks or says so ("Wren asked me to the formal.
    … then she asked if I wanted to be her girlfriend", "he said he wanted me to be his boyfriend"), or asks
    the teller out.

    >>> from tkg.nlp import parse
    >>> doc = parse("Tove asked me to be her girlfriend and I said yes. Bo asked me for a pen.")
    >>> asked_out(doc, 0), asked_out(doc, 11)
    (True, False)
    """
    name = doc[start]
    if name.dep_ != "nsubj":
        return False
    sent = name.sent
    for k in range(4):  # its sentence and the three after it
        if k:
            if sent.end >= len(doc):
                break
            sent = doc[sent.end].sent
        for tok in sent:
            if tok.dep_ != "nsubj" or tok.i < start:
                continue
            if tok.i > start and tok.pos_ == "PROPN":
                return False  # another one named doing something: the pronoun may be theirs
            verb = tok.head.lemma_.lower()
            if not (tok.i == start or k and tok.lower_ in _ASKERS) or verb not in ("ask", "say"):
                continue
            out = verb == "ask" and any(c.lower_ == "out" for c in tok.head.children)  # "asked me out"
            if out or _TO_BE_THEIRS.search(sent.text):
                return True
    return False


def introduced(doc: Any, start: int) -> bool:
    """The name at ``start`` is introduced by "name is" / "name's" ("her name is lena", "her name's maya"),
    as someone new ("Someone new: Inês."), by a noun "called" or "named" it ("someone called rafi",
    "this physio called Tom"; not "I called Tom"), presented ("Meet Biscuit!"), in a Spanish turn by
    "se llama", or as the one who asked the teller out (`asked_out`).

    >>> from tkg.nlp import parse
    >>> introduced(parse("matched w someone called rafi"), 4), introduced(parse("I called Tom"), 2)
    (True, False)
    """
    if start < 2:
        return asked_out(doc, start)
    before, word = doc[start - 1].text, doc[start - 2].lower_
    someone = word in _SOMEONE or word == "new" and start >= 3 and doc[start - 3].lower_ in _SOMEONE
    naming = doc[start - 1]
    called = naming.lower_ in ("called", "named") and naming.dep_ == "acl" and naming.head.i < naming.i \
        and naming.head.pos_ in ("NOUN", "PRON")
    presented = before.lower() == "meet" and doc[start - 1].is_sent_start  # "meet mabel."
    return before.lower() in ("is", "'s", "\u2019s") and word == "name" or before in DASHES and someone \
        or called or presented or (word, before.lower()) == ("se", "llama") or _after_someone(doc[start]) \
        or asked_out(doc, start)


def _after_someone(name: Any) -> bool:
    """A name told as a sentence of its own right after a short one about "someone" ("Someone from
    rowing. Hannah.", "I met someone. Ana!"): the name of that someone.

    >>> from tkg.nlp import parse
    >>> doc = parse("So. Someone from rowing. Hannah. She sits at stroke.")
    >>> _after_someone(doc[6]), _after_someone(doc[8])
    (True, False)
    """
    sent = name.sent
    if name.i != sent.start or sum(t.is_alpha for t in sent) > 3 or sent.start == 0:
        return False
    before = name.doc[sent.start - 1].sent
    return sum(t.is_alpha for t in before) <= 6 and any(t.lower_ in _SOMEONE for t in before)


_SOMEONE = frozenset({"someone", "somebody"})


_SPORTS = frozenset({"sport", "sports", "exercise", "workout"})
_SAID_AS_ADJ = frozenset({"diet"})  # categories whose members are adjectives ("fully vegetarian")
# a gerund before these does something else: "running late", "running out", "swimming in paperwork"
_NOT_DOING = frozenset("late out low behind around away off short in".split())


def _object(tok: Any) -> bool:
    """A gerund's object that makes it do something else: "running *a café*", "climbing *the stairs*"
    (not "bouldering three nights a week", which a tagger may read as an object too)."""
    return tok.dep_ == "dobj" and (tok.pos_ in ("PRON", "PROPN") or any(c.dep_ in ("det", "poss")
                                                                         for c in tok.children))


_MODEL_WORDS = frozenset("pro max plus mini ultra lite".split())


def _model_part(t: Any) -> bool:
    """A model's number or grade after its make ("13", "Pro"), not a count of what follows ("2 days")."""
    return t.is_digit and t.head.i <= t.i or t.lower_ in _MODEL_WORDS


def _participle(t: Any) -> bool:
    """A gerund after the common noun it describes does nothing of the speaker's: "nine pumps running",
    "left the tap running" (not "fell running", a sport a name starts)."""
    return t.dep_ == "acl" and t.head.i < t.i and t.head.pos_ == "NOUN"


def members_said(sent: Any, head: str) -> list[Span]:
    """Words of the head's category said without it ("me on *bass*", "learning *piano* now"), with
    the modifiers before them ("a *digital keyboard*") and a model after a make ("a *Honda Jazz*"); a
    category of no known members gives none."""
    members = SPAN_MEMBERS.get(head) or OPEN_MEMBERS.get(head, frozenset())
    named = NAMED_MEMBERS.get(head, frozenset())
    # a pastime or a sport is said by its gerund too: "I've started weaving", "bouldering three nights a
    # week", "I'm climbing more than ever" (not "running a café": a gerund with an object does something else)
    doing = head in OPEN_MEMBERS or head in _SPORTS
    out: list[Span] = []
    for t in sent:
        member = t.lower_ in members or t.lower_ in named and t.text[:1].isupper() and t.i > sent.start
        if out and t.i < out[-1].end:  # "a Honda Jazz": the model is the make's span already
            continue
        if member and (t.pos_ in ("NOUN", "PROPN") or t.pos_ == "ADJ" and (
                head in _SAID_AS_ADJ or t.lower_ in SELF_TYPED.get(head, ()))  # "a 2017 octavia estate"
                                    or doing and t.tag_ == "VBG" and (t.dep_ in (
                "xcomp", "dobj", "pobj", "conj") or not any(_object(c) for c in t.children)
                and t.i + 1 < len(t.doc) and t.doc[t.i + 1].lower_ not in _NOT_DOING
                and not _participle(t))) and not (
                t.head.lower_ in members and t.dep_ == "compound"):  # "bass guitar": one instrument
            mods = [c for c in t.lefts if c.dep_ in ("compound", "amod") and c.i == t.i - 1
                    and c.text[:1].isalnum() and c.lower_ not in FAVOURITE
                    and not chat_words((c,))]  # not "Haha Hilux", "😂 astra"
            before = sent.doc[t.i - 1] if t.i > sent.start else None
            if not mods and before is not None and before.dep_ == "compound" and before.head.i == t.head.i \
                    and before.pos_ == "NOUN" and t.dep_ == "compound":
                mods = [before]  # "the cargo bike life": the tagger hangs both nouns on the last
            start = mods[0].i if mods else t.i
            if start >= 2 and sent.doc[start - 1].text == "-" and not sent.doc[start - 2].whitespace_ \
                    and sent.doc[start - 2].is_alpha:  # "the e-bike", "a road-bike": one word
                start -= 2
            # a make names its model after it: "a Nissan Leaf", "the Honda Jazz"
            end = t.head.i + 1 if t.dep_ == "compound" and t.head.i == t.i + 1 and t.head.pos_ == "PROPN" \
                and t.head.text[:1].isupper() else t.i + 1
            while end < sent.end and end - t.i <= 2 and _model_part(sent.doc[end]):
                end += 1  # its model number: "her old iPhone 13", "a Peugeot 208" (not "the bike 2 days ago")
            # a sport done as the clause's verb says the doing itself: "I'm climbing more than ever"
            verb = doing and t.pos_ == "VERB"
            # a model's own name says the category ("the Fiesta failed its MOT": a car, no "car" said)
            out.append(Span(sent.doc[start:end].text, "thing", 0.8, start, end,
                            cued=verb or t.lower_ in named or t.lower_ in SELF_TYPED.get(head, ())))
    return out


def statuses(sent: Any) -> list[Span]:
    """The relationship statuses a sentence says ("we got engaged", "the wedding is set for June")."""
    low = sent.text.lower()
    out = [
        Span(value, "status", 0.9, sent.start, sent.end) for phrase, value in STATUS_PHRASES if phrase in low
    ]
    for t in sent:
        value = STATUS_WORDS.get(t.lower_)
        if t.lower_ in AHEAD_OR_DONE:  # "the wedding is set for June": engaged; "it was lovely": married
            value = AHEAD_OR_DONE[t.lower_][0 if AHEAD.search(low) else 1]
        if value and not (t.lower_ == "seeing" and t.pos_ != "VERB") and not _not_a_status(t):
            out.append(Span(value, "status", 0.8, t.i, t.i + 1))
    return out


def _not_a_status(t: Any) -> bool:
    """A status word that says no one's status: "single" on a thing ("not a *single* page", "a
    *single* room": a count), or someone else's wedding ("at Pablo's *wedding*")."""
    if t.lower_ == "single" and t.dep_ == "amod" and t.head.lower_ not in PEOPLE \
            and t.head.ent_type_ != "PERSON":
        return True
    poss = next((c for c in t.children if c.dep_ == "poss"), None)
    return poss is not None and poss.lower_ not in ("my", "our", "your", "ur")
