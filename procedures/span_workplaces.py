"""Workplaces read from the words around them when the tagger misses the name: after "at" on a work
word ("my team at Brenner", "a job at the main library"), a common noun an institution's name heads
("the Mater hospital"), and a name written as the modifier of a work noun ("i'm odeon staff now",
"got the greggs job"); a name the tagger took for a place after a workplace's preposition ("now at
Telstra"), one that joins a town to a common noun ("Edinburgh Trams"), and one said after "ex-"
("ex-salt & ember"). `procedures/spans.py` adds these to an organisation's spans.
"""

from __future__ import annotations

import re
from typing import Any

from tkg.nlp import parse
from tkg.vehicle_words import MOTOR_NAMES
from tkg.words import is_common_word, is_place_name

from .span_base import Span, clean, unknown_word_before
from .span_words import CHAT_WORDS, PEOPLE, ROLE_HEADS, WHEN_LABELS

# words that say where someone works
_WORKING = frozenset("""job work works working worked shift shifts hired started start starting employed
    intern internship position role""".split())
_NOT_PLACES = frozenset("home moment time least first last end weekend night day most".split())  # "at home"

# nouns and verbs whose "at" names a workplace ("my team at Brenner", "a job at Halden", "started at Arup")
AT_WORK = _WORKING | frozenset("team colleague colleagues boss office desk coworker coworkers manager"
                                .split())


def _on_work(word: Any) -> bool:
    """A work word or a role, or a copula whose complement is one ("I'm Head of Research at …")."""
    if word.lemma_.lower() == "be":
        return any(c.dep_ == "attr" and _on_work(c) for c in word.children)
    return word.lower_ in AT_WORK or word.lemma_.lower() in AT_WORK or word.lemma_.lower() in ROLE_HEADS


def named_workplaces(sent: Any, taken: set[int]) -> list[Span]:
    """A capitalised name after "at" that hangs on a work word or a role, however the tagger types
    it: "my team at Brenner won an award" (tagged a person), "Head of Research at Hollis".

    >>> from tkg.nlp import parse
    >>> [s.text for s in named_workplaces(parse("My team at Brenner won an award.")[:], set())]
    ['Brenner']
    """
    out = []
    for t in sent:
        if t.lower_ != "at" or not _on_work(t.head):
            continue  # "my team at Brenner", "Head of Research at Hollis"
        obj = next((c for c in t.children if c.dep_ == "pobj" and c.pos_ == "PROPN"), None)
        if obj is None or obj.i in taken or obj.ent_type_ in ("GPE", "LOC", "DATE", "TIME"):
            continue
        cleaned = clean([x for x in sent.doc[t.i + 1: obj.i + 1] if x.text[:1].isupper() and x.is_alpha])
        if cleaned:  # (the tagger's place types are out already: "Hollis" is also a town in a gazetteer)
            out.append(Span(cleaned[0], "organisation", 0.7, cleaned[1], cleaned[2], cued=True))
    return out


def said_workplace(text: str) -> str | None:
    """The first workplace ``text`` names after "at" on a work word or a role (`named_workplaces`)."""
    return next((sp.text for sent in parse(text).sents for sp in named_workplaces(sent, set())), None)


def asks_about_work(text: str) -> bool:
    """Whether ``text`` is a question that says a word of work ("how's work btw, still at the vet place?")."""
    return text.rstrip().endswith("?") and bool(set(re.findall(r"[a-z]+", text.lower())) & _WORKING)


def workplaces(sent: Any, taken: set[int], *, asked_about_work: bool = False) -> list[Span]:
    """A common-noun workplace after "at" in a sentence about work ("a job at the main library",
    "my shifts at the bakery"), or in a reply to a question about work (``asked_about_work``: "how's
    work, still at the vet place?" – "ya still at greenpaw vets"): the noun phrase the preposition governs."""
    if not asked_about_work and not {t.lower_ for t in sent} & _WORKING:
        return _unknown_at(sent, taken)
    out = []
    for t in sent:
        if t.lower_ != "at":
            continue
        obj = next((c for c in t.children if c.dep_ == "pobj" and c.pos_ == "NOUN"), None)
        if obj is None or obj.i in taken or obj.lower_ in _WORKING | _NOT_PLACES:
            continue
        cleaned = clean([x for x in obj.subtree if x.i <= obj.i + 2 and x.dep_ not in ("prep", "relcl")])
        if cleaned and len(cleaned[0].split()) <= 4:  # "a job at …" says it more surely than "at … on shift"
            said = any(x.lower_ in _WORKING for x in sent.doc[max(sent.start, t.i - 3): t.i])
            sure = 0.75 if said or asked_about_work else 0.55
            out.append(Span(cleaned[0], "organisation", sure, cleaned[1], cleaned[2]))
    return out


