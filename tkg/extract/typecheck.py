"""Type checks on a claim's subject and object, applied to every rule's hits.

The rules read a slot off the sentence's shape; these checks ask whether the value is of the
kind the predicate holds: a pet or a person is not named after a country ("has_pet Japan"),
a group one joins is a named group or a word for one ("joined a choir", not "part of the
reason"), an owned thing is not a manner ("second hand"), and a subject is a person, not a
city ("Rotterdam plays chess"). A named value is also a noun phrase: words a rule swept in past
its end are trimmed ("a pharmacy up there" -> "pharmacy", "Lumeway the following Monday" ->
"Lumeway"), and a value that holds a clause ("message last week but I've been") or only names a
stretch of time ("two nights", "January") is no value at all. A wrong current fact costs more
than a missing one.
"""

from __future__ import annotations

from dataclasses import replace

from tkg.extract.candidate import Hit
from tkg.extract.gazetteer import is_big_place, is_region
from tkg.extract.lexicon import BARE_KIN
from tkg.extract.objects import PERSON_NOUNS
from tkg.predicates import PredicateRegistry
from tkg.time_words import MONTHS, SEASONS, WEEKDAYS

# What a group one is a member of is called when it has no name.
GROUP_WORDS = frozenset(
    """
    club team band choir orchestra ensemble group society association union league gym crew squad circle
    committee board party church congregation guild collective troupe company cast chorus quartet trio
    network community federation council lodge fraternity sorority clubs teams bands choirs groups
    class classes program programme programs brigade forum course workshop meetup co-op charity organisation
    organization nonprofit firm circle collective
    """.split()
)
_HOMES = frozenset({"lives_in", "from_place"})
# Things that follow "bought"/"sold" but are how, not what.
_NOT_THINGS = frozenset(
    {"second hand", "secondhand", "used", "new", "online", "cheap", "outright", "on credit"}
)


# Kinds whose value is a noun phrase naming something (not a title, an age or a date).
_NAMED_KINDS = frozenset({"place", "organisation", "person", "pet", "thing"})
_NAMES = frozenset({"person", "pet"})
# Words a rule's object can run on into, which never end a noun phrase: an article, a dangling
# preposition or conjunction, an adverb of place; and, after a name (not after an activity:
# "curling up"), a particle ("a pharmacy up there").
_DANGLING = frozenset("the a an of and or to at in on with for by from there here".split())
_PARTICLES = frozenset("up down out off over back away around".split())
# What counts a stretch of time ("two weekends", "a few nights").
_TIME_COUNT = frozenset("a an one two three four five six seven eight nine ten few couple of several".split())
# Words that only a clause holds: a subject pronoun, an auxiliary, a negated verb.
_CLAUSE_WORDS = frozenset(
    """
    i i've i'm i'd i'll you you're you've we we're we've they they're they've he he's she she's it's
    been being am don't doesn't didn't won't wouldn't can't couldn't isn't aren't wasn't weren't
    haven't hasn't hadn't
    """.split()
)
# Nouns that only measure or name a stretch of time.
_TIME_NOUNS = frozenset(
    """
    second seconds minute minutes hour hours night nights day days week weeks weekend weekends fortnight
    fortnights month months year years decade decades morning mornings evening evenings afternoon
    afternoons tonight today tomorrow yesterday
    """.split()
) | frozenset(MONTHS) | frozenset(WEEKDAYS) | frozenset(SEASONS)


