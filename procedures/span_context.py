"""Spans typed by the words around them when neither the tagger nor the gazetteer knows the name:
a place a dwelling sentence puts someone in ("we're finally unpacked in Little Bramford"), and a name
given by "called" or "named" ("matched with someone called rafi"); a name in apposition to a person
noun ("a girl, Iris"); what a head of something heads ("head of platform"); and a band or a team
named beside what is done with one ("The Marigold Engine on repeat", "Atleti won"); a title said of
its category noun ("the module Language and Migration"). `procedures/spans.py` adds these to the kind's
own spans, less sure than a tagged name (pets' names: `procedures/span_pets.py`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from tkg.text import content_terms
from tkg.words import is_common_word, is_place_name, only_a_noun

from .span_base import (
    Span,
    after_locative,
    chat_words,
    clean,
    plausible,
    proper_runs,
    says_is,
    unknown_word_before,
)
from .span_words import NAMED_CONTEXT, PEOPLE

_CHILDREN = frozenset("boy son daughter baby child kid".split())

# words that say where someone lives (a dwelling sentence)
_DWELLING = frozenset("""move moved moving movers live lives living lived unpack unpacked unpacking settle
    settled house flat cottage apartment bungalow home bought buy rent rented renting""".split())
_LODGING = _DWELLING | {"place", "keys"}  # "found a place in X, keys on june 1st"
_NAMING = frozenset({"called", "named", "name's", "names"})
_HEADS_OF = frozenset("head director vp chief president dean professor chair editor".split())


def of_what(hit: Any) -> list[Any]:
    """What a head of something heads ("head *of platform*", "director *of operations*"): the
    role is the whole phrase, not "head" (up to three words after "of")."""
    if hit.lower_ not in _HEADS_OF:
        return []
    of = next((c for c in hit.children if c.dep_ == "prep" and c.lower_ == "of"), None)
    if of is None:
        return []
    obj = next((c for c in of.children if c.dep_ == "pobj" and c.pos_ in ("NOUN", "PROPN")), None)
    if obj is None or obj.ent_type_ in ("PERSON", "GPE") or obj.i - of.i > 3:
        return []
    return [*hit.doc[of.i: obj.i + 1]]


def dwelling_places(sent: Any, taken: set[int]) -> list[Span]:
    """Capitalised names right after "in" or "to" in a sentence that says where someone lives,
    whatever the tagger calls them ("bought a cottage in Church Fenby", "moving to Kelso Vale"), and
    a word English lacks before a dwelling noun ("first night in the leith flat", `home_names`)."""
    words = {t.lower_ for t in sent}
    if not words & _LODGING:
        return []
    out = home_names(sent, taken)
    taken = taken | {i for s in out for i in range(s.start, s.end)}
    for t in sent:
        if t.lower_ not in ("in", "to") or t.i + 1 >= sent.end:
            continue
        if not words & _DWELLING and not (t.i + 1 < sent.end and _unknown_name(sent.doc[t.i + 1], taken)):
            continue  # "a place in" puts someone only in a name written lower case
        run = []
        # "bought new apartment in Wilda": after a dwelling word, a name tagged as a person is the place
        homed = t.head.lemma_.lower() in _DWELLING or t.head.lower_ in _DWELLING
        for x in sent.doc[t.i + 1: min(sent.end, t.i + 4)]:
            if not (x.text[:1].isupper() and x.is_alpha) or x.ent_type_ == "DATE" or x.i in taken \
                    or x.ent_type_ == "PERSON" and not homed:
                break
            run.append(x)
        cleaned = clean(run)
        if cleaned:
            out.append(Span(cleaned[0], "place", 0.6, cleaned[1], cleaned[2]))
        elif _unknown_name(sent.doc[t.i + 1], taken):  # "found a flat in stoneybatter": chat writes it lower
            out.append(Span(sent.doc[t.i + 1].text, "place", 0.6, t.i + 1, t.i + 2))
    return out


def _unknown_name(x: Any, taken: set[int]) -> bool:
    """A lower-case word English does not use, alone after its preposition: a name written without
    capitals ("in stoneybatter"; not "in together", "to brunch", nor a person's: "in tunde's room")."""
    after = x.doc[x.i + 1] if x.i + 1 < len(x.doc) else None
    return x.is_alpha and x.is_lower and len(x.text) > 3 and not x.is_stop and x.i not in taken \
        and x.ent_type_ not in ("PERSON", "DATE", "TIME") and not is_common_word(x.text) \
        and (after is None or not after.is_alpha or after.is_stop) \
        and not (after is not None and after.tag_ == "POS")  # "in tunde's living room": someone's


_HOMES = frozenset("flat house apartment cottage bungalow houseshare studio".split())
_HOME_DETERMINERS = frozenset("the this that my our his her their".split())


def home_names(sent: Any, taken: set[int]) -> list[Span]:
    """A word English does not have, between a determiner and a dwelling noun: where the home is,
    whatever its case ("first night in the leith flat", "our Pontcanna house"); never a person's.

    >>> from tkg.nlp import parse
    >>> [s.text for s in home_names(parse("first night in the leith flat, boxes everywhere")[:], set())]
    ['leith']
    >>> home_names(parse("the new flat and my mum's house")[:], set())
    []
    """
    out = []
    for t in sent:
        name = unknown_word_before(t, taken) if t.lemma_.lower() in _HOMES else None
        # (with its determiner: not "go dey studio flat")
        if name is None or name.dep_ not in ("compound", "amod", "nmod") or name.ent_type_ == "ORG" \
                or not (name.i > sent.start and t.doc[name.i - 1].lower_ in _HOME_DETERMINERS):
            continue
        out.append(Span(name.text, "place", 0.6, name.i, name.i + 1, cued=True))  # the home's own name
    return out


def given_names(sent: Any, taken: set[int]) -> list[Span]:
    """The word after "called", "named" or "name is" when it is no common word ("someone called rafi",
    "a guy named Tobiah", "my boss is woman, name is Agata"): a name, whatever its case."""
    out = []
    for t in sent:
        at = t.i + 1
        if t.lower_ == "name" and at + 1 < sent.end and says_is(sent.doc[at]) \
                and not any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in t.children):
            at += 1  # "(his) name is Agata", said of someone: not the speaker's own name
        elif t.lower_ not in _NAMING or at >= sent.end:
            continue
        name = sent.doc[at]
        # "her name is joss": after "name is", a word English has only as a noun is a name too
        common = is_common_word(name.text) and not (t.lower_ == "name" and only_a_noun(name.text))
        if name.is_alpha and name.i not in taken and len(name.text) > 1 and not common and not name.is_stop:
            out.append(Span(name.text, "person", 0.75, name.i, name.i + 1))
    return out + _introduced(sent)