def _unknown_at(sent: Any, taken: set[int]) -> list[Span]:
    """A small-letter word English does not have, alone after "at", in a turn that says work or a role
    elsewhere ("first week of crunch at brightforge lol. i'm a qa tester now"): a workplace texted small.

    >>> from tkg.nlp import parse
    >>> doc = parse("first week of crunch at brightforge lol. i'm a qa tester now")
    >>> [s.text for s in _unknown_at(next(doc.sents), set())]
    ['brightforge']
    """
    if not any(x.lower_ in _WORKING or x.lemma_.lower() in ROLE_HEADS for x in sent.doc):
        return []
    out = []
    for t in sent:
        x = sent.doc[t.i + 1] if t.lower_ == "at" and t.i + 1 < sent.end else None
        after = sent.doc[x.i + 1] if x is not None and x.i + 1 < len(sent.doc) else None
        if x is None or x.i in taken or not (x.is_alpha and x.is_lower and len(x.text) > 3) or x.is_stop \
                or is_common_word(x.text) or is_place_name(x.text, locative=True) \
                or after is not None and after.pos_ in ("NOUN", "PROPN") and after.lower_ not in CHAT_WORDS:
            continue
        out.append(Span(x.text, "organisation", 0.5, x.i, x.i + 1))
    return out


# common nouns that head an institution's name ("the Mater hospital", "Ridgeway school")
INSTITUTIONS = frozenset("""hospital clinic school college university academy museum gallery library bank
    restaurant cafe café bakery hotel pub theatre theater studio agency firm company charity surgery practice
    shop store garage factory lab laboratory institute centre center council trust brewery nursery
    hospice gym""".split())


def institutions(sent: Any, taken: set[int]) -> list[Span]:
    """An institution named by a capitalised word before its common noun ("a nurse in the Mater
    hospital", "teaches at Ridgeway school"), whatever the tagger calls the name: the name and the noun."""
    out = []
    for t in sent:
        if t.lemma_.lower() not in INSTITUTIONS or t.pos_ != "NOUN" or t.i in taken:
            continue
        names = [c for c in t.children if c.dep_ in ("compound", "poss", "amod") and c.i < t.i
                 and c.text[:1].isupper() and c.is_alpha and c.pos_ == "PROPN"]
        if not names or any(c.ent_type_ == "DATE" or c.ent_type_ == "GPE" and is_place_name(c.text)
                            for c in names):
            continue  # "a Dublin hospital" says where, not which
        cleaned = clean([x for x in sent.doc[min(c.left_edge.i for c in names): t.i + 1]])
        if cleaned:
            out.append(Span(cleaned[0], "organisation", 0.8, cleaned[1], cleaned[2]))
    return out


# the head nouns a question asks an employer by ("which company", "where does she work": none)
EMPLOYERS = frozenset({"", "company", "employer", "firm", "agency", "studio", "startup", "organisation"})

# nouns a workplace's name modifies when it is written as a word of its own ("odeon staff", "the
# greggs job", "my tesco shift"), lower case as often as not
_WORK_NOUNS = frozenset("""job jobs shift shifts staff uniform apron badge rota manager boss colleagues
    coworkers interview contract payslip""".split())


def work_names(sent: Any, taken: set[int], head: str) -> list[Span]:
    """A word English does not have, modifying a work noun: a workplace's name, whatever its case ("i'm
    odeon staff now", "handed my greggs apron back"); never a place's ("the leeds job") or a person's.
    Only for an employer or an institution asked (``head``): a team or a band is no workplace.

    >>> from tkg.nlp import parse
    >>> [s.text for s in work_names(parse("handed my greggs apron back, i'm odeon staff now")[:], set(), "")]
    ['greggs', 'odeon']
    >>> work_names(parse("the leeds job and my night shift")[:], set(), "")
    []
    """
    if head not in EMPLOYERS and head not in INSTITUTIONS:
        return []
    out = []
    for t in sent:
        if t.lower_ not in _WORK_NOUNS and t.lemma_.lower() not in _WORK_NOUNS:
            continue
        name = unknown_word_before(t, taken)
        if name is None or name.dep_ not in ("compound", "amod", "nmod", "poss") or name.ent_type_ == "GPE" \
                or is_place_name(name.text, locative=True):
            continue
        out.append(Span(name.text, "organisation", 0.6, name.i, name.i + 1, cued=True))
    return out


