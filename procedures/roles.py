"""The person a role noun names, read from the clause structure of the subject's turns.

"Where did Callum's *drummer* move?", "Which city is Ana's *co-founder* from?", "Where did her
*first employee* work before?": the vocabulary has no predicate for these roles, and the turns
rarely say the role next to a capitalised name ("hired my first employee, tui", "jez on drums",
"me and duarte started the shop"). `procedures.bridge` tries this reading when its scored spans
found nobody. A person is named for a role when the sentence says, by its parse:

1. the role noun and a name in apposition or by a copula ("my drummer, Jez", "Jez is my drummer");
2. the thing or act the role is named after, done by a name ("jez on drums", "Jez drums for us",
   "Jez founded it"): the base of an agent noun ("drummer" → drum, "founder" → found), kept only
   when English has that word (WordNet's lemmas, `tkg.words.is_common_word`);
3. for a joint role ("co-founder", "business partner", "bandmate"), a name joined with the
   subject speaking ("me and Jez", "Jez and I") in a sentence about the question's other words
   or about something of theirs ("our own bakery").

Example::

    >>> sorted(role_bases("drummer")), sorted(role_bases("employee")), sorted(role_bases("boss"))
    (['drum'], ['employ'], [])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tkg.models import Evidence
from tkg.nlp import parse
from tkg.text import content_terms, stem
from tkg.words import is_common_word

from .about import Subject

# agent and patient suffixes of role nouns, the first that leaves an English word wins: "drummer" →
# "drum", "employee" → "employ", "supervisor" → "supervise"
_SUFFIXES = ("ist", "ian", "ee", "er", "or")
# roles held together with the subject: a person named beside them ("me and Jez") holds it
_JOINT = frozenset("partner bandmate teammate classmate labmate flatmate housemate roommate colleague "
                   "coworker co-worker".split())
_FIRST_PERSON = frozenset({"i", "me"})
_OURS = frozenset({"our", "ours", "we"})
# chat words the parser may take for a name
_NOT_NAMES = frozenset({"lol", "haha", "omg", "yes", "yep", "nope", "ok", "okay"})


def role_bases(word: str) -> set[str]:
    """The stems of what an agent noun is named after ("drummer" → drum, "employee" → employ),
    only bases English has; empty for a noun that is not derived ("boss")."""
    core = word.lower().split("-")[-1]
    out: set[str] = set()
    for suffix in _SUFFIXES:
        if not core.endswith(suffix) or len(core) - len(suffix) < 3:
            continue
        base = core[: -len(suffix)]
        forms = [base, base + "e"]
        if len(base) > 3 and base[-1] == base[-2]:
            forms.insert(0, base[:-1])  # "drumm" → "drum"
        known = [f for f in forms if is_common_word(f)]
        if known:
            out.add(stem(known[0]))
            break
    return out


def joint_role(word: str, mods: Iterable[str] = ()) -> bool:
    """A role held together with the subject: "co-founder", "bandmate", "business partner"."""
    low = word.lower()
    return low.startswith("co-") or low.startswith("co") and is_common_word(low[2:]) and len(low) > 6 \
        or low in _JOINT or low.endswith("mate") and len(low) > 6 or "business" in mods


def name_like(t: Any) -> bool:
    """A token that can be a person's name: a proper noun, or a word English does not use."""
    if not t.is_alpha or t.is_stop or t.pos_ in ("PRON", "DET", "AUX", "VERB", "ADP", "CCONJ") \
            or t.lower_ in _NOT_NAMES or len(t.text) < 2:
        return False
    return t.pos_ == "PROPN" or t.ent_type_ == "PERSON" or not is_common_word(t.text)


def full_name(t: Any) -> str:
    """The name a token heads, with the proper nouns compounded before it ("Ifeoma Okafor")."""
    first = t
    while first.i > 0 and (prev := t.doc[first.i - 1]).dep_ == "compound" and prev.head.i == t.i \
            and prev.pos_ == "PROPN":
        first = prev
    return str(t.doc[first.i : t.i + 1].text)


def _is_role(t: Any, core: str) -> bool:
    return t.lower_ == core or t.lemma_.lower() == core


def _apposed(sent: Any, core: str) -> list[Any]:
    """Names in apposition to the role noun or linked to it by a copula."""
    out = []
    for t in sent:
        if not _is_role(t, core):
            continue
        out += [c for c in t.children if c.dep_ == "appos" and name_like(c)]
        if t.dep_ in ("appos", "compound", "nmod") and name_like(t.head):
            out.append(t.head)  # "Jez, my drummer", "drummer Jez", "my first apprentice, quillon"
        if t.head.lemma_ == "be" and t.dep_ in ("attr", "nsubj"):
            other = "nsubj" if t.dep_ == "attr" else "attr"
            out += [c for c in t.head.children if c.dep_ == other and name_like(c)]
    return out


def _doers(sent: Any, bases: set[str]) -> list[Any]:
    """Names doing what the role is named after: "jez on drums", "Jez founded it", "Jez plays drums"."""
    out = []
    for t in sent:
        if stem(t.lower_) not in bases and stem(t.lemma_.lower()) not in bases:
            continue
        if t.dep_ == "pobj" and t.head.dep_ == "prep" and name_like(t.head.head):
            out.append(t.head.head)  # "jez on drums"
        verb = t if t.pos_ == "VERB" else t.head if t.dep_ == "dobj" else None
        if verb is not None:
            out += [c for c in verb.children if c.dep_ == "nsubj" and name_like(c)]
    return out


def _beside(sent: Any) -> list[Any]:
    """Names joined with the speaker: "me and jez", "Jez and I"."""
    toks = list(sent)
    out = []
    for a, b, c in zip(toks, toks[1:], toks[2:], strict=False):
        if b.lower_ != "and":
            continue
        if a.lower_ in _FIRST_PERSON and name_like(c):
            out.append(c)
        elif c.lower_ in _FIRST_PERSON and name_like(a):
            out.append(a)
    return out


def named_for_role(word: str, mods: Iterable[str], subject: Subject, turns: list[Evidence],
                   terms: frozenset[str] | set[str]) -> list[tuple[str, Evidence]]:
    """Every (name, turn) the subject's turns name for the role ``word`` by clause structure (see the
    module doc), in the order of ``turns``. ``terms``: the question's own content stems besides the
    subject and the role, which a joint role's sentence must share (or say "our")."""
    core = word.lower().split("-")[-1]
    bases = role_bases(word)
    joint = joint_role(word, mods)
    out: list[tuple[str, Evidence]] = []
    for ev in turns:
        by_subject = (ev.speaker or "").lower() in subject.aliases
        for sent in parse(ev.text).sents:
            found = _apposed(sent, core) + _doers(sent, bases)
            words = {t.lower_ for t in sent}
            if joint and by_subject and (content_terms(sent.text) & terms or words & _OURS):
                found += _beside(sent)
            out += [(full_name(t), ev) for t in found if not subject.named_in(t.text)]
    return out