# who a sentence brings in without a name, for the next sentence to name ("I'm seeing someone. Ravi.")
_SOMEONE = frozenset("someone somebody guy girl bloke lad woman man date".split())


def _introduced(sent: Any) -> list[Span]:
    """A name alone in its sentence, right after one that brings someone in unnamed: "I'm seeing
    someone. Ravi.", "seeing someone. ines. she's a nurse": a name, whatever its case; the sentence
    before holds its cue words."""
    words = [t for t in sent if not t.is_punct and not t.is_space]
    if len(words) != 1 or sent.start == 0:
        return []
    name = words[0]
    before = sent.doc[sent.start - 1].sent
    if not any(t.lower_ in _SOMEONE for t in before) or not name.is_alpha or len(name.text) < 3 \
            or name.is_stop or is_common_word(name.text) or chat_words([name]):
        return []
    return [Span(name.text, "person", 0.75, name.i, name.i + 1)]


def apposed_people(sent: Any, found: list[Span], head: str) -> list[Span]:
    """A name in apposition to the asked noun ("the surgeon, Dr Bevan"; for a child also a person
    noun: "a girl, Iris", "a boy, Fionn" even when the tagger calls it a place) is named as that
    one: cued, so it needs no cue word nearer. "their son Philip" names no doctor."""
    nouns = {head} | (PEOPLE | _CHILDREN if head in _CHILDREN else set())  # a baby is named as "a girl"

    def person_noun(t: Any) -> bool:
        return t.pos_ == "NOUN" and (t.lemma_.lower() in nouns or t.lower_ in nouns)

    def apposed_to(t: Any) -> Any:  # "the surgeon who did her hip, Dr Bevan": past the relative clause
        x = t.head
        for _ in range(3):
            if x.dep_ == "relcl":
                return x.head
            x = x.head
        return t.head

    def tied(t: Any) -> bool:
        return t.dep_ == "appos" and (person_noun(t.head) or person_noun(apposed_to(t))) or any(
            c.dep_ == "appos" and person_noun(c) for c in t.children)

    out = [Span(sp.text, sp.kind, sp.sure, sp.start, sp.end, True) if tied(sent.doc[sp.end - 1]) else sp
           for sp in found]
    taken = {i for sp in found for i in range(sp.start, sp.end)}
    out += [Span(t.text, "person", 0.7, t.i, t.i + 1, True) for t in sent
            if t.pos_ == "PROPN" and t.i not in taken and t.dep_ == "appos" and tied(t)]
    return out


