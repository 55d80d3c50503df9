"""Type checks on a claim's subject and object, applied to every rule's hits.

The rules read a slot off the sentence's shape; these checks ask whether the value is of the
kind the predicate holds: a pet or a person is not named after a country ("has_pet Japan"),
a group one joins is a named group or a word for one ("joined a choir", not "part of the
reason"), an owned thing is not a manner ("second hand"), and a subject is a person, not a
city ("Rotterdam plays chess"). A wrong current fact costs more than a missing one.
"""

from __future__ import annotations

from tkg.extract.candidate import Hit
from tkg.extract.gazetteer import is_big_place, is_region
from tkg.predicates import PredicateRegistry

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
        if _object_ok(h, otype) and _subject_ok(h, people):
            out.append(h)
    return out
