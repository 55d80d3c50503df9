"""Who a person question does not mean, though the turns name them near its words.

"Who is his youngest child?" is not answered by the wife the graph knows, "her sister" not by
"my brother Marek", "her sister's fiancé" not by the cat, and "who is Hedda's sister marrying"
not by the sister the turns introduce. The reader sets these names aside before it chooses.

    >>> sorted(_introduced("My brother Marek lives in Denver. Ines, his sister, too.", "brother"))
    ['Marek']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from planners.head_words import kind_of_noun
from planners.question import Question

from .about import Subject
from .group_turns import turns_with_terms
from .pets import group_pets
from .reader import norm
from .slots import lexicon_for
from .span_words import KIN_FORMS

if TYPE_CHECKING:
    from tkg.context import Context

# relations one person may hold in turn (a girlfriend, then a fiancée, then a wife): one kind of relative
_ROMANTIC = frozenset({"partner_of", "engaged_to", "married_to"})
_KIN_PREDICATES = frozenset(
    {"partner_of", "engaged_to", "married_to", "sibling_of", "parent_of", "reports_to", "friend_of"})


def other_relatives(ctx: Context, group: str, name: str, predicate: str, inverse: bool) -> set[str]:
    """The people the graph holds as ``name``'s relatives of another kind than the one asked (the
    ``predicate`` edge from them, or to them when ``inverse``): a wife is no answer to "who is his
    youngest child", a son none to "who is his mother"."""
    ent = ctx.entities(group).find(name, "person")
    if ent is None:
        return set()
    params = {"group_id": group, "subject_uuids": [ent.uuid], "predicate": ""}
    rows = ctx.store.named("fact.state_current", params)
    family = _ROMANTIC if predicate in _ROMANTIC else {predicate}
    return {str(r["object"]) for r in rows if r["predicate"] in _KIN_PREDICATES
            and (inverse or r["predicate"] not in family)}


# the words people call a relative by, as if a name ("Mum is booking flights"): each answers only a
# question asking for that relative (a fiancé is called by name)
_ADDRESSED_AS = tuple(forms for forms in KIN_FORMS if "fiance" not in forms)


# relatives by gender, each with the word for the other one: "Dana's sister" is not "my brother Marek"
_OPPOSITE = {
    "sister": "brother", "brother": "sister", "mother": "father|dad|daddy", "mum": "father|dad|daddy",
    "mom": "father|dad|daddy", "father": "mother|mum|mom|mummy|mommy", "dad": "mother|mum|mom|mummy|mommy",
    "son": "daughter", "daughter": "son", "wife": "husband", "husband": "wife", "girlfriend": "boyfriend",
    "boyfriend": "girlfriend", "aunt": "uncle", "uncle": "aunt|auntie", "niece": "nephew", "nephew": "niece",
    "grandmother": "grandfather|grandad|grandpa", "grandfather": "grandmother|gran|granny|grandma",
}


def other_gender_named(ctx: Context, group: str, head: str) -> set[str]:
    """Names the group's turns introduce with the relative word of the other gender than ``head``
    ("my brother Marek", "Marek, my brother"): none of them is the sister asked for."""
    other = _OPPOSITE.get(head)
    return _named_with(ctx, group, other) if other is not None else set()


def named_as(ctx: Context, group: str, head: str) -> set[str]:
    """Names the group's turns introduce with the relative word ``head`` ("my sister Ingrid"): when a
    question asks what that relative did ("who is her sister marrying"), not the answer."""
    return _named_with(ctx, group, head) if head in _OPPOSITE else set()


def _named_with(ctx: Context, group: str, words: str) -> set[str]:
    """Names the group's turns introduce with one of ``words`` (alternatives joined by "|")."""
    rows = turns_with_terms(ctx, group, words.split("|"), 2000)
    return {n for r in rows for n in _introduced(str(r.get("text") or ""), words)}


def _introduced(text: str, words: str) -> set[str]:
    name = r"([A-Z][a-z]+)"
    whose = r"(?:my|his|her|our|their|your)\s+(?:older\s+|younger\s+|little\s+|big\s+)?"
    before = re.findall(rf"\b(?:{words})\s+{name}", text)
    return set(before + re.findall(rf"\b{name},\s+{whose}(?:{words})\b", text))


def not_the_person_asked(ctx: Context, group: str, q: Question, subject: Subject | None,
                         verb: str | None) -> set[str]:
    """People (as `norm` values) a person question rules out though the turns name them near its words:
    a relative the graph holds as another kind ("his youngest child": not his wife), one introduced
    with the other gender's word ("her sister": not "my brother Marek"), a pet ("her sister's fiancé":
    no cat), and the relative herself when asked what she did ("who is Hedda's sister marrying")."""
    head = q.asked.head
    out: set[str] = set()
    noun = lexicon_for(ctx.registry).nouns.get(head) if subject is not None else None
    if noun is not None and subject is not None:
        out |= {norm(n) for n in other_relatives(ctx, group, subject.name, noun.predicate, noun.inverse)}
    if head:
        out |= {norm(n) for n in other_gender_named(ctx, group, head)}
    if kind_of_noun(head) == "person":
        out |= {norm(p.name) for p in group_pets(ctx, group).pets}
        out |= {w for forms in _ADDRESSED_AS for w in forms if head not in forms}  # "Mum" is no niece
    if head and verb not in (None, "call", "name") and re.search(
            rf"['\u2019]s\s+(?:\w+\s+)?{re.escape(head)}\b", q.text):
        out |= {norm(n) for n in named_as(ctx, group, head)}
    return out