def shaped(hit: Hit, object_type: str) -> Hit | None:
    """The hit with its named value trimmed to a noun phrase, or None when the value is a clause or
    a stretch of time.

    >>> shaped(Hit("Anjali", "works_at", "pharmacy up"), "organisation").object
    'pharmacy'
    >>> shaped(Hit("Jonas", "works_at", "Rotherham Council's"), "organisation").object
    'Rotherham Council'
    >>> shaped(Hit("Omar", "works_at", "message last week but I've been"), "organisation") is None
    True
    >>> shaped(Hit("Marcus", "owns", "two nights"), "thing") is None
    True
    >>> shaped(Hit("Nate", "plans", "gaming party two weekends"), "thing").object
    'gaming party'
    >>> shaped(Hit("Priya", "sibling_of", "June"), "person").object
    'June'
    """
    if object_type not in _NAMED_KINDS:
        return hit
    words = hit.object.split()
    if words and words[-1][:1].isupper() and words[-1].endswith(("'s", "\u2019s")) and len(words[-1]) > 2:
        words[-1] = words[-1][:-2]  # a name's possessive, not "a master's"
    trailing = _DANGLING if object_type == "thing" else _DANGLING | _PARTICLES
    while words and words[-1].lower().strip(",.;:!?") in trailing:
        words.pop()
    if any(w.lower().strip(",.;:!?\"") in _CLAUSE_WORDS for w in words):
        return None
    if words and not (object_type in _NAMES and words[-1][:1].isupper()):  # a sister June, a dog Sunday
        timed = len(words)  # "gaming party two weekends" -> "gaming party"; "two nights" -> nothing
        while timed and words[timed - 1].lower().strip(",.;:!?") in _TIME_NOUNS:
            timed -= 1
        if timed < len(words):
            while timed and words[timed - 1].lower() in _TIME_COUNT:
                timed -= 1
            words = words[:timed]
    if not words:
        return None
    value = " ".join(words)
    return hit if value == hit.object else replace(hit, object=value)


# nouns that say only that there is someone: a person's value is never one of them
_SOMEONE = frozenset("""guy lad girl boy man woman bloke fella fellow chap lady someone somebody person
    dude gal""".split())


# what a speaker calls the one they write to, never a place: kin and endearments ("thanks Nana")
_CALLED = PERSON_NOUNS | frozenset(BARE_KIN.split("|")) | frozenset(
    "nana nanna mammy mummy mommy daddy papa mama love babe hun darling pet".split())


def _object_ok(hit: Hit, object_type: str) -> bool:
    obj = hit.object.strip()
    low = obj.lower()
    if object_type == "pet" and obj[:1].isupper() and is_big_place(obj):
        return False  # "has_pet Japan", "has_pet Tokyo"
    if object_type == "organisation" and hit.predicate == "member_of":
        last = obj.split()[-1]
        return last[:1].isupper() or any(
            w in GROUP_WORDS for w in low.split()
        )  # not "the Rotterdam marathon"
    if hit.predicate in _HOMES and obj.split()[-1][:1].islower():
        return False  # "our Singapore office", "Leeds clinic": a building, not where one lives
    if object_type == "place" and low in _CALLED:
        return False  # "glad you're settling in Nana": the one spoken to, no place
    if object_type == "person" and low in _SOMEONE:
        return False  # "engaged to a lad from Galway": someone, not anyone the graph can name
    return not (object_type == "thing" and low in _NOT_THINGS)


def _subject_ok(hit: Hit, people: set[str]) -> bool:
    subj = hit.subject
    return "'s " in subj or subj in people or not is_region(subj)  # not "Japan is ...", but "Priya's mother"


def typed(hits: list[Hit], registry: PredicateRegistry, people: set[str]) -> list[Hit]:
    """The hits whose subject and object are of the kinds their predicate holds (`people`: the
    speaker and listeners, who are people whatever their names)."""
    named = {
        h.object
        for h in hits
        if h.predicate in registry and registry.get(h.predicate).object_type == "person"
    }
    people = people | named  # "my sister Georgia lives in Perth": Georgia is a person here
    out = []
    for h in hits:
        if h.predicate not in registry:
            continue
        otype = h.object_type or registry.get(h.predicate).object_type
        fit = shaped(h, otype)
        if fit is not None and _object_ok(fit, otype) and _subject_ok(fit, people):
            out.append(fit)
    return out
