"""Phrases that name a relation in questions, mapped onto the closed predicate vocabulary.

Two tables, because a relation is named two ways: as a *noun* after a possessive or
before "of" ("Priya's manager", "the home town of ...") and as a *verb* with the seed as
its subject or object ("where does Priya live", "who reports to Dana").

`inverse` says how the phrase maps onto the predicate's direction:
  * noun: "X's <noun>" is `predicate(X, answer)`; `inverse=True` means `predicate(answer, X)`
    ("Dana's reports" is `reports_to(answer, Dana)`).
  * verb: "<subj> <verb> <obj>" is `predicate(subj, obj)`; `inverse=True` means
    `predicate(obj, subj)` ("Dana manages Priya" is `reports_to(Priya, Dana)`).
Symmetric predicates are always stored with `inverse=False`; the walker must match them
in both directions.

The tables are built in code until the predicate registry (`tkg/predicates.toml`) lands;
`build_lexicon(extra=...)` merges the registry's phrases in without overriding these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Literal

PREDICATES: tuple[str, ...] = (
    "lives_in", "works_at", "job_title", "reports_to", "from_place", "studies_at", "married_to",
    "engaged_to", "partner_of", "sibling_of", "parent_of", "friend_of", "has_pet", "owns", "likes",
    "dislikes", "favorite", "plays", "member_of", "visited", "plans", "age", "birthday",
)  # fmt: skip
SYMMETRIC: frozenset[str] = frozenset({"married_to", "engaged_to", "partner_of", "sibling_of", "friend_of"})
LITERAL_PREDICATES: frozenset[str] = frozenset({"job_title", "age", "birthday"})


@dataclass(frozen=True)
class LexEntry:
    predicate: str
    inverse: bool = False
    qualifier: str = ""  # "band" for favorite band; a species for pets (a preference hint, not a filter)


@dataclass(frozen=True)
class Lexicon:
    """Phrase tables, keyed by lower-case phrases of space-separated words."""

    nouns: Mapping[str, LexEntry] = field(default_factory=dict)
    verbs: Mapping[str, LexEntry] = field(default_factory=dict)

    @cached_property
    def max_words(self) -> int:
        return max((len(p.split()) for p in (*self.nouns, *self.verbs)), default=1)

    def match(
        self, words: list[str], start: int, kind: Literal["noun", "verb"]
    ) -> tuple[LexEntry, int] | None:
        """Longest phrase of `kind` starting at `words[start]`: (entry, words consumed)."""
        table = self.nouns if kind == "noun" else self.verbs
        for n in range(min(self.max_words, len(words) - start), 0, -1):
            entry = table.get(" ".join(words[start : start + n]))
            if entry is not None:
                return entry, n
        return None


def _e(predicate: str, inverse: bool = False, qualifier: str = "") -> LexEntry:
    return LexEntry(predicate, inverse and predicate not in SYMMETRIC, qualifier)


_NOUNS: dict[str, tuple[str, ...]] = {
    "lives_in": ("home", "home city", "current city", "city", "residence", "address", "place"),
    "works_at": ("employer", "company", "workplace", "firm", "office", "work", "place of work"),
    "job_title": (
        "job", "job title", "title", "role", "position", "occupation", "profession", "line of work",
    ),
    "reports_to": ("manager", "boss", "supervisor", "line manager", "team lead", "team leader", "superior"),
    "from_place": (
        "home town", "hometown", "birthplace", "place of birth", "home country", "country of origin",
    ),
    "studies_at": ("school", "university", "college", "uni", "alma mater"),
    "married_to": ("wife", "husband", "spouse"),
    "engaged_to": ("fiance", "fiancee", "fiancé", "fiancée"),
    "partner_of": ("partner", "girlfriend", "boyfriend", "significant other"),
    "sibling_of": ("sister", "brother", "sibling", "sisters", "brothers", "siblings", "twin"),
    "parent_of": ("son", "daughter", "child", "children", "kid", "kids", "baby", "sons", "daughters"),
    "friend_of": ("friend", "friends", "best friend", "buddy", "pal", "closest friend"),
    "has_pet": ("pet", "pets"),
    "member_of": ("team", "club", "band", "group", "choir"),
    "visited": ("trip", "trips", "travels"),
    "plans": ("plan", "plans"),
    "age": ("age",),
    "birthday": ("birthday", "birth date", "date of birth", "bday"),
}
_INVERSE_NOUNS: dict[str, tuple[str, ...]] = {
    "reports_to": (
        "report", "reports", "direct report", "direct reports", "employee", "employees", "subordinate",
    ),
    "parent_of": ("mother", "mom", "mum", "father", "dad", "parent", "parents", "mother-in-law"),
}
_PET_SPECIES = ("dog", "cat", "puppy", "kitten", "hamster", "rabbit", "parrot", "horse", "turtle", "snake")
_OWNED = ("car", "bike", "boat", "guitar", "piano")
_FAVORITE_CATEGORIES = {
    "band": "band", "food": "food", "movie": "movie", "film": "movie", "book": "book", "song": "song",
    "color": "color", "colour": "color", "sport": "sport", "team": "team", "artist": "artist",
    "singer": "singer", "restaurant": "restaurant", "game": "game", "show": "show", "dish": "food",
    "drink": "drink", "author": "author", "city": "city", "season": "season", "animal": "animal",
    "genre": "genre", "hobby": "hobby", "musician": "artist", "painter": "artist", "place": "place",
}  # fmt: skip

_VERBS: dict[str, tuple[str, ...]] = {
    "lives_in": (
        "live", "lives", "lived", "living", "move", "moves", "moved", "reside", "resides", "resided",
        "residing", "move to", "moves to", "moved to", "moving to", "relocate to", "relocated to",
        "settled in", "settle in", "stay", "stays", "based", "located",
    ),
    "works_at": ("work", "works", "worked", "working", "employed", "employed by", "employed at", "job at"),
    "job_title": ("do for a living", "do for work", "work as", "works as", "worked as", "working as"),
    "reports_to": ("report to", "reports to", "reported to", "reporting to", "answer to", "answers to"),
    "from_place": (
        "come from", "comes from", "came from", "grow up", "grew up", "grown up", "growing up",
        "originally from", "from", "born in",
    ),
    "studies_at": (
        "study", "studies", "studied", "studying", "attend", "attends", "attended", "go to school",
        "goes to school", "went to school", "go to college", "goes to college", "went to college",
        "go to university", "goes to university", "went to university", "graduate from", "graduated from",
        "enrolled at", "enrolled in",
    ),
    "married_to": ("marry", "married", "marries", "married to", "wed", "wedded"),
    "engaged_to": ("engaged to", "engaged", "get engaged to", "got engaged to"),
    "partner_of": ("date", "dates", "dated", "dating", "seeing", "going out with", "in a relationship with"),
    "friend_of": ("friends with", "befriend", "befriended"),
    "owns": (
        "drive", "drives", "drove", "own", "owns", "owned", "buy", "bought", "buys", "purchase", "purchased",
    ),
    "likes": (
        "do for fun", "like", "likes", "liked", "love", "loves", "loved", "enjoy", "enjoys", "enjoyed",
        "into",
    ),
    "dislikes": ("dislike", "dislikes", "disliked", "hate", "hates", "hated", "can't stand"),
    "plays": ("play", "plays", "played", "playing"),
    "member_of": (
        "belong to", "belongs to", "belonged to", "join", "joins", "joined", "a member of", "member of",
        "in a band with", "on", "play for", "plays for", "played for", "playing for",
    ),
    "visited": (
        "visit", "visits", "visited", "visiting", "travel to", "travels to", "traveled to", "travelled to",
        "go to", "goes to", "went to", "been to", "toured",
    ),
    "plans": ("plan", "plans", "planned", "planning", "plan to", "plans to", "planning to", "intend to"),
    "age": ("how old",),
    "birthday": ("born",),
}
_INVERSE_VERBS: dict[str, tuple[str, ...]] = {
    "works_at": ("employ", "employs"),
    "reports_to": (
        "manage", "manages", "managed", "managing", "supervise", "supervises", "supervised", "lead",
    ),
    "parent_of": ("raised",),
}


def _base_tables() -> tuple[dict[str, LexEntry], dict[str, LexEntry]]:
    nouns: dict[str, LexEntry] = {}
    verbs: dict[str, LexEntry] = {}
    for table, spec, inverse in ((nouns, _NOUNS, False), (nouns, _INVERSE_NOUNS, True),
                                 (verbs, _VERBS, False), (verbs, _INVERSE_VERBS, True)):  # fmt: skip
        for predicate, phrases in spec.items():
            for phrase in phrases:
                table[phrase] = _e(predicate, inverse)
    for species in _PET_SPECIES:
        nouns[species] = nouns[species + "s"] = _e("has_pet", qualifier=species)
    for thing in _OWNED:
        nouns[thing] = _e("owns", qualifier=thing)
    for word, category in _FAVORITE_CATEGORIES.items():
        for fav in ("favorite", "favourite", "fave"):
            nouns[f"{fav} {word}"] = _e("favorite", qualifier=category)
    return nouns, verbs


@dataclass(frozen=True)
class ExtraPhrase:
    """A phrase from outside this module (e.g. the predicate registry's `phrases`)."""

    phrase: str
    predicate: str
    inverse: bool = False
    qualifier: str = ""
    kind: Literal["noun", "verb", "auto"] = "auto"


def build_lexicon(extra: Iterable[ExtraPhrase] | Mapping[str, Iterable[str]] | None = None) -> Lexicon:
    """The built-in tables plus `extra` phrases; built-in phrases win on conflicts.

    `extra` is either `ExtraPhrase` records or a mapping predicate → phrases (the shape of
    the registry's `phrases`). A phrase of kind "auto" goes in both tables: in a noun slot
    it is read as a noun, in a verb slot as a verb, so one registry list serves both.

    >>> build_lexicon({"mentor_of": ["mentor"]}).nouns["mentor"].predicate
    'mentor_of'
    """
    nouns, verbs = _base_tables()
    records: list[ExtraPhrase] = []
    if isinstance(extra, Mapping):
        records = [ExtraPhrase(p, pred) for pred, phrases in extra.items() for p in phrases]
    elif extra is not None:
        records = list(extra)
    for rec in records:
        phrase = " ".join(rec.phrase.lower().replace("’", "'").split())
        entry = _e(rec.predicate, rec.inverse, rec.qualifier)
        if rec.kind in ("noun", "auto"):
            nouns.setdefault(phrase, entry)
        if rec.kind in ("verb", "auto"):
            verbs.setdefault(phrase, entry)
    return Lexicon(MappingProxyType(nouns), MappingProxyType(verbs))


DEFAULT_LEXICON: Lexicon = build_lexicon()
