"""Place spans of one parsed sentence, for `procedures/spans.py`: what the tagger calls a place, a
street after a preposition of place ("on Mill Lane", which the tagger may call a person), and the
gazetteer's names, in capitals or texted small ("moved to porto", "leeds parking is a joke"), and a
home known by its own name ("Rowan Cottage", "Brunswick Court").

Example::

    >>> from tkg.nlp import parse
    >>> [s.text for s in places(parse("first night in the bristol flat, seagulls everywhere")[:])]
    ['bristol']
"""

from __future__ import annotations

from typing import Any

from tkg.words import is_common_word, is_name_place, is_place_name, is_verb_word

from .residence import HOME_NOUNS, named_home
from .span_base import Span, entity_spans, foreign_sentence, street_name
from .span_words import ALONG, DET, LOCATIVE, NER_KINDS


def on_street(sent: Any, span: Span, *, along: bool = False) -> bool:
    """A name that ends in a street word after a preposition of place ("her bakery *on Mill Lane*",
    "off Hope Road") is a street, whatever the tagger says; "I met Rosa Lane" keeps its person. With
    ``along``, only after a preposition that says a street ("on", "off"): "works at Elm Grove" may name
    a care home."""
    return street_name(sent.doc[span.start : span.end]) and span.start > sent.start \
        and sent.doc[span.start - 1].lower_ in (ALONG - LOCATIVE if along else ALONG)


# the prepositions a place follows, in English and in the languages chats switch into ("en Austin")
_PLACED = LOCATIVE | frozenset("en a à au aux desde para hacia sa".split())


def places(sent: Any) -> list[Span]:
    """The places a sentence names: tagged ones, streets after a preposition of place, and gazetteer
    names (lower-case ones after a locative, or English has them only as names: `_bare_place`)."""
    foreign = foreign_sentence(sent)  # there a tagged place needs the gazetteer and a preposition before it
    out = [s for s in entity_spans(sent, NER_KINDS["place"], "place", 0.9)
           if (is_place_name(s.text) or s.text[:1].isupper()) and not (foreign and not (
               is_place_name(s.text) and s.start > sent.start and sent.doc[s.start - 1].lower_ in _PLACED))]
    taken = {i for s in out for i in range(s.start, s.end)}
    # "on Mill Lane", tagged a person
    out += [Span(s.text, "place", 0.8, s.start, s.end) for s in entity_spans(sent, ("PERSON",), "place", 0.8)
            if on_street(sent, s) and not taken & set(range(s.start, s.end))]
    # a named home before a town's name inside it: "Brunswick Court", not "Brunswick"
    out += _named_dwellings(sent, {i for s in out for i in range(s.start, s.end)})
    taken = {i for s in out for i in range(s.start, s.end)}
    toks = list(sent)
    for n in (3, 2, 1):  # gazetteer names, longest first: "hong kong", "porto"
        for j in range(len(toks) - n + 1):
            window = toks[j : j + n]
            prev = toks[j - 1].lower_ if j > 0 else ""
            bare = n == 1 and _bare_place(toks, j)
            if any(t.i in taken for t in window) or not all(t.is_alpha for t in window) or not all(
                    t.pos_ in ("PROPN", "NOUN", "X") or t.text[:1].isupper() for t in window) and not (
                    n == 1 and prev in LOCATIVE and not is_verb_word(window[0].text)) and not bare:
                continue  # "moving to perth" tagged as a verb is still a place; "to split" is not
            text = " ".join(t.text for t in window)
            if any(t.ent_type_ == "PERSON" for t in window) and prev not in LOCATIVE \
                    and window[-1].i + 1 < len(sent.doc) and sent.doc[window[-1].i + 1].tag_ == "POS":
                continue  # "hisses at Rafa's guitar": a person's, though a town has the name
            initial = window[0].i == sent.start and is_common_word(text) and not bare
            back = is_place_name(text, locative=True) and named_home(sent.doc, window[-1].i + 1, [])
            # (back: "X news: here")
            if foreign and prev not in _PLACED:
                continue  # "como", "una", "esquina": Spanish words some town is named
            if (not initial and is_place_name(text, locative=prev in LOCATIVE or bare)) or back:
                out.append(Span(text, "place", 0.8, window[0].i, window[-1].i + 1))
                taken.update(t.i for t in window)
    return out + _demonyms(sent, taken)