# a title quoted beside a band or a team is its song or its chant, never its name
_QUOTES = frozenset("'\"‘’“”")


def named_in_context(sent: Any, head: str, kind: str) -> list[Span]:
    """Capitalised names in a sentence that says, or sits beside one that says, what is done with a
    thing of the head's category (`NAMED_CONTEXT`): "so my life is The Marigold Engine on repeat",
    "Also Atleti won", "My new obsession is Paper Lanterns. Listened to them all week". Cued by
    those words, less sure from the sentence beside; never a known place or a quoted song.

    >>> from tkg.nlp import parse
    >>> doc = parse("Cannot stop playing Velvet Harbour. Their new album is unreal.")
    >>> [(s.text, s.sure) for s in named_in_context(list(doc.sents)[0], "band", "thing")]
    [('Velvet Harbour', 0.45)]
    """
    context = NAMED_CONTEXT.get(head)
    if not context:
        return []
    sents = list(sent.doc.sents)
    at = next((k for k, x in enumerate(sents) if x.start == sent.start), 0)

    def says(t: Any) -> bool:
        return t.lower_ in context or t.lemma_.lower() in context

    # a word of the category's doings that is a noun ("a match", "on repeat") cues the sentence and the
    # ones beside it; a verb ("won", "lost") only the name it is said of ("Atleti won", not "got lost")
    here = any(says(t) and t.pos_ != "VERB" for t in sent)
    beside = any(says(t) and t.pos_ != "VERB" for x in sents[max(at - 1, 0) : at + 2] for t in x)
    doc = sent.doc
    out = []
    for r in proper_runs(sent):
        done = _done_with(doc[r.end - 1], says)
        sure = 0.6 if here or done else 0.45 if beside else 0.0
        if sure and plausible(r) and not is_place_name(r.text) and not is_common_word(r.text) \
                and (done or not after_locative(sent, r.start)) \
                and not _apposed_other(doc[r.start : r.end], head) \
                and not (r.start > 0 and doc[r.start - 1].text in _QUOTES):
            out.append(Span(r.text, kind, sure, r.start, r.end, cued=True, by_context=True))
    taken = {i for x in out for i in range(x.start, x.end)}
    for a, b in _liked(sent):  # texters write names small: "obsessed with chai & circuits now"
        words = doc[a:b]
        sure = 0.6 if here else 0.45 if beside else 0.0
        if sure and not taken & set(range(a, b)) and not any(says(t) or t.pos_ == "PRON" for t in words) \
                and not is_place_name(words.text) and not is_common_word(words.text) \
                and not any(t.text in _QUOTES for t in doc[max(a - 1, 0) : b]):  # a quoted title is a song
            out.append(Span(words.text, kind, sure * 0.9, a, b, cued=True, by_context=True))
    return out


def _done_with(last: Any, says: Any) -> bool:
    """The name ending at ``last`` is what a verb of the category's doings is said of: its subject or
    object ("Atleti won", "playing Velvet Harbour"), or through a preposition ("listening to Marigold
    Static", "lost to Rovers"), past a word the tagger hung the name on ("to Marigold Static nonstop")."""
    t = last
    for _ in range(4):
        if t.dep_ not in ("nsubj", "dobj", "pobj", "prep", "compound") or t.head.i == t.i:
            return False
        if t.dep_ in ("nsubj", "dobj", "prep") and says(t.head) and t.head.pos_ == "VERB":
            return True
        t = t.head
    return False


