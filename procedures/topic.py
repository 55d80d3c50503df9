"""What a summary question is about, and what a turn says of it: the words a topical summary reads by.

"How did Kofi's work life change over the year?" asks for the story of one topic ("work life") of one
subject (Kofi). Its topic words are the question's own words without the ones that frame a story
("how did … change over the year") and without the subject's names. Their close relatives come from
the predicate registry: the relations whose phrases or vocabulary the topic words name (works_at for
"work", job_title for "career" or "accountant", plans for "plans"), widened to the relations of the
same part of a life (`FAMILIES`), give every word the registry keeps for them ("job", "manager",
"supervisor", "laid off", a job title). A turn that says a change ("started", "quit", "withdrew", "fell
through") is part of a story; a turn that says nothing ("lol ok", a greeting, only a question) is not.

Example::

    >>> from tkg.predicates import PredicateRegistry
    >>> t = topic_words("How did Kofi's work life change over the year?", {"kofi"})
    >>> t
    ('work',)
    >>> "supervisor" in relatives(t, PredicateRegistry.load())[1]
    True
    >>> change_in("ok so they withdrew it"), change_in("lol same")
    ('withdrew', None)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Iterable
from functools import lru_cache
from importlib import resources

from planners.cues import find_time_anchor, without_span
from planners.query_text import QUESTION_FRAME
from tkg.predicates import Predicate, PredicateRegistry
from tkg.text import STOPWORDS, content_terms, loose_stem, split_sentences, terms
from tkg.time_words import LONG_MONTH

# The relations that tell one part of a life: a topic that names one of them is about all of them.
FAMILIES: tuple[frozenset[str], ...] = (
    frozenset({"works_at", "job_title", "reports_to"}),
    frozenset({"lives_in", "from_place"}),
    frozenset({"married_to", "engaged_to", "partner_of"}),
    frozenset({"visited", "plans"}),
)
# Words that frame a request for a story rather than name its topic.
_FRAME = frozenset("""summarise summarize summary describe overview recap rundown story happen happened
    change changed changing develop developed evolve evolved unfold unfolded progress progressed go going gone
    went turn turned pan panned tell walk talk take through deal situation everything conversations
    conversation chats chat year years month months week weeks time course life lives far lately recently
    overall end whole full history since""".split())
_PHRASAL_FRAME = re.compile(r"\b(?:turn(?:ed)?|work(?:ed)?|pan(?:ned)?)\s+out\b", re.I)
# Too common to tie a turn to a topic, whichever relation's phrase they come from.
_GENERIC = frozenset("""be get go going went gone take make come do have put give keep start set say see back
    new week weekend call head spend return away end living day line first stop step data game""".split())


_MONTHS = rf"(?:{LONG_MONTH}|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?)"
# topic words that name a kind of value, and how a turn states one: "how did the wedding *date* change" is
# told by the turns that state dates, "how did his race *times* progress" by those that state times
_VALUE_SAID = {
    "date": re.compile(rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS}"
                       rf"|{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?|(?:19|20)\d{{2}})\b", re.I),
    "time": re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b|\b\d+\s*(?:min|mins|minutes|seconds|secs)\b", re.I),
    "amount": re.compile(r"[£$€]\s?\d|\b\d+(?:\.\d+)?\s?(?:k|grand|pounds|dollars|euros)\b", re.I),
}
_VALUE_WORDS = {"date": "date dates day days", "time": "time times pace pb pbs result results",
                "amount": "salary salaries pay price prices rent cost costs budget budgets wage wages"}
VALUE_KINDS = {w: kind for kind, words in _VALUE_WORDS.items() for w in words.split()}


def values_said(text: str, kinds: Iterable[str]) -> list[str]:
    """The kinds of value (of ``kinds``) ``text`` states a value of: a date, a time, a sum of money.

    >>> values_said("PB is 1:48:30 from Leeds, race on June 4th", ["time", "date"])
    ['time', 'date']
    """
    return [k for k in kinds if _VALUE_SAID[k].search(text)]


@lru_cache(maxsize=1)
def _irregular() -> dict[str, tuple[str, ...]]:
    """tkg/data/irregular_verbs.toml, the forms the extractor also reads (not imported from it: a question
    never loads the extraction rules)."""
    raw = tomllib.loads(resources.files("tkg").joinpath("data/irregular_verbs.toml").read_text("utf-8"))
    return {verb: tuple(found) for verb, found in raw.items()}


def forms(verb: str) -> frozenset[str]:
    """A verb's surface forms: its irregular ones when listed, else -s, -ed, -ing (a final "e" dropped,
    a final consonant after one vowel doubled as well: "cancelled", "dropping").

    >>> sorted(forms("cancel"))[:3], "sold" in forms("sell")
    (['cancel', 'canceled', 'canceling'], True)
    """
    if verb in _irregular():
        return frozenset((verb, *_irregular()[verb]))
    stem = verb[:-1] if verb.endswith("e") else verb
    third = verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z", "o")) else "s")
    out = {verb, third, stem + "ed", stem + "ing"}
    if re.search(r"[^aeiou][aeiou][bdglmnprt]$", verb):
        out |= {verb + verb[-1] + "ed", verb + verb[-1] + "ing"}
    if re.search(r"[^aeiou]y$", verb):
        out |= {verb[:-1] + "ied", verb[:-1] + "ies"}
    return frozenset(out)


# Verbs and phrases that say something changed: a story is told by them.
_CHANGE_VERBS = """start begin join quit leave resign retire fire hire offer accept decline promote cancel
    postpone delay rebook book move relocate sell buy adopt die propose engage marry divorce graduate finish
    open close launch collapse lose win sign transfer drop rescind freeze froze frozen withdraw withdrew
    withdrawn""".split()
_CHANGE_PHRASES = re.compile(
    r"\b(?:laid|lay|lays|laying)\s+(?:\w+\s+){0,3}off\b|\blet\s+(?:\w+\s+){0,4}go\b|\b(?:fell|fall|falls|fallen)\s+"
    r"through\b|\b(?:pull|pulled|pulls)\s+out\b|\b(?:call|called|calls)\s+(?:\w+\s+){0,3}off\b|\b(?:broke|break)"
    r"\s+up\b|\bsplit\s+up\b|\bfroze\s+hiring\b|\bhiring\s+freeze\b|\bis\s+off\b|\bno\s+longer\b",
    re.I,
)
_CHANGE_WORDS = frozenset(f for verb in _CHANGE_VERBS for f in forms(verb))
# what never ties a turn to a topic by itself: common words, framing words, change words (counted apart)
PLAIN_STEMS = frozenset(loose_stem(w) for w in _GENERIC | _FRAME | _CHANGE_WORDS)
MIN_TERMS = 3  # content words a turn needs to say something (two when one of them is a change)


def topic_words(question: str, subject_names: Collection[str]) -> tuple[str, ...]:
    """The question's words that name its topic, in order: no story frame, no time anchor, no subject.

    >>> topic_words("What happened with Hannah's job offer from Bellwether Studio?", {"hannah"})
    ('job', 'offer', 'bellwether', 'studio')
    """
    anchor = find_time_anchor(question)
    text = _PHRASAL_FRAME.sub(" ", anchor.cut(question) if anchor else question)
    own = {w for n in subject_names for w in terms(n)}

    def kept(said: str) -> list[str]:
        return [w for w in terms(said) if len(w) > 1 and w not in STOPWORDS and w not in QUESTION_FRAME
                and w not in _FRAME and w not in own and w != "s"]

    words = kept(without_span(text)) or kept(text)  # the span is the topic when nothing else is
    return tuple(dict.fromkeys(words))


GENERIC_STEMS = frozenset(loose_stem(w) for w in _GENERIC | _FRAME)


def _words_of(phrases: Iterable[str]) -> set[str]:
    return {w for p in phrases if "{" not in p for w in terms(p)
            if len(w) > 2 and w not in STOPWORDS and loose_stem(w) not in GENERIC_STEMS}


def _naming_words(p: Predicate) -> set[str]:
    """The words that name a relation (its phrases, nouns and vocabulary: "job", "boss", "accountant")."""
    return _words_of((*p.phrases, *p.inverse_phrases, *p.nouns, *p.inverse_nouns, *p.vocabulary))


def _registry_words(p: Predicate) -> set[str]:
    """The words the registry keeps about a relation: what names it and the verbs that start or end it (not
    its vocabulary of values: "student" names a job, it does not speak of one)."""
    return _words_of((*p.phrases, *p.inverse_phrases, *p.nouns, *p.inverse_nouns, *p.verbs, *p.retract_verbs,
                      *p.together_verbs, *p.possessive))


def _meets(a: str, b: str) -> bool:
    """Two words meet when their loose stems are equal, or one of six letters or more begins the other
    ("employ" and "employment")."""
    x, y = loose_stem(a), loose_stem(b)
    short, long_ = sorted((x, y), key=len)
    return x == y or (len(short) >= 6 and long_.startswith(short))


@lru_cache(maxsize=256)
def relatives(words: tuple[str, ...], registry: PredicateRegistry) -> tuple[frozenset[str], frozenset[str]]:
    """The relations the (lower-case) topic words name, with their family, and the loose stems of every
    word the registry keeps for them (see the module doc)."""
    named = {p.name for p in registry.predicates() for w in words  # a word the relation's own phrase
             if len(w) > 4 and w in p.phrases or any(_meets(w, r) for r in _naming_words(p))}  # ("living")
    family = set(named).union(*(f for f in FAMILIES if f & named))
    kept: set[str] = set().union(*(_registry_words(registry.get(n)) for n in family if n in registry))
    return frozenset(family), frozenset(loose_stem(w) for w in kept)


@lru_cache(maxsize=64)
def relation_phrases(family: frozenset[str], registry: PredicateRegistry) -> re.Pattern[str] | None:
    """The registry's phrases of three words or more that start, hold or end the family's relations
    ("first week at", "get laid off from", "book a flight to"), their first verb in any form."""
    found: set[str] = set()
    for name in family:
        if name not in registry:
            continue
        p = registry.get(name)
        for phrase in (*p.verbs, *p.retract_verbs, *p.together_verbs, *p.possessive):
            words = phrase.lower().split()
            words = words[1:] if words[:1] == ["be"] else words
            if len(words) >= 3 and not any("{" in w for w in words):
                head = "|".join(sorted(map(re.escape, forms(words[0])), key=len, reverse=True))
                found.add(rf"\b(?:{head})\s+" + r"\s+".join(map(re.escape, words[1:])) + r"\b")
    return re.compile("|".join(sorted(found)), re.I) if found else None


@lru_cache(maxsize=50_000)
def change_in(text: str) -> str | None:
    """The first word or phrase of ``text`` that says something changed, else None (kept per text: a
    story weighs every turn of its group twice a question)."""
    m = _CHANGE_PHRASES.search(text)
    if m:
        return m.group(0).lower()
    return next((w for w in terms(text) if w in _CHANGE_WORDS), None)


@lru_cache(maxsize=50_000)
def says_something(text: str) -> bool:
    """Whether a turn states anything: enough content words (fewer with a change), and not only questions
    (kept per text, as `change_in`)."""
    sentences = split_sentences(text) or [text]
    if all(s.rstrip().endswith("?") for s in sentences):
        return False
    n = len(content_terms(text))
    return n >= MIN_TERMS or (n >= MIN_TERMS - 1 and change_in(text) is not None)


@lru_cache(maxsize=50_000)
def text_stems(text: str) -> frozenset[str]:
    """The loose stems of the words of ``text``, kept per text: a story reads every turn of its group."""
    return frozenset(loose_stem(w) for w in terms(text))


def matches(text: str, stems: Collection[str]) -> set[str]:
    """The loose stems of ``stems`` that words of ``text`` have."""
    return set(text_stems(text).intersection(stems))
