"""From a user's question to what the indexes see: plain words, a declarative form, names.

Nothing the user typed reaches a full-text engine as syntax. Kuzu's FTS and Neo4j's Lucene
disagree about quotes, braces, ``AND``/``OR``, ``field:value``, ``+``/``-``, ``~``, ``*`` and
``\\``, so the question is reduced to lower-case word tokens (letters and digits only) before
either sees it; both backends get the same string, and no code asks which backend it is.
Lower-casing also disarms Lucene's operators, which are upper-case keywords.

Stop words and the question's frame ("what kind of", "did", "would ... likely") carry no
evidence, so they are dropped from the full-text query; the dense query keeps the sentence
but loses the wh-word and auxiliary, which brings it closer to how the answer was *said*
("When did Caroline go to the support group?" → "Caroline go to the support group").

Example::

    >>> q = parse_question('What did Caroline\\'s "support" group {do} AND:(y)?')
    >>> q.fts
    'caroline support group'
    >>> q.names
    ('Caroline',)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache

from tkg.text import STOPWORDS, content_terms, words
from tkg.timeparse import find_times

MAX_WORDS = 32  # bounds the engine's work (Lucene's clause limit is far above this)

# Words that frame a question rather than say what it is about.
QUESTION_FRAME = frozenset(
    """
    what when where which who whom whose why how did does do kind type sort many much ever
    would could should might may likely something anything thing things also yet still
    """.split()
)
# Capitalised by the calendar or by abbreviation, or as the verb a request opens with ("Summarise how
# the wedding plans changed"), not because they name someone.
_NOT_NAMES = frozenset(
    """
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday dr mr mrs ms mx prof st
    summarise summarize describe outline list tell give explain recap remind please
    """.split()
)
_AUXILIARIES = frozenset(
    "did does do is are was were has have had will would can could should may might shall".split()
)
_WH = frozenset("what when where which who whom whose why how".split())

_TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_POSSESSIVE = re.compile(r"['\u2019]s$")


@dataclass(frozen=True)
class QueryText:
    """One question, prepared for each kind of index."""

    question: str
    words: tuple[str, ...]  # content words, lower-case, in order, de-duplicated
    fts: str  # the full-text query: content words joined by spaces ('' = skip full text)
    dense: str  # the text to embed
    names: tuple[str, ...]  # capitalised words that may name a person or thing
    when: tuple[datetime, datetime] | None = None  # a calendar date or month the question names
    when_text: str = ""  # the words that named it ("on 7 July, 2023"), left out of `words`


def plain_query(text: str) -> str:
    """A string that is safe as a Kuzu FTS or Lucene query: content words separated by spaces.

    >>> plain_query('title:"x" OR {y} +zed~2 \\\\ what?')
    'title zed 2'
    """
    return " ".join(_content(words(text)))


def _content(tokens: list[str]) -> list[str]:
    kept = [
        w for w in tokens
        if w not in STOPWORDS and w not in QUESTION_FRAME and (len(w) > 1 or w.isdigit())
    ]
    return list(dict.fromkeys(kept))[:MAX_WORDS]


def declarative(question: str) -> str:
    """The question without its leading wh-word, auxiliary and question mark.

    >>> declarative("When did Caroline go to the LGBTQ support group?")
    'Caroline go to the LGBTQ support group'
    >>> declarative("Caroline moved where?")
    'Caroline moved where'
    """
    tokens = question.strip().rstrip("?!. ").split()
    i = 0
    while i < len(tokens) and i < 3 and tokens[i].casefold().strip(",") in _WH | {"kind", "type", "of"}:
        i += 1
    if i and i < len(tokens) and tokens[i].casefold() in _AUXILIARIES:
        i += 1
    rest = " ".join(tokens[i:])
    return rest or question.strip()


_DAY_NAMED = re.compile(r"\b([A-Z][\w-]*)['\u2019]s\s+(?:Day|Eve)\b")  # "Valentine's Day"


def names_in(question: str) -> tuple[str, ...]:
    """Capitalised words of the question that are not question or stop words, nor a day's name
    ("Valentine's Day", "New Year's Eve": a time, no one's).

    >>> names_in("Did Melanie and Caroline meet Jon's sister in Paris on Mother's Day?")
    ('Melanie', 'Caroline', 'Jon', 'Paris', 'Day')
    """
    out: list[str] = []
    days = {m.casefold() for m in _DAY_NAMED.findall(question)}
    for token in _TOKEN.findall(question):
        token = _POSSESSIVE.sub("", token)
        low = token.casefold()
        if token[:1].isupper() and len(token) > 1 and low not in days \
                and not {low} & (STOPWORDS | QUESTION_FRAME | _NOT_NAMES):
            out.append(token)
    return tuple(dict.fromkeys(out))


# Two anchors far apart: an expression that resolves the same against both names a calendar
# time by itself ("7 July, 2023", "May 2022"); "last week" or a bare "in June" does not.
_ANCHORS = (datetime(2001, 6, 15, tzinfo=UTC), datetime(2049, 6, 15, tzinfo=UTC))


def calendar_time(question: str) -> tuple[tuple[datetime, datetime], str] | None:
    """The first absolute date, month or year the question names, and its words.

    >>> span, text = calendar_time("What did Nate play on November 7, 2022?")
    >>> span[0].date().isoformat(), span[1].date().isoformat(), text
    ('2022-11-07', '2022-11-08', 'on November 7, 2022')
    >>> calendar_time("What did Nate play last week?") is None
    True
    """
    first, second = (find_times(question, anchor) for anchor in _ANCHORS)
    for a in first:
        if any(b.span == a.span and (b.start, b.end) == (a.start, a.end) for b in second):
            return (a.start, a.end), a.text
    return None


@lru_cache(maxsize=20_000)
def parse_question(question: str) -> QueryText:
    """Everything retrieval needs from a question, computed once (kept per text: the lookup reader
    prepares the same turns' sentences as queries question after question)."""
    found = calendar_time(question)
    undated = question.replace(found[1], " ") if found else question
    content = _content(words(undated))  # none left (e.g. "What is it?"): dense search only
    return QueryText(
        question=question,
        words=tuple(content),
        fts=" ".join(content),
        dense=declarative(question),
        names=names_in(undated),
        when=found[0] if found else None,
        when_text=found[1] if found else "",
    )


def with_date_words(q: QueryText) -> QueryText:
    """``q`` with its date's words searched like any other and no date to boost: for a date before
    anything was said, where only the words of a later turn ("last summer") can find it."""
    content = _content(words(q.question))
    return replace(q, words=tuple(content), fts=" ".join(content), when=None, when_text="")


_AT_NAME = re.compile(r"\b(?:at|for|with)\s+(?:the\s+)?"
                      r"((?:[A-Z][\w&'’-]*\s?(?:of\s+(?:the\s+)?(?=[A-Z]))?)+)")


def employer_named(question: str) -> frozenset[str]:
    """The stemmed words of a name the question puts after "at", "for" or "with" ("what job did he take
    at Tallyho Brewing"): the employer a role is asked of; not a name the question dates by ("when he
    joined Fjordbyte").

    >>> sorted(employer_named("What job did Marcus take at Tallyho Brewing?"))
    ['brew', 'tallyho']
    >>> employer_named("What was Tobias's job title when he joined Fjordbyte?")
    frozenset()
    >>> sorted(employer_named("What is her role with the Friends of the Bergen Museum?"))
    ['bergen', 'friend', 'museum']
    """
    return frozenset(content_terms(" ".join(_AT_NAME.findall(question))))
