"""Graph facts as the reader's candidates: an edge whose object is of the asked kind, valid when asked.

An edge answers only with a value of the kind the question asks for (``has_pet Japan`` answers no
question about a pet's name); a role edge's value takes the modifiers its turn says before it.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from planners.asked import Asked
from planners.head_words import kind_of_noun
from tkg.models import Evidence, Fact
from tkg.nlp import may_say, parse
from tkg.words import is_place_name

from .reader import NAMED_KINDS, Candidate, norm
from .sentence_value import NAMED_HEADS
from .slots import employer_at, lexicon_for
from .span_words import OPEN_MEMBERS, SPAN_MEMBERS, thing_words
from .span_workplaces import AT_WORK, said_workplace
from .spans import ANIMALS, spans_of

if TYPE_CHECKING:
    from tkg.context import Context

# the asked kinds a predicate's object type can answer
OBJECT_KINDS = {
    "place": ("place",),
    "organisation": ("organisation",),
    "person": ("person",),
    "pet": ("pet_name", "animal"),
    "literal": ("role", "number", "status", "thing"),
    "thing": ("thing",),
    "date": ("date",),
    "entity": ("place", "organisation", "person", "thing"),
}


def graph_candidates(
    ctx: Context,
    asked: Asked,
    facts: list[Fact],
    evidence: list[Evidence],
    excluded: set[str],
    *,
    at: datetime | None = None,
    open_only: bool = False,
) -> list[Candidate]:
    """The procedure's facts whose object is of the asked kind, as candidates that rest on edges
    (never a value the question itself names, its head noun, or an animal word for a pet's name):
    only the open ones for "now" (``open_only``), only those valid at ``at`` for a date."""
    by_fact = {e.fact: e for e in evidence if e.fact}
    named = lexicon_for(ctx.registry).nouns.get(asked.head) if asked.kind == "person" and asked.head else None
    out = []
    for f in facts:
        if open_only and f.invalid_at is not None or f.unnamed_object:
            continue  # (a partner never named answers no "who")
        if at is not None and not (
            (f.valid_at is None or f.valid_at <= at) and (f.invalid_at is None or f.invalid_at > at)
        ):
            continue
        reg = ctx.registry
        kinds = OBJECT_KINDS.get(reg.get(f.predicate).object_type, ()) if f.predicate in reg else ()
        value = norm(f.object)
        if asked.kind not in kinds or value in excluded or value in (asked.head, asked.head + "s") or (
                asked.kind == "pet_name" and value.rpartition(" ")[2] in ANIMALS) or (
                asked.kind in ("pet_name", "person", "thing") and is_place_name(f.object, locative=True)
                and not (asked.kind != "thing" and _personal(ctx, f))) or (
                asked.kind in NAMED_KINDS | {"thing"} and not any(c.isalpha() for c in f.object)):
            continue  # an edge whose object is not of the asked kind ("has_pet Japan") answers nothing
        if names_someone(ctx, asked, f):
            continue
        if named is not None and not named.inverse and f.predicate != named.predicate:
            continue  # "who is her manager": a sibling_of edge names her sister, not her manager
        ev = by_fact.get(f.uuid) or next(
            (e for e in evidence if f.episodes and e.episode == f.episodes[0]), None
        )
        if asked.kind == "thing" and not said_as(asked.head, f.object, ev.text if ev is not None else "",
                                                 now=open_only and not asked.many):
            continue  # "what does she ride": "owns bass" is no vehicle; "what bike now": "owns cat flap" none
        if ev is not None:
            out.append(Candidate(widened(asked, f.object, ev.text), 2.5, f.valid_at, ev, "graph"))
    return out


def said_as(head: str, value: str, text: str, *, now: bool = True) -> bool:
    """An edge's object answers "what <head>": it is of the head's category (`of_category`), and,
    asked ``now``, where the category's members are not known, the value or its turn says the head
    ("the Brompton arrived! … so, new bike"): "bought a cat flap" is no bike. (A past or a single
    fact keeps an edge of any thing: "what recognition did she get" may be answered by what she got.)

    >>> said_as("bike", "cat flap", "I've bought a cat flap. Migas-ready.")
    False
    >>> said_as("bike", "Brompton", "the Brompton arrived! So, new bike"), said_as("car", "Polo", "a Polo")
    (True, True)
    """
    if not of_category(value, head):
        return False
    if not now:
        return True
    if not head or head in SPAN_MEMBERS or head in OPEN_MEMBERS or head in NAMED_HEADS:
        return True
    return may_say(f"{value} {text}", thing_words(head))


_CLOSED = frozenset({"transport", "diet"})


def of_category(value: str, head: str) -> bool:
    """A thing's value is of the head's category when the category's members are known: a word of
    it is a member or the head itself, or a name the list may not know ("e-bike", "Toyota Yaris",
    "Vespa" for a vehicle; not "bass", only common words of another kind). A name a named thing is
    known by ("which band") that ends in a noun of another kind is of that kind."""
    members = SPAN_MEMBERS.get(head)
    last = norm(value).split()[-1:] or [""]
    if head in NAMED_HEADS and last[0] != head and (kind_of_noun(last[0]) != "thing" or any(
            last[0] in m for m in SPAN_MEMBERS.values())):
        return False  # "Lakeshore Marathon" is a race and "Mercy Hospital" a hospital, not a band
    if not members or head not in _CLOSED and any(w[:1].isupper() for w in value.split()):
        return True  # (a means of transport or a diet is one of its members, never a name)
    words = norm(value).split()
    return any(w in members or w in (head, head + "s") for w in [*words, value, "-".join(words)])


def edge_fault(ctx: Context, asked: Asked, answer: str, walked: list[Fact], facts: list[Fact],
               evidence: list[Evidence], excluded: set[str], *, now: bool, left: bool) -> str | None:
    """Why the edge walked to ``answer`` does not answer, or None: it is no value of the head's category,
    it names someone, the relative is never named, it is the one not asked for (a brother for a sister),
    or the subject left it since (``left``: "handed the keys of Rose Cottage to the young couple")."""
    said = evidence[0].text if evidence else ""
    if asked.kind == "thing" and not said_as(asked.head, answer, said, now=now):
        return f"the edge's value is no {asked.head}"
    if any(names_someone(ctx, asked, f) for f in facts if norm(f.object) == norm(answer)):
        return f"{answer} is someone, no {asked.head or asked.kind}"
    if any(f.unnamed_object for f in walked if norm(f.object) == norm(answer)):
        return f"{answer} is never named"
    if norm(answer) in excluded:
        return f"{answer} is not the {asked.head or asked.kind} asked for"
    return f"{answer} was left since" if left else None


def names_someone(ctx: Context, asked: Asked, f: Fact) -> bool:
    """The edge's object is one of the group's people or pets where a place, an organisation or a
    thing of a category is asked, and the predicate does not type its object itself: "likes Halina"
    names a friend, no hobby (a ``works_at`` edge's object is a workplace, whatever else it is called)."""
    generic = f.predicate not in ctx.registry or ctx.registry.get(f.predicate).object_type in (
        "entity", "literal", "thing")
    # only a pastime is asked for so ("what hobby"): a game, a vehicle, a band may be a name the entity
    # list took for a person's ("Chess", "Vespa")
    return generic and (asked.kind in ("place", "organisation") or asked.kind == "thing"
                        and asked.head in OPEN_MEMBERS) and _personal(ctx, f)


def ends_at_person(ctx: Context, facts: list[Fact], answer: str) -> bool:
    """The procedure's answer is the object of an edge whose predicate relates people ("sibling_of
    Kieran"): a person, whatever else the question asked of them."""
    return any(norm(f.object) == norm(answer) and f.predicate in ctx.registry
               and ctx.registry.get(f.predicate).object_type == "person" for f in facts)


def _personal(ctx: Context, f: Fact) -> bool:
    """The edge's object is one of the group's people or pets ("Amara" the colleague, not the town)."""
    known = ctx.entities(f.group_id).get(f.object_uuid) if f.object_uuid else None
    return known is not None and known.type in ("person", "pet")


def widened(asked: Asked, value: str, text: str) -> str:
    """A role edge's value with the modifiers its turn says before it: the edge keeps "manager",
    the turn says "promoted me to *engineering* manager" (the longer says which manager)."""
    if asked.kind != "role":
        return value
    want = norm(value)
    longer = [sp.text for sent in parse(text).sents for sp in spans_of(sent, "role", asked.head)
              if norm(sp.text).endswith(" " + want) and len(sp.text.split()) <= 4]
    return max(longer, key=len) if longer else value


# verbs that state no activity of their own: a value they govern may be the slot's ("I'm in Leeds now")
_NEUTRAL = frozenset({"be", "have", "get", "say", "tell", "think", "know"})


def slot_verbs(ctx: Context, predicate: str | None, verb: str | None) -> frozenset[str]:
    """The lemmas that may state the slot: the question's verb and the predicate's own verbs'
    first words ("work at", "start at" → work, start), with the verbs that state nothing."""
    pred = ctx.registry.get(predicate) if predicate and predicate in ctx.registry else None
    own = {v.split()[0] for v in (*pred.verbs, *pred.retract_verbs)} if pred else set()
    return frozenset(own | _NEUTRAL | ({verb} if verb else set()))


def said_by_other_verb(value: str, text: str, lemmas: frozenset[str]) -> bool:
    """The value's clause is governed by another activity's verb ("I start *climbing* in Dublin
    Climbing Centre … after work" names no workplace): the nearest verb above every mention."""
    doc = parse(text)
    low = norm(value)
    found = False
    for t in doc:
        if norm(t.text) != low.split()[0]:
            continue
        found = True
        up = t
        while up.head.i != up.i and up.pos_ not in ("VERB", "AUX"):
            up = up.head
            if up.pos_ == "NOUN" and up.lower_ in AT_WORK:
                return False  # "my team at Hollis is six people": said as a workplace
        if up.pos_ not in ("VERB", "AUX") or up.lemma_.lower() in lemmas:
            return False
    return found


def with_workplace(ctx: Context, group: str, name: str, role: str, said: str, at: datetime | None) -> str:
    """A job title with its workplace, as people ask after a job ("senior writer at Quillfern"): the
    one the role's own turn ``said`` names ("now I'm Head of Research at Hollis"), else the graph's
    (`employer_at`), which also gives a name's whole form ("Brandt & Oyelaran" for the turn's "Brandt")."""
    org = employer_at(ctx, group, name, at)
    named = said_workplace(said)
    org = org if named is None or org and norm(named) in norm(org) else named
    if org and norm(org) not in norm(role) and not re.search(r"\b(?:at|for|with)\b", role):
        return f"{role} at {org}"
    return role