# "obsessed with X", "hooked on X", "addicted to X": what the speaker likes, however it is written
_LIKED = {"obsess": "with", "obsessed": "with", "hook": "on", "hooked": "on", "addict": "to",
          "addicted": "to"}


def _liked(sent: Any) -> list[tuple[int, int]]:
    """Where a phrase says what is liked: the object of "obsessed with", "hooked on", "addicted to",
    or what is had or played "on repeat" ("u have monsoon static on repeat"), as (start, end).

    >>> from tkg.nlp import parse
    >>> doc = parse("moved on tho, obsessed with chai & circuits now")
    >>> [doc[a:b].text for a, b in _liked(doc[:])]
    ['chai & circuits']
    """
    objects = []
    for t in sent:
        prep = _LIKED.get(t.lemma_.lower()) or _LIKED.get(t.lower_)
        if prep:
            objects += [o for p in t.children if p.dep_ == "prep" and p.lower_ == prep
                        for o in p.children if o.dep_ == "pobj"]
        if t.lower_ == "repeat" and t.dep_ == "pobj" and t.head.lower_ == "on":
            held = t.head.head  # "monsoon static on repeat", "playing lantern drift on repeat"
            objects += [held] if held.pos_ in ("NOUN", "PROPN") else [
                c for c in held.children if c.dep_ == "dobj"]
    out = []
    for o in objects:
        left = [c for c in o.lefts if c.dep_ in ("compound", "amod") and c.i >= o.i - 3
                and c.i > sent.start]  # not "Played" opening the sentence
        start = min([o.i] + [c.i for c in left])
        end = o.i + 1
        joined = [c for c in o.children if c.dep_ == "conj" and any(
            x.dep_ == "cc" and x.text == "&" for x in o.children)]  # "chai & circuits": one name
        if joined:
            end = joined[0].i + 1
        out.append((start, end))
    return out


def _apposed_other(tokens: Any, head: str) -> bool:
    """The name is given a category other than the head's in apposition: "Libreria Dora, the tiny
    bookshop" is no band."""
    return any(c.dep_ == "appos" and c.pos_ == "NOUN" and c.lemma_.lower() != head
               for t in tokens for c in t.children)


# "i have a date sat. her name is joss", "my engagement is fixed. His name is Dev"
def unknown_town(span: Span, t: Any) -> bool:
    """A one-word name the tagger took for a town no gazetteer knows ("Thanks to Tomasz"): a person may
    be meant, but not by a maker's name ("a Tunnock's teacake")."""
    return span.end - span.start == 1 and t.ent_type_ == "GPE" and t.dep_ != "poss" \
        and not is_place_name(t.text)


def joined_names(sent: Any, names: list[Span], head: str) -> list[Span]:
    """Two names joined by "and" right after their category noun, said of one, are one ("the module
    *Language and Migration*"), as a title is; "my dogs Rex and Bella" are two.

    >>> from tkg.nlp import parse
    >>> doc = parse("I convene the module Language and Migration now.")
    >>> names = [Span(w, "name", 0.7, i, i + 1) for w, i in (("Language", 4), ("Migration", 6))]
    >>> [s.text for s in joined_names(doc[:], names, "module")]
    ['Language and Migration']
    """
    doc, out = sent.doc, list(names)
    for a, b in zip(names, names[1:], strict=False):
        if a.start > sent.start and doc[a.start - 1].lower_ == head and b.start == a.end + 1 \
                and doc[a.end].lower_ in ("and", "&") and a in out and b in out:
            out[out.index(a)] = replace(a, text=doc[a.start : b.end].text, end=b.end)
            out.remove(b)
    return out


def articled(t: Any) -> bool:
    """A small-letter word with an article, or naming the noun it modifies ("the odeon", "the wonka
    film"): a place or a thing, as English gives a person's name neither ("the theo" is no one).

    >>> from tkg.nlp import parse
    >>> doc = parse("no im on at the odeon xmas eve morning, everyone's seeing the wonka film")
    >>> [t.text for t in doc if t.text in ("odeon", "wonka") and articled(t)]
    ['odeon', 'wonka']
    """
    return _with_article(t) or t.dep_ == "compound" and t.head.i > t.i and t.head.is_lower \
        and is_common_word(t.head.text) and _with_article(t.head)


