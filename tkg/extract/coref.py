"""What a claim's object points back at: "sold it", "sold the Corolla", "a car, a Toyota Corolla".

Ownership ends with "sold it" or "sold the Corolla" only if the retraction names the same
object the earlier claim did, so a retraction's object is resolved against what the subject
was said to own or keep earlier in the turn or in the history: "it" is the latest such thing
of the subject, and "the Corolla" is the earlier "Toyota Corolla" whose words it shares. An
owned thing named in apposition ("a car, a secondhand Toyota Corolla") is kept by its name.
A pronoun nothing resolves is dropped: a claim about an unknown thing is no claim.
"""

from __future__ import annotations

import re
from dataclasses import replace

from tkg.extract.candidate import Hit, Sentence
from tkg.extract.objects import is_name
from tkg.text import normalize_name

PRONOUNS = frozenset({"it", "them"})
# Predicates whose retraction may point back at an earlier object.
_REFERRING = frozenset({"owns", "has_pet"})
# ", a secondhand Toyota Corolla" / ": a Fiat 500" right after the object (a time may come between).
_APPOSITION = re.compile(
    r"^\s*(?:,|:|\s[-\u2013\u2014])\s*(?:a|an|the|my|our)\s+(?:[a-z][\w\-]*\s+){0,2}"
    r"(?P<name>[A-Z][\w\-]*(?:\s+[A-Z0-9][\w\-]*){0,2})"
)


_TITLE_NAME = re.compile(r"^\s*,\s*(?P<name>[A-Z][a-z][\w\-]*(?:\s+[A-Z][a-z][\w\-]*)?)\b(?!')")


def _words(text: str) -> set[str]:
    return set(normalize_name(text).split())


def _named(sent: Sentence, hit: Hit) -> Hit:
    """An owned thing given by its kind, then by its name: keep the name. So for a person given by
    a title ("I report to the CTO, Hadrien")."""
    if hit.predicate in sent.registry and sent.registry.get(hit.predicate).object_type == "person":
        if hit.object.isupper() or hit.object[:1].islower():
            at = sent.text.find(hit.object, max(hit.anchor, 0))
            m = _TITLE_NAME.match(sent.text[at + len(hit.object):]) if at >= 0 else None
            if m and is_name(m.group("name")):
                return replace(hit, object=m.group("name"))
        return hit
    if hit.predicate != "owns" or hit.polarity != "assert" or not hit.object[:1].islower():
        return hit
    at = sent.text.find(hit.object, max(hit.anchor, 0))
    if at < 0:
        return hit
    pos = at + len(hit.object)
    for t in sent.times:
        if pos <= t.span[0] <= pos + 1:
            pos = t.span[1]
    m = _APPOSITION.match(sent.text[pos:])
    return replace(hit, object=m.group("name")) if m and is_name(m.group("name")) else hit


def _said(obj: str, before: str) -> bool:
    """Whether the turn named `obj` before the pronoun (by one of its words), so that "it" can only
    be that: in "The Seat? Sold it." the "it" is the Seat, not the Vespa owned earlier."""
    named = set(re.findall(r"[a-z0-9]+", before.lower()))
    return bool(_words(obj) & named)


def _antecedent(hit: Hit, context: list[Hit], before: str) -> str | None:
    """The earlier object of the same subject and predicate that `hit`'s object points back at."""
    earlier = [h for h in reversed(context) if h.subject == hit.subject and h.predicate == hit.predicate
               and h.polarity == "assert"]
    if hit.object.lower() in PRONOUNS:
        return earlier[0].object if earlier and _said(earlier[0].object, before) else None
    mine = _words(hit.object)
    for h in earlier:
        theirs = _words(h.object)
        if theirs != mine and (theirs <= mine or (mine and normalize_name(hit.object).split()[-1] in theirs)):
            return h.object  # "old Golf" -> "Golf"; "Corolla" -> "Toyota Corolla"
    return None


def resolve(hits: list[Hit], sent: Sentence, context: list[Hit]) -> list[Hit]:
    """`hits` with owned things named and back-references resolved; unresolved pronouns dropped."""
    out: list[Hit] = []
    for hit in hits:
        hit = _named(sent, hit)
        if hit.predicate in _REFERRING and hit.polarity == "retract":
            found = _antecedent(hit, context + out, sent.before + " " + sent.text[: max(hit.anchor, 0)])
            if found is not None:
                hit = replace(hit, object=found)
        if hit.object.lower() not in PRONOUNS:
            out.append(hit)
    return out