# "she's ex-salt & ember", "he is ex-Google": the prefix names where someone was before, in any case;
# one word, or words joined by "&" or hyphens ("ex-big-tech")
_FORMER = re.compile(r"\bex-([^\W\d_]+(?:\s?&\s?[^\W\d_]+|-[^\W\d_]+)*)", re.I)
# "ex-wife", "ex-boss": a former someone, not a former workplace
_KIN = frozenset("wife husband boyfriend girlfriend partner fiance fiancee colleague friend boss".split())


# what a workplace is said after: "now at Telstra", "works for Atlassian", "je commence chez Ubisoft"
_AT_WORK = frozenset({"at", "for", "chez", "au", "joined", "join", "joining"})


def misread_workplace(sent: Any, run: Span) -> bool:
    """A name after a workplace's preposition (or "joined") that the tagger took for a place or a nationality
    ("now at Telstra", tagged NORP; "chez Ubisoft", tagged GPE) and that no gazetteer or dictionary
    has: an organisation's name, however tagged. Not a person's ("for Dave")."""
    doc = sent.doc
    return run.start > sent.start and doc[run.start - 1].lower_ in _AT_WORK \
        and not is_place_name(run.text) and not is_common_word(run.text) \
        and not any(t.ent_type_ in ("PERSON", *WHEN_LABELS) for t in doc[run.start : run.end])


def town_named(run: Span) -> bool:
    """A town's name and a common noun: an organisation named after its town, however tagged ("a job wi
    Edinburgh Trams", tagged a person), not someone ("Tom Hardy": no town).

    >>> town_named(Span("Edinburgh Trams", "organisation", 0.5, 0, 2))
    True
    >>> town_named(Span("Tom Hardy", "person", 0.5, 0, 2)), town_named(Span("Leeds", "place", 0.5, 0, 1))
    (False, False)
    """
    words = run.text.split()
    last = words[-1].lower()
    return len(words) >= 2 and is_place_name(words[0]) and (is_common_word(last) or last.endswith("s")
                                                             and is_common_word(last[:-1]))


def former_workplaces(sent: Any) -> list[Span]:
    """Organisations named by "ex-" ("she's ex-salt & ember too"), not a former someone ("ex-wife")."""
    out = []
    for m in _FORMER.finditer(sent.text):
        at = sent.doc.char_span(sent.start_char + m.start(1), sent.start_char + m.end(1),
                                alignment_mode="expand")
        last = m.group(1).split("-")[-1].lower()
        if at is not None and last not in PEOPLE and last not in ROLE_HEADS and last not in _KIN:
            out.append(Span(m.group(1), "organisation", 0.7, at.start, at.end))
    return out


_N_JOINS = frozenset({"n", "'n'", "n'", "&"})  # "pots n pans", "fish 'n' chips": one name


def joined_by_n(sent: Any, spans: list[Span]) -> list[Span]:
    """Names of one word grown over an "n" or "&" to the word across it, as shops are named in small
    letters ("shifts at pots n pans", where the tagger gives "pots" alone); a name across it already
    is left as it is.

    >>> from tkg.nlp import parse
    >>> sent = next(parse("shifts at pots n pans.").sents)
    >>> [s.text for s in joined_by_n(sent, [Span("pots", "organisation", 0.5, 2, 3)])]
    ['pots n pans']
    """
    doc, out = sent.doc, []
    for s in spans:
        start, end = s.start, s.end
        if end + 1 < sent.end and doc[end].lower_ in _N_JOINS and doc[end + 1].is_alpha \
                and doc[end + 1].pos_ in ("NOUN", "PROPN"):
            end += 2
        elif start - 2 >= sent.start and doc[start - 1].lower_ in _N_JOINS and doc[start - 2].is_alpha \
                and doc[start - 2].pos_ in ("NOUN", "PROPN") and doc[start - 2].dep_ == "pobj":
            start -= 2
        grown = Span(doc[start:end].text, s.kind, s.sure, start, end)
        out.append(s if (start, end) == (s.start, s.end) else grown)
    return out


def a_car(tokens: Any) -> bool:
    """A car's make or model said as a thing one has ("ive got the volvo", "my old Ford"), not the
    company ("works at Volvo", "the Volvo plant")."""
    toks = list(tokens)
    if len(toks) != 1 or toks[0].lower_ not in MOTOR_NAMES or toks[0].dep_ == "compound":
        return False
    return any(c.dep_ in ("det", "poss", "amod") for c in toks[0].children)
