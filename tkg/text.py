"""Sentence splitting, name normalisation and tokenising for chat text.

Everything here is regex-only and allocation-light because it runs on every
turn at ingest time (the budget is ~100 turns/s for the whole pipeline).
Sentence boundaries matter because facts, chunks and time expressions are all
sentence-scoped; names are normalised so that "St. Anne's" and "St Anne's"
ground to the same entity.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

# Words that end with "." without ending the sentence ("Dr. Lee", "St. Anne's").
ABBREVIATIONS = frozenset(
    """
    dr mr mrs ms mx prof st sr jr mt ft vs etc approx dept est inc ltd co corp ave rd blvd
    no nos vol fig jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu
    thur thurs fri sat sun e.g i.e a.m p.m u.s u.k u.s.a ph.d b.a m.a b.sc m.sc
    """.split()
)

STOPWORDS = frozenset(
    """
    a an the and or but if of at by for with about against between into through during before
    after above below to from up down in out on off over under again further then once here
    there when where why how all any both each few more most other some such no nor not only
    own same so than too very s t can will just don should now i me my myself we our ours you
    your yours he him his she her hers it its they them their what which who whom this that
    these those am is are was were be been being have has had having do does did doing would
    could ought i'm you're he's she's it's we're they're i've you've we've they've i'd you'd
    i'll you'll isn't aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't
    """.split()
)

# A run of sentence-final punctuation, optional closing quotes/brackets.
_EMOJI = "\U0001F000-\U0001FAFF\u2600-\u27BF\u2B50\u2B06\u2934\u2935\u3030\u303D"
_BOUNDARY = re.compile(
    r"(?:[.!?\u2026]+|\n+)[\"'\u201d\u2019)\]]*"
    # an emoji run followed by a capitalised word also ends a sentence: "Moved to Cardiff 🎉 The flat is tiny"
    r"|[" + _EMOJI + r"][" + _EMOJI + r"\ufe0f\u200d\s]*(?=\s+[A-Z])"
)
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_DECIMAL_AFTER = re.compile(r"\d")
_SPACE = re.compile(r"\s+")
_POSSESSIVE = re.compile(r"['\u2019]s\b")
_NON_WORD = re.compile(r"[^\w\s]+")
_LEADING_ARTICLE = re.compile(r"^(?:the|a|an)\s+")


def _is_symbol(ch: str) -> bool:
    """Emoji and other pictographs (plus their joiners) that trail a sentence."""
    if ch in "\u200d\ufe0f\ufe0e":
        return True
    cat = unicodedata.category(ch)
    return cat in ("So", "Sk", "Cs") or (cat == "Mn" and ord(ch) > 0x2000)


_LONG_WORD = re.compile(r"\S{64,}")


def without_long_words(text: str) -> str:
    """Runs of 64+ non-space characters (links, hashes, keyboard mashing) blanked, for the
    extraction rules: no name or fact is that long, and some rules cost the square of a word's length.

    >>> without_long_words("see " + "x" * 70 + " now")
    'see   now'
    """
    return _LONG_WORD.sub(" ", text) if len(text) >= 64 else text


def split_sentences(text: str) -> list[str]:
    """Split chat text into sentences; never returns empty items.

    Keeps abbreviations ("Dr.", "St."), initials ("J. K.") and decimals ("3.5")
    inside their sentence, and glues trailing emoji to the sentence before them. The same turns are
    split again and again (ingest's chunks and extraction, then question after question): the split
    is kept per text (a new list each call, so a caller may change its own).

    >>> split_sentences("I met Dr. Lee at St. Anne's. It went well! 😊 See you.")
    ["I met Dr. Lee at St. Anne's.", 'It went well! 😊', 'See you.']
    """
    if not text or not text.strip():
        return []
    return list(_sentences(text))


@lru_cache(maxsize=20_000)
def _sentences(text: str) -> tuple[str, ...]:
    out: list[str] = []
    start = 0
    n = len(text)
    for m in _BOUNDARY.finditer(text):
        end = m.end()
        punct = m.group(0).rstrip()
        end = m.start() + len(punct)
        if punct.startswith("."):
            if len(punct) == 1 or punct == ".'":
                # "Dr." / "J." / "3.5" are not boundaries.
                # only the last few characters: an abbreviation is short, and searching a very long
                # word from every position costs the square of its length
                word = _WORD_BEFORE.search(text, max(start, m.start() - 32), m.start())
                if word is not None:
                    w = word.group(1).lower()
                    if w in ABBREVIATIONS or (
                        len(w) == 1 and word.group(1) not in "IA" and word.group(1).isupper()
                    ):
                        continue
                if (
                    end < n
                    and _DECIMAL_AFTER.match(text, end)
                    and m.start() > 0
                    and text[m.start() - 1].isdigit()
                ):
                    continue
        if end < n and not text[end].isspace() and not _is_symbol(text[end]) and punct[0] != "\n":
            continue  # "e.g.x", "U.S.A" or a URL: not followed by a space
        # Absorb emoji/symbols (and spaces between them) that trail the punctuation.
        j = end
        k = end
        while k < n and (text[k] in " \t" or _is_symbol(text[k])):
            if _is_symbol(text[k]):
                j = k + 1
            k += 1
        end = j
        piece = text[start:end].strip()
        if piece and any(c.isalnum() for c in piece):
            out.append(piece)
        elif piece and out:
            out[-1] = f"{out[-1]} {piece}"
        start = end
    tail = text[start:].strip()
    if tail:
        if any(c.isalnum() for c in tail) or not out:
            out.append(tail)
        else:
            out[-1] = f"{out[-1]} {tail}"
    return tuple(out)


def strip_accents(text: str) -> str:
    """"Café" -> "Cafe"; only used for matching, never for display."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalize_name(name: str) -> str:
    """The key two surface names must share to be the same name.

    Casefolds, drops accents, possessive 's, punctuation and a leading article,
    and collapses spaces.

    >>> normalize_name("St. Anne's") == normalize_name("st anne’s") == "st anne"
    True
    """
    s = strip_accents(name).casefold()
    s = _POSSESSIVE.sub("", s)
    s = _NON_WORD.sub(" ", s.replace("_", " "))
    s = _SPACE.sub(" ", s).strip()
    return _LEADING_ARTICLE.sub("", s)


_CONTRACTION = re.compile(r"\b(who|what|where|when|how|that|which|it|he|she)'s\b", re.IGNORECASE)
_QUESTION_TOKEN = re.compile(r"@e\d+|[^\W_]+(?:[-'][^\W_]+)*|'s?")
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_WORD_POSSESSIVE = re.compile(r"['\u2019]s$")
_APOSTROPHE = re.compile(r"['\u2019]")
_SUFFIXES = ("ing", "ed", "es", "s", "ly", "d")
_TERM = re.compile(r"[a-z0-9]+")
_FRAME = frozenset(
    "what when where which who whom whose why how kind type sort many much ever did does do".split()
)


def tokenize(text: str) -> list[str]:
    """Lower-case tokens as the question parsers read them: contractions opened, possessives
    split off ("Priya's boss" → ["priya", "'s", "boss"]), hyphenated words kept whole.

    >>> tokenize("Where's Marcus' sister-in-law?")
    ['where', 'is', 'marcus', "'", 'sister-in-law']
    """
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = _CONTRACTION.sub(lambda m: f"{m.group(1)} is", text)
    text = re.sub(r"(\w)'s\b", r"\1 's", text)
    text = re.sub(r"(\w)s'(?=\s|$|[?.,!])", r"\1s '", text)
    return _QUESTION_TOKEN.findall(text.lower())


def words(text: str) -> list[str]:
    """Lower-case words of letters and digits only, possessive 's removed: what a full-text
    engine may see (no syntax survives) and what overlap counts compare.

    >>> words("Caroline's (new) *job*: AND/OR -- o'Brien")
    ['caroline', 'new', 'job', 'and', 'or', 'o', 'brien']
    """
    out: list[str] = []
    for token in _WORD.findall(text.casefold()):
        token = _WORD_POSSESSIVE.sub("", token)
        out.extend(p for p in _APOSTROPHE.split(token) if p)
    return out


@lru_cache(maxsize=100_000)
def stem(word: str) -> str:
    """A crude suffix stripper for overlap counting (the full-text engines stem on their own):
    "moved" and "move" meet, "races" and "race". Stems keep at least four letters, so a stem
    used as a prefix stays specific ("shoes" → "shoe"). Kept per word: the reader stems every
    token of every turn it reads, question after question.

    >>> [stem(w) for w in ("painted", "painting", "moved", "move", "shoes", "lives")]
    ['paint', 'paint', 'move', 'move', 'shoe', 'live']
    """
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def loose_stem(word: str) -> str:
    """A looser stem for picking a turn's answer sentence by the question's words (`procedures.lookup`):
    it strips at three letters and a final "e" too, so "move", "moved" and "moving" all meet.
    Not a prefix: "lives" and "live" give "liv". `stem` is the one for terms.

    >>> [loose_stem(w) for w in ("painted", "painting", "paints", "move", "moved", "lives")]
    ['paint', 'paint', 'paint', 'mov', 'mov', 'liv']
    """
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def loose_stems(tokens: Iterable[str]) -> set[str]:
    """The loose stems of ``tokens``."""
    return {loose_stem(t) for t in tokens}


def terms(text: str) -> list[str]:
    """The words terms are made of: runs of ASCII letters and digits of the lower-cased text, so a
    possessive "'s" counts as the word "s" and "café" as "caf". The rankers that count terms
    (`content_terms`, the backfill's BM25) were tuned on this split; `words` is what a
    full-text engine sees.

    >>> terms("Priya's café")
    ['priya', 's', 'caf']
    """
    return _TERM.findall(text.lower())


def stemmed_words(text: str) -> list[str]:
    """Every term of `text`, stemmed, in order (stop words kept)."""
    return [stem(w) for w in terms(text)]


def content_terms(text: str, *, drop: Iterable[str] = ()) -> set[str]:
    """Stemmed content terms of `text` (no stop words or question frame), minus `drop`.

    >>> sorted(content_terms("When did Priya move to the painting group?", drop=["Priya"]))
    ['group', 'move', 'paint']
    """
    found = _content_terms(text)
    return set(found - stems_of(drop)) if drop else set(found)


@lru_cache(maxsize=50_000)
def _content_terms(text: str) -> frozenset[str]:
    """`content_terms` before `drop`, kept per text: the readers score the same turns question
    after question."""
    return frozenset(stem(w) for w in terms(text) if w not in STOPWORDS and w not in _FRAME and len(w) > 1)


def stems_of(texts: Iterable[str]) -> set[str]:
    """The stems of every term of ``texts`` (what `content_terms` drops)."""
    return {stem(w) for t in texts for w in terms(t)}


def collapse_spaces(text: str) -> str:
    """"a   b\\n c" -> "a b c"."""
    return _SPACE.sub(" ", text).strip()


def any_of(words: str, before: str = r"\b", after: str = r"\b") -> re.Pattern[str]:
    """A case-insensitive pattern for any of ``words`` (alternatives: ``"not|never|no longer"``),
    between ``before`` and ``after`` (word boundaries unless told): word lists read as lists.

    >>> any_of("fell through|called off").search("The move fell through.").group(0)
    'fell through'
    """
    return re.compile(f"{before}(?:{words}){after}", re.I)