def _demonyms(sent: Any, taken: set[int]) -> list[Span]:
    """The place of a resident's name one is said to be ("I am a Montrealer", "officially a New Yorker"
    now): the gazetteer's town the name is made from with "-er".

    >>> from tkg.nlp import parse
    >>> [s.text for s in _demonyms(parse("As of Tuesday I am a Montrealer.")[:], set())]
    ['Montreal']
    >>> [s.text for s in _demonyms(parse("He is a Farmer, a Leeds one.")[:], set())]
    []
    """
    out = []
    for t in sent:
        if t.i in taken or not (t.text[:1].isupper() and t.is_alpha and t.lower_.endswith("er")) \
                or not (t.dep_ in ("attr", "oprd") and t.head.lemma_.lower() in ("be", "become")):
            continue
        stem = t.text[:-2]
        before = sent.doc[t.i - 1] if t.i > sent.start else None
        # (the name says where one lives: cued); "a New Yorker": the town's name runs over two words
        if before is not None and before.text[:1].isupper() and is_place_name(f"{before.text} {stem}"):
            out.append(Span(f"{before.text} {stem}", "place", 0.9, t.i - 1, t.i + 1, cued=True))
        elif is_place_name(stem):
            out.append(Span(stem, "place", 0.9, t.i, t.i + 1, cued=True))
    return out


# a home or a care home known by its own name, whatever the tagger calls it: "Rowan Cottage"
_NAMED_DWELLING = frozenset("cottage house farm farmhouse hall lodge court manor villa mansions barn grange"
                            .split())


def _named_dwellings(sent: Any, taken: set[int]) -> list[Span]:
    """Capitalised names that end in a dwelling word ("Rowan Cottage", "Brunswick Court").

    >>> from tkg.nlp import parse
    >>> [s.text for s in places(parse("Writing this from the kitchen floor at Rowan Cottage.")[:])]
    ['Rowan Cottage']
    >>> [s.text for s in places(parse("Dad moved into Brunswick Court.")[:])]  # not the town Brunswick
    ['Brunswick Court']
    """
    out = []
    for t in sent:
        if t.lower_ not in _NAMED_DWELLING or not t.text[:1].isupper() or t.i in taken:
            continue
        j = t.i
        while j > sent.start and sent.doc[j - 1].text[:1].isupper() and sent.doc[j - 1].is_alpha \
                and not sent.doc[j - 1].is_stop and j - 1 not in taken:
            j -= 1
        if j < t.i:
            out.append(Span(sent.doc[j : t.i + 1].text, "place", 0.8, j, t.i + 1))
    return out


def _bare_place(toks: list[Any], j: int) -> bool:
    """A lower-case name English has only as a place's (`is_name_place`), not a verb's or a
    preposition's object, nor after a determiner, a number or an adjective unless it names a home
    after it: "leeds parking", "the bristol flat", "oslo is pricey"; not "a mango tree", "eat mango"."""
    tok = toks[j]
    if not is_name_place(tok.text):
        return False
    after = toks[j + 1] if j + 1 < len(toks) else None
    if after is not None and after.lower_ in HOME_NOUNS:
        return True
    prev = toks[j - 1] if j > 0 else None
    if prev is not None and (prev.lower_ in DET or prev.pos_ in ("NUM", "ADJ", "DET") or prev.tag_ == "PRP$"):
        return False
    if after is not None and after.pos_ in ("NOUN", "PROPN") and after.is_alpha:
        return True  # naming the noun after it: "leeds parking", "oslo rent"
    # (a tagger that took the name for a verb gives it no object's role worth reading)
    return tok.pos_ not in ("NOUN", "PROPN") or tok.dep_ not in ("dobj", "pobj")
