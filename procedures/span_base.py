"""What every span of the reader is: its text, kind, how sure its typing is and where it stands,
and the two ways `procedures.spans` makes one (a cleaned phrase; a named entity of a label); the
token shapes that are no span (chat words, pronouns, a clause, no noun).
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import spacy
from spacy.lang.en.stop_words import STOP_WORDS as _ENGLISH_STOP

from tkg.words import is_common_word, is_place_name

from .span_words import CALENDAR, CHAT_WORDS, DET, LOCATIVE, STREET_WORDS, TITLES


@dataclass(frozen=True)
class Span:
    text: str
    kind: str
    sure: float  # how sure the typing is, 0–1
    start: int  # token offsets in the doc
    end: int
    cued: bool = False  # its own words say the asked relation ("turned 40", "nine years old")
    by_context: bool = False  # named beside what is done with its category ("Atleti won": spans.py)


_COPULA_ADVERBS = frozenset("now still also actually officially basically".split())


def says_is(t: Any) -> bool:
    """``t`` says "is": the verb, or the "'s" a tagger reads as a possessive ("his name's toast").

    >>> from tkg.nlp import parse
    >>> [says_is(parse(text)[2]) for text in ("his name's toast", "his name is toast", "his name was")]
    [True, True, True]
    """
    return t.lemma_ == "be" or t.lower_ in ("'s", "\u2019s")


def copular_s(noun: Any) -> tuple[Any, int] | None:
    """Who a noun is said of, and where its phrase starts, when a tagger read "'s" as a possessive
    though it is "is": "Tomasz's an electrician", "my sister's a midwife", "Wren's now a postwoman"
    (a name or a noun, "'s", then an article) say the noun of the one before "'s"; None otherwise.

    >>> from tkg.nlp import parse
    >>> doc = parse("Tomasz's an electrician")
    >>> said = copular_s(doc[3])
    >>> said[0].text, said[1], copular_s(parse("Tomasz's electrician")[2])
    ('Tomasz', 3, None)
    """
    doc = noun.doc
    for c in noun.lefts:
        at = c.i + 1
        if c.dep_ != "poss" or at >= noun.i or doc[at].lower_ not in ("'s", "\u2019s"):
            continue
        at += 1
        while at < noun.i and doc[at].lower_ in _COPULA_ADVERBS:
            at += 1
        if at < noun.i and doc[at].lower_ in ("a", "an", "the"):
            return c, at + 1
    return None


def modified(token: Any, *also: str) -> Any:
    """The word a modifier (adjective, compound, number, and the ``also`` relations) is part of:
    "bass" in "bass guitar", "secondhand" in "a secondhand Leaf"."""
    head = token
    while (head.dep_ in ("amod", "compound", "nummod") or head.dep_ in also) and head.head.i != head.i:
        head = head.head
    return head


def _wordlike(tok: Any) -> bool:
    """A word, a number, or letters with digits in a name ("Jet2", "B52s"); not punctuation or emoji."""
    return bool(tok.is_alpha or tok.like_num or tok.text.isalnum() and any(c.isalpha() for c in tok.text))


def clean(tokens: Any) -> tuple[str, int, int] | None:
    """A phrase without leading determiners, stop words, possessives, punctuation and emoji, as
    the sentence writes it ("sixty-seven", not "sixty - seven")."""
    toks = list(tokens)
    while toks and (toks[0].lower_ in DET or toks[0].tag_ in ("PRP$", "POS", "DT") or not _wordlike(toks[0])
                    or (toks[0].is_stop and len(toks) > 1)):
        toks = toks[1:]
    while toks and (toks[-1].is_punct or toks[-1].tag_ == "POS" or not _wordlike(toks[-1])):
        toks = toks[:-1]
    if not toks:
        return None
    doc = toks[0].doc
    return doc.text[toks[0].idx : toks[-1].idx + len(toks[-1].text)], toks[0].i, toks[-1].i + 1


def entity_spans(sent: Any, labels: tuple[str, ...], kind: str, sure: float) -> list[Span]:
    """The named entities of the sentence with one of ``labels``, cleaned, as spans of ``kind``."""
    out = []
    for ent in sent.ents:
        if ent.label_ in labels:
            cleaned = clean(ent)
            if cleaned:
                out.append(Span(cleaned[0], kind, sure, cleaned[1], cleaned[2]))
    return out


_DRAWN_OUT = re.compile(r"([a-z])\1\1")  # "noooo", "yesss", "ughhh"


def says(tokens: Any, words: frozenset[str] | set[str]) -> bool:
    """Some token says one of the lower-case ``words``, by its lower case or its lemma ("dogs")."""
    return any(t.lower_ in words or t.lemma_.lower() in words for t in tokens)


_LANGUAGE_LEVEL = re.compile(r"[ABC][12]")  # the Common European Framework's levels


def plausible(span: Span) -> bool:
    """Not a calendar word ("January", "Fridays") or a day's name, and not a shouted word ("INGRID!!!", "RIP")
    standing for a name; short acronyms of organisations ("MBA") stay."""
    words = span.text.split()
    if all(w.lower() in CALENDAR for w in words):
        return False
    if len(words) > 1 and words[-1] in ("Day", "Eve") and span.kind != "person":
        return False  # "Boxing Day", "New Year's Eve": a day's name
    if _LANGUAGE_LEVEL.fullmatch(span.text) and span.kind != "thing":
        return False  # "my German is still A2", "now I started C1": a language level, no one's name
    if len(span.text.strip(" .")) < 2 and span.kind in ("person", "pet_name", "organisation", "place"):
        return False  # "K": an initial, no name
    shouted = len(words) == 1 and span.text.isupper() and len(span.text) > 2
    return not (shouted and (span.kind != "organisation" or len(span.text) > 4))


def chat_words(tokens: Any) -> bool:
    """Tokens that are all chat words, never a name however they are tagged: interjections and
    greetings ("lol", "congrats", "omg"), pronouns shouted ("HE."), words drawn out ("noooo"),
    texting short forms ("wknd", "thurs") and "-in" for "-ing" ("lookin")."""
    return all(t.tag_ == "UH" or t.pos_ in ("INTJ", "PRON", "PUNCT") or t.lower_ in CHAT_WORDS
               or _DRAWN_OUT.search(t.lower_) or _dropped_g(t.text) for t in tokens)


_SWITCHED_INTO = ("tl", "id", "es", "pt", "it", "fr", "de", "nl")
_SPACY_LANG = Path(spacy.__file__).parent / "lang"


@lru_cache(maxsize=1)
def _stop_words_abroad() -> frozenset[str]:
    """Function words of languages English chats switch into (spaCy's stop lists: Tagalog, Indonesian,
    Spanish, Portuguese, Italian, French, German, Dutch) that are not English ones. Each list is read
    from its own file: importing ``spacy.lang.fr`` would load its tokenizer exceptions too, some
    seconds of a cold `tkg ask`."""
    words: set[str] = set()
    for lang in _SWITCHED_INTO:
        path = _SPACY_LANG / lang / "stop_words.py"
        spec = importlib.util.spec_from_file_location(f"tkg_stop_words_{lang}", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"spaCy ships no stop words at {path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        words |= module.STOP_WORDS
    return frozenset(w for w in words if w.isalpha() and len(w) > 1 and w not in _ENGLISH_STOP)


@lru_cache(maxsize=1)
def _foreign_function_words() -> frozenset[str]:
    """The function words abroad that English does not use as words: one of them marks a phrase."""
    return frozenset(w for w in _stop_words_abroad() if not is_common_word(w))


@lru_cache(maxsize=1)
def any_words_abroad() -> frozenset[str]:
    """The function words abroad, short ones too: in a sentence abroad any of them marks a phrase."""
    return _foreign_function_words() | _short_words_abroad()


@lru_cache(maxsize=1)
def _short_words_abroad() -> frozenset[str]:
    """The short function words abroad that WordNet lists as English only by a sense no chat uses
    ("na", "sa", "ng", "ang": sodium, nanogram), or uses itself ("son", "car"): alone they mark
    nothing, beside a function word English lacks they count (`foreign_sentence`)."""
    return frozenset(w for w in _stop_words_abroad() if len(w) <= 3 and w not in CHAT_WORDS)


def foreign_words(tokens: Any, *, abroad: bool = False) -> bool:
    """Lower-case tokens holding a function word of another language: a code-switched phrase ("ako
    dito", "ok lang ako", "nagluto siya"), never a name written without capitals. In a sentence
    ``abroad`` (`foreign_sentence`) a short one counts too: "el salón de la iglesia".

    >>> from tkg.nlp import parse
    >>> foreign_words(parse("ok lang ako")[:]), foreign_words(parse("stoneybatter")[:])
    (True, False)
    >>> foreign_words(parse("el salón")[:]), foreign_words(parse("el salón")[:], abroad=True)
    (False, True)
    """
    words = any_words_abroad() if abroad else _foreign_function_words()
    return all(t.is_lower or not t.is_alpha for t in tokens) and any(t.lower_ in words for t in tokens) \
        and not is_place_name(tokens.text, locative=True)  # "hong kong"


def foreign_sentence(sent: Any) -> bool:
    """A sentence in another language, or mostly (two of its words are that language's function words):
    the tagger, trained on English, calls its words places and people at random ("no está mi 'amá aquí").

    >>> from tkg.nlp import parse
    >>> foreign_sentence(parse("Ya no voy a Zumba, no está mi amá aquí")[:])
    True
    >>> foreign_sentence(parse("I moved to Leeds in May, gracias")[:])
    False
    """
    key = ("tkg.foreign", sent.start, sent.end)  # asked for each span of each kind: read once a sentence
    kept = sent.doc.user_data.get(key)
    if kept is None:
        kept = sent.doc.user_data[key] = _abroad(sent)
    return bool(kept)


def _marks(tokens: Any) -> tuple[int, int]:
    """The tokens' function words abroad (not "met" or "ya": English, inflected or chatted), and those
    with the short ones."""
    strict, short = _foreign_function_words(), _short_words_abroad()
    own = sum(t.lower_ in strict and t.lower_ not in CHAT_WORDS and not is_common_word(t.lemma_.lower())
              for t in tokens)
    return own, own + sum(t.is_lower and t.lower_ in short for t in tokens)


def _abroad(sent: Any) -> bool:
    own, every = _marks(sent)
    if own >= 2 or own and every >= 3:
        return True
    in_turn = sent.doc.user_data.get("tkg.foreign_words")  # counted once a turn, for each of its sentences
    if in_turn is None:
        in_turn = sent.doc.user_data["tkg.foreign_words"] = _marks(sent.doc)
    # a sentence of a turn in it: "Como 12 docenas."
    return bool(in_turn[0] >= 4 or in_turn[0] >= 2 and in_turn[1] >= 6)


def unknown_word_before(noun: Any, taken: set[int]) -> Any | None:
    """The token right before ``noun`` in its sentence when it is a word English does not have (nor a
    person's name, a date or a time), not yet ``taken``: a name written as a word of its own, whatever
    its case ("odeon" in "odeon staff", "leith" in "the leith flat"). Its relation to the noun is the
    caller's to check.

    >>> from tkg.nlp import parse
    >>> doc = parse("i'm odeon staff now, my night shift")
    >>> unknown_word_before(doc[3], set()).text, unknown_word_before(doc[8], set())
    ('odeon', None)
    """
    if noun.i == noun.sent.start:
        return None
    name = noun.doc[noun.i - 1]
    if name.i in taken or not name.is_alpha or len(name.text) < 3 or name.is_stop \
            or is_common_word(name.text) or name.ent_type_ in ("PERSON", "DATE", "TIME"):
        return None
    return name


def _dropped_g(word: str) -> bool:
    """A verb's "-ing" typed without its "g" ("lookin", "gettin", "nothin'"), never a name."""
    low = word.rstrip("'’")
    return low.islower() and low.endswith("in") and len(low) > 4 and is_common_word(low + "g")


def pronominal(tokens: Any) -> bool:
    """Tokens that are all pronouns, determiners or question words ("it", "me", "which one")."""
    return all(t.pos_ in ("PRON", "DET") or t.tag_ in ("WP", "WDT", "WRB", "WP$") for t in tokens)


def clausal(tokens: Any) -> bool:
    """A finite verb among the tokens ("fri works better", tagged as one organisation): a clause
    the tagger ran a name over, not the name of a place, a person or an organisation."""
    return any(t.tag_ in ("VBZ", "VBD", "VBP", "MD") and t.pos_ in ("VERB", "AUX") for t in tokens)


def nameless(tokens: Any) -> bool:
    """No noun, name or number among the tokens ("sure", "so excited"): not a thing's name."""
    return not any(t.pos_ in ("NOUN", "PROPN", "NUM") for t in tokens)


def street_name(tokens: Any) -> bool:
    """The words end in a street word after a name ("Mill Lane", "Hope Road"): a street's name, which
    the tagger may call a person; where it counts as a place depends on the word before it."""
    toks = list(tokens)
    return len(toks) > 1 and toks[-1].lower_ in STREET_WORDS


def _wordish(text: str) -> bool:
    """A word, or a brand's name with a number after its letters ("Jet2", "O2"), not a model ("A54").

    >>> [_wordish(w) for w in ("Leeds", "Jet2", "A54", "4x4")]
    [True, True, False, False]
    """
    if text.isalpha():
        return True
    if not text.isalnum() or len(text) < 2:
        return False
    # letters, then digits: two letters at least ("Jet2"), or one and one digit ("O2")
    return text[:2].isalpha() or len(text) == 2 and text[0].isalpha() and text[1].isdigit()


def proper_runs(sent: Any) -> list[Span]:
    """Runs of capitalised words that are not sentence-initial function words (names of things)."""
    out, run = [], []
    for t in list(sent) + [None]:
        shouting = t is not None and t.is_upper and len(t.text) > 1 and not t.ent_type_
        initial = t is not None and t.i == sent.start and (  # ("Je commence lundi": French, no name)
            t.is_stop or is_common_word(t.text) or t.lower_ in _foreign_function_words())
        if t is not None and t.text[:1].isupper() and _wordish(t.text) and not initial and not shouting \
                and t.lower_ not in ("i", "im", "i'm") and t.pos_ in ("PROPN", "NOUN", "ADJ"):
            run.append(t)
            continue
        if run:
            cleaned = clean(run)
            if cleaned:
                out.append(Span(cleaned[0], "proper", 0.5, cleaned[1], cleaned[2]))
            run = []
    return out


def after_locative(sent: Any, start: int) -> bool:
    """A name right after "in"/"to"/"from"… ("moved to farah") reads as a place even when the
    tagger calls it a person; "my sister farah moved" keeps its person."""
    return start > sent.start and sent.doc[start - 1].lower_ in LOCATIVE


def titled(sent: Any, t: Any) -> Span:
    """A small-letter word as a person's name: surely one after a title ("w mrs okafor next door")."""
    if t.i > sent.start and sent.doc[t.i - 1].lower_.rstrip(".") in TITLES:
        return Span(sent.doc[t.i - 1 : t.i + 1].text, "person", 0.8, t.i - 1, t.i + 1)
    return Span(t.text, "person", 0.45, t.i, t.i + 1)


# a letter's salutation: the turn opens on a name (after "Dear", "Hi" at most) alone on its line ("Ben,\n");
# a name said to someone in a chat ("thanks Joanna! I'd love to come") may still answer who did something
_GREETING = r"(?:dear|hi+|hey+|hello|hiya)"
_SALUTED = re.compile(rf"^\s*(?:{_GREETING}\s+)?$", re.I)
_GREETS = re.compile(rf"{_GREETING}\b", re.I)
_SALUTED_AFTER = re.compile(r"[ \t]*[,!.]?[ \t]*(?:\n|$)")


def addressed(text: str, start: int, end: int) -> bool:
    r"""The name at ``text[start:end]`` greets the turn's reader on a line of its own, as a letter
    opens ("Ben,", "Dear Ben,"): said to them, not about them.

    >>> addressed("Ben,\nHappy new year!", 0, 3), addressed("Ben, happy new year!", 0, 3)
    (True, False)
    >>> addressed("Dear Ben,\nThanks.", 5, 8), addressed("I met Ben,\nfinally.", 6, 9)
    (True, False)
    >>> addressed("Dear Ben,\nThanks.", 0, 8)  # "Dear Ben" read as one name: the greeting still
    True
    """
    return bool(_SALUTED.match(text[:start]) and _SALUTED_AFTER.match(text[end:]))


def greets(text: str) -> bool:
    """The text opens with a greeting word ("Dear Doug", "hiya Sam"), as a letter's first line does.

    >>> greets("Dear Doug"), greets("Deardon Road")
    (True, False)
    """
    return _GREETS.match(text) is not None


_DEMONYM = re.compile(r"^[A-Z][a-z]+(?:sh|ch|ese|an|ic|i|ek|ss)$")  # Welsh, Dutch, Thai, Greek, Swiss


def describing_word(span: Span, doc: Any) -> bool:
    """A one-word span said of a small-letter noun after it, which a tagger may call an
    organisation: a nationality ("Welsh cakes", "Italian deli") or an ordinary word in small letters
    ("the navy tunic"): an adjective, not a name.

    >>> from tkg.nlp import parse
    >>> doc = parse("I'll take my winnings in Welsh cakes.")
    >>> describing_word(Span("Welsh", "organisation", 0.9, 6, 7), doc)
    True
    >>> describing_word(Span("navy", "organisation", 0.9, 3, 4), parse("I got the navy tunic on Friday"))
    True
    >>> describing_word(Span("maxwell", "organisation", 0.9, 2, 3), parse("start at maxwell freight monday"))
    False
    """
    t = doc[span.start]
    if span.end - span.start != 1 or not is_common_word(t.text) or t.dep_ not in ("compound", "amod") \
            or t.head.i <= t.i or not t.head.text.islower():
        return False
    # small letters tell only in a text written with capitals ("I", a sentence's first word): texted
    # all small, "start at maxwell freight" is a name however English also uses the word (the whole
    # text is looked at only for a small-letter word, after the cheaper tests)
    return bool(_DEMONYM.match(t.text)) or small_word(t)


def small_word(t: Any) -> bool:
    """An English word in small letters in a text written with capitals ("a kitten, grey, very small"):
    a word, not a name (texted all small, "maxwell" may be one).

    >>> from tkg.nlp import parse
    >>> small_word(parse("I got a kitten, grey, very small")[5]), small_word(parse("got a kitten, grey")[4])
    (True, False)
    """
    return t.is_lower and is_common_word(t.text) and any(
        x.text == "I" or x.is_sent_start and x.text[:1].isupper() for x in t.doc)


def opening_name(sent: Any) -> list[Span]:
    """The capitalised name a sentence opens with ("Madeira.", "Lisbon, for a week"), which `proper_runs`
    leaves out: any opening word is capitalised."""
    run = []
    for t in sent:
        if t.pos_ != "PROPN" or not t.text[:1].isupper():
            break
        run.append(t)
    return [Span(" ".join(t.text for t in run), "place", 0.7, run[0].i, run[-1].i + 1)] if run else []