def _with_article(t: Any) -> bool:
    return any(c.dep_ == "det" and c.lower_ in ("the", "a", "an") for c in t.children)


HEADLINE_WORDS = 5  # the most words a headline sentence has ("LAKESHORE DONE.")
# a quotation: an opening mark after a space or the start, words, the closing mark before a pause or the end
_QUOTED = re.compile(r"(?:^|(?<=[\s(]))['\"\u2018\u201c][^'\"\u2018\u2019\u201c\u201d]+"
                     r"['\"\u2019\u201d](?=\W|$)")


def tag_after(rest: list[Any]) -> str:
    """Whose the next sentence says someone is: a tag ("my baby bro!!", "our Nan x"), or the last one
    named's, by "he"/"she" ("Thanks to Tomasz. He is my boyfriend now"); "" if neither."""
    words = [t for t in rest[0] if not t.is_punct] if rest else []
    if 0 < len(words) <= 4 and words[0].lower_ in ("my", "our"):
        return "" if any(t.pos_ in ("VERB", "AUX") for t in words) else "tag"
    pronoun = len(words) >= 4 and words[0].lower_ in ("he", "she") and words[1].lemma_ == "be"
    return "pronoun" if pronoun and words[2].lower_ in ("my", "our") else ""


_SPEAKING = frozenset("say tell ask text message reply reckon".split())


def one_who_speaks(tokens: Any) -> bool:
    """A one-word name that is the subject of a verb of saying ("Tobias said he was tired"): someone,
    whatever label the tagger gave it.

    >>> from tkg.nlp import parse
    >>> doc = parse("On the terrace Tobias said he was done.")
    >>> one_who_speaks(doc[3:4]), one_who_speaks(doc[2:3])
    (True, False)
    """
    toks = list(tokens)
    return len(toks) == 1 and toks[0].dep_ == "nsubj" and toks[0].head.lemma_.lower() in _SPEAKING


def pronoun_after_next(rest: list[Any]) -> str:
    """The tag "pronoun" when the sentence after next says whose the last one named is by "he"/"she" and
    the one between names no one ("Tobias said he was tired of being the quiz man. So I shall stop calling
    him that. He is my boyfriend."); "" otherwise.

    >>> from tkg.nlp import parse
    >>> sents = list(parse("Tobias walked me home. So I stop calling him that. He's my boyfriend.").sents)
    >>> pronoun_after_next(sents[1:]), pronoun_after_next(sents[2:])
    ('pronoun', '')
    """
    if len(rest) < 2 or any(t.ent_type_ == "PERSON" or t.pos_ == "PROPN" for t in rest[0]):
        return ""
    return "pronoun" if tag_after(rest[1:]) == "pronoun" else ""


def headline(sent: Any, races: set[str]) -> bool:
    """The sentence before is a headline naming the race (a few words, no figure of its own), so the
    result told next is that race's: "LAKESHORE DONE. Sunday, 4:21:37." (not "Did the Lakeshore in
    4:30. Today 7k in 44 min", nor "Signed up for the Castle Hill Half in November. Did 14k in 78 min")."""
    words = [t for t in sent if not t.is_punct]
    return len(words) <= HEADLINE_WORDS and bool(races & content_terms(sent.text)) \
        and not any(c.isdigit() for c in sent.text)


def quoted(sent: Any, start: int, end: int) -> bool:
    """Tokens ``start``–``end`` of the doc lie inside quotation marks in ``sent``: words someone else
    used or a name given in jest ("the children call me 'the story lady'"), not a plain statement.

    >>> from tkg.nlp import parse
    >>> doc = parse("Jo calls me 'chief biscuit officer' at work. I'm a nurse.")
    >>> [quoted(s, a, b) for s, a, b in ((list(doc.sents)[0], 4, 7), (list(doc.sents)[1], 14, 15))]
    [True, False]
    """
    doc = sent.doc
    first, last = doc[start].idx - sent.start_char, doc[end - 1].idx + len(doc[end - 1]) - sent.start_char
    return any(m.start() < first and last <= m.end() for m in _QUOTED.finditer(sent.text))
