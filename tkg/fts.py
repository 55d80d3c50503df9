"""What a full-text index sees of a text: Kuzu's analysis, done in Python for in-memory BM25.

Kuzu's full-text index (``CREATE_FTS_INDEX(..., stemmer := 'english')``) lower-cases a document,
turns every run of digits and ASCII punctuation (its ignore pattern) into a space, splits the rest
into words, drops its stop words (tkg/data/fts_stopwords.txt) and stems what is left with
Snowball's English stemmer; a query goes the same way without the stop-word step. `doc_terms` and
`query_terms` do the same, so `procedures.group_text` scores a group's rows in memory as the index
would (tests/test_group_text.py compares the two). One difference, on purpose: Kuzu splits only
at spaces, so a word next to a tab or a line break is glued to its neighbour there; here any white
space separates words.

Example::

    >>> doc_terms("Caroline: I went to the LGBTQ support group in 2023!")
    ['carolin', 'lgbtq', 'support', 'group']
    >>> query_terms("supporting groups 2023 the")
    ['support', 'group', 'the']
"""

from __future__ import annotations

import re
import threading
from functools import cache, lru_cache
from importlib import resources

import Stemmer

# Kuzu 0.11.3's default ignore pattern: digits and ASCII punctuation, replaced by a space.
_IGNORE = re.compile(r"""[0-9!@#$%^&*()_+={}\[\]:;<>,.?~\\/|'"`-]+""")
_STEMMER = Stemmer.Stemmer("english")
_STEM_LOCK = threading.Lock()  # a PyStemmer object is not safe to share between threads


@cache
def stop_words() -> frozenset[str]:
    """The words the index drops from documents (lower-case, letters only)."""
    text = resources.files("tkg").joinpath("data/fts_stopwords.txt").read_text("utf-8")
    return frozenset(w for line in text.splitlines() if not line.startswith("#") for w in line.split())


@lru_cache(maxsize=100_000)
def stem(word: str) -> str:
    """Snowball's English stem of one lower-case word (``"painting"`` → ``"paint"``)."""
    with _STEM_LOCK:
        return str(_STEMMER.stemWord(word))


def _words(text: str) -> list[str]:
    return _IGNORE.sub(" ", text.lower()).split()


def doc_terms(text: str) -> list[str]:
    """The terms the index keeps of a document, in order (repeats kept: they are its term counts)."""
    stops = stop_words()
    return [stem(w) for w in _words(text) if w not in stops]


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in order (a query's words count once, as in Kuzu)."""
    return list(dict.fromkeys(stem(w) for w in _words(text)))
