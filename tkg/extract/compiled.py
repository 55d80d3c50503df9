"""Regexes built once per predicate registry from its verbs, nouns and phrases.

Building the alternations takes milliseconds but matching runs on every
sentence, so the result is cached per registry object (registries are
immutable). Longer phrases come first in each alternation so "get a job at"
wins over "get".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from tkg.extract import lexicon as lx
from tkg.predicates import PredicateRegistry

# A capitalised name of one to four words ("Megan", "St. Anne's", "New York City").
NAME = (r"(?:[A-Z][\w'\-]*\.?|[A-Z]{2,})(?:\s+(?:(?:of|de|van|von|la|le|da|du|del)\s+)?(?:[A-Z][\w'\-]*\.?"
        r"|&)){0,3}")
POSS = r"(?:\b[Mm]y|\b[Oo]ur|\b[Yy]our|" + NAME + r"'s)"
SUBJECT = (
    r"(?<![\w'])(?=[A-Zicwymo])(?P<subj>(?:(?P<co>" + NAME + r")\s+and\s+)?(?<![\w'])[Ii](?=['\s])"
    r"|\b[Mm]e\s+and\s+(?:(?:my|our)\s+(?:(?:"
    + lx.REL_ADJ
    + r")\s+){0,2}(?:{RELNOUNS})\s+)?(?P<co2>"
    + NAME
    + r")(?=\s+(?:are|were|have|had|will|'ll|just|both|went|got|moved|[a-z]+ed)\b)"
    r"|\b[Ww]e\b|\b[Yy]ou\b"
    r"|\b[Cc]ongrat(?:ulation)?s\s+on"
    r"|(?P<rposs>"
    + POSS
    + r")\s+(?:(?:"
    + lx.REL_ADJ
    + r")\s+){0,2}(?P<rnoun>{RELNOUNS})\b(?:,?\s+(?P<rname>"
    + NAME
    + r")\b,?)?"
    r"|(?P<pron>\b[Ss]he\b|\b[Hh]e\b)"
    r"|(?P<name>" + NAME + r")(?:\s+and\s+(?P<co3>" + NAME  # "Walter and Irene moved …": both
    + r")(?=\s+(?:are|were|have|had|both|live|got|just|[a-z]+ed)\b))?)"
)
MID = r"(?P<mid>(?:(?:\s+|(?='))(?i:" + lx.AUX_WORDS + r")\b)*)"
JOIN = r"(?:\s+|(?='))"


@dataclass(frozen=True)
class VerbEntry:
    predicate: str
    polarity: str  # assert | retract
    base: str  # the phrase as written in the registry, without {name}
    kind: str  # base | s | past | ger: the form of the first word that matched
    needs_name: bool = False
    loose: bool = False  # object must be in the predicate's vocabulary (or a short name)


@dataclass
class Compiled:
    """Everything the rules match with, for one registry."""

    clause: re.Pattern[str]
    together: re.Pattern[str] | None
    verbs: dict[str, list[VerbEntry]]
    together_verbs: dict[str, list[VerbEntry]]
    rel_nouns: dict[str, list[tuple[str, bool]]]  # noun -> [(predicate, inverse?)]
    rel_alt: str
    possessive: dict[str, str]  # phrase -> predicate
    poss_np: re.Pattern[str] | None
    rel_np: re.Pattern[str] | None
    rel_named: re.Pattern[str] | None
    have_named: re.Pattern[str] | None
    and_named: re.Pattern[str] | None
    appositive: re.Pattern[str] | None
    is_my: re.Pattern[str] | None
    my_is: re.Pattern[str] | None
    copula_job: re.Pattern[str] | None
    fan: re.Pattern[str]
    age: re.Pattern[str]
    plan: re.Pattern[str]
    vocab: dict[str, frozenset[str]] = field(default_factory=dict)
    pet_nouns: str = ""


def _alt(phrases: list[str]) -> str:
    uniq = sorted(set(phrases), key=lambda p: (-len(p), p))
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in uniq)


def _key(surface: str) -> str:
    return " ".join(surface.lower().replace("\u2019", "'").split())


def _verb_forms(phrase: str) -> list[tuple[str, str]]:
    """Surface forms of a verb phrase; "be from" also yields a bare "from" (kind "bare") for
    clauses whose be-verb sits among the auxiliaries ("I'm not from", "I've been to")."""
    words = phrase.split()
    forms = lx.inflections(words[0])
    rest = " ".join(words[1:])
    out = [((f"{f} {rest}" if rest else f), kind) for f, kind in forms.items()]
    if words[0] == "be" and rest:
        out.append((rest, "bare"))
    return out


def _table(registry: PredicateRegistry, attr: str) -> dict[str, list[VerbEntry]]:
    table: dict[str, list[VerbEntry]] = {}
    for p in registry.predicates():
        phrases: list[tuple[str, str]] = [(v, "assert") for v in getattr(p, attr)]
        if attr == "verbs":
            phrases += [(v, "retract") for v in p.retract_verbs]
        elif attr == "together_verbs":
            phrases += [(v, "retract") for v in p.together_retract_verbs]
        for phrase, polarity in phrases:
            needs_name = phrase.endswith("{name}")
            base = phrase.replace("{name}", "").strip()
            loose = bool(p.vocabulary) and p.name != "job_title"
            for surface, kind in _verb_forms(base):
                entry = VerbEntry(p.name, polarity, base, kind, needs_name, loose)
                table.setdefault(_key(surface), []).append(entry)
    return table


@lru_cache(maxsize=16)
def compile_registry(registry: PredicateRegistry) -> Compiled:
    """Build (once) the matchers for `registry`."""
    verbs = _table(registry, "verbs")
    together = _table(registry, "together_verbs")
    rel: dict[str, list[tuple[str, bool]]] = {}
    poss: dict[str, str] = {}
    vocab: dict[str, frozenset[str]] = {}
    pets: list[str] = []
    for p in registry.predicates():
        for n in p.nouns:
            rel.setdefault(n.lower(), []).append((p.name, False))
        for n in p.inverse_nouns:
            rel.setdefault(n.lower(), []).append((p.name, True))
        for ph in p.possessive:
            poss.setdefault(ph.lower(), p.name)
        if p.vocabulary:
            vocab[p.name] = frozenset(v.lower() for v in p.vocabulary)
        if p.object_type == "pet":
            pets += list(p.nouns)
    rel_alt = _alt(list(rel)) or r"(?!x)x"
    subject = SUBJECT.replace("{RELNOUNS}", rel_alt)
    verb_alt = _alt(list(verbs))
    clause = re.compile(subject + MID + JOIN + r"(?P<verb>(?i:" + verb_alt + r"))\b")
    tog = None
    if together:
        tog = re.compile(
            r"(?:(?P<a>" + NAME + r")\s+and\s+(?:I|me)|\bI\s+and\s+(?P<b>" + NAME + r")|(?P<we>\b[Ww]e)"
            r"|(?P<x>"
            + NAME
            + r")\s+and\s+(?P<y>"
            + NAME
            + r"))"
            + MID
            + JOIN
            + r"(?P<verb>"
            + _alt(list(together))
            + r")\b"
        )
    adj = r"(?:(?:" + lx.REL_ADJ + r")\s+){0,2}"
    names = r"(?P<names>" + NAME + r"(?:\s*(?:,\s*|\s+and\s+|\s*&\s*)" + NAME + r")*)"
    has_rel = bool(rel)
    job_vocab = vocab.get("job_title", frozenset())
    return Compiled(
        clause=clause,
        together=tog,
        verbs=verbs,
        together_verbs=together,
        rel_nouns=rel,
        rel_alt=rel_alt,
        possessive=poss,
        poss_np=re.compile(
            r"(?P<poss>"
            + POSS
            + r"|\b[Cc]ongrat(?:ulation)?s\s+on\s+(?:the|your))\s+(?P<phrase>"
            + _alt(list(poss))
            + r")\s+"
        )
        if poss
        else None,
        rel_np=re.compile(r"(?P<poss>" + POSS + r")\s+" + adj + r"(?P<noun>" + rel_alt + r"),?\s+" + names)
        if has_rel
        else None,
        rel_named=re.compile(
            r"(?P<poss>"
            + POSS
            + r")\s+"
            + adj
            + r"(?P<noun>"
            + rel_alt
            + r")'s\s+names?\s+(?:is|was|are)\s+"
            + names
        )
        if has_rel
        else None,
        have_named=re.compile(
            r"(?P<subj>(?<![\w'])I|\b[Ww]e|"
            + NAME
            + r")"
            + MID
            + JOIN
            + r"(?:have|has|had|got|adopted|rescued|brought\s+home)\s+(?:a|an|two|three|four|\d+|new)\s+"
            + adj
            + r"(?P<noun>"
            + rel_alt
            + r")(?:\s+(?:named|called)\s+|\s*[:,]\s*)"
            + names
        )
        if has_rel
        else None,
        and_named=re.compile(
            r"(?:\s*,\s*|\s+)(?:and\s+)?(?:also\s+)?(?:a|an|two|three|\d+)\s+"
            + adj
            + r"(?P<noun>"
            + rel_alt
            + r")\s+(?:named|called)\s+"
            + names
        )
        if has_rel
        else None,
        appositive=re.compile(
            r"(?P<name>"
            + NAME
            + r")\s*,\s*(?P<poss>\b[Mm]y|\b[Oo]ur|\b[Yy]our)\s+"
            + adj
            + r"(?P<noun>"
            + rel_alt
            + r")\s*(?:,|[.!?]|$)"
        )
        if has_rel
        else None,
        is_my=re.compile(
            r"(?P<name>" + NAME + r")(?:\s+(?:is|was|has\s+been)|'s)\s+(?:(?:also|still|actually|"
            r"now)\s+)?(?P<poss>\b[Mm]y|\b[Oo]ur|\b[Yy]our)\s+" + adj + r"(?P<noun>" + rel_alt + r")\b"
        )
        if has_rel
        else None,
        my_is=re.compile(
            r"(?P<poss>" + POSS + r")\s+" + adj + r"(?P<noun>" + rel_alt + r")(?:\s+(?:is|was)|'s)\s+"
            r"(?:(?:named|called)\s+)?(?P<name>" + NAME + r")\b(?!')"
        )
        if has_rel
        else None,
        copula_job=re.compile(
            subject.replace("{RELNOUNS}", rel_alt)
            + MID
            + JOIN
            + r"(?P<cop>am|'m|is|'s|are|'re|was|were|been|be|became|become|becomes|becoming|"
            # "got promoted to", "got made senior writer"
            r"(?:got\s+|get\s+|gotten\s+)?promoted\s+to|(?:got|gotten|was|were|been|be|being|get)\s+made)\s+"
            r"(?:(?:now|officially|currently|still)\s+)?"
            r"(?:(?:a|an)\s+|(?=(?:"
            + lx.RANKS
            + r")\s)|(?<=to\s)|(?<=made\s)|(?<=now\s)|(?<=officially\s)|(?<=currently\s))"
            r"(?P<obj>(?:(?:[a-z\-]+|[A-Z]{2,4})\s+){0,2}?(?:"
            + _alt(list(job_vocab))
            + r"))\b(?P<after>\s+(?:at|for|with)\s+)?",
        )
        if job_vocab
        else None,
        fan=re.compile(
            subject + MID + JOIN + r"(?P<cop>am|'m|is|'s|are|'re)\s+(?:a|an|such\s+a)\s+(?:(?:big|huge|"
            r"massive|great|die-hard|lifelong|long-time|total|real|true)\s+)?(?P<obj>" + NAME + r")\s+fan\b"
        ),
        age=re.compile(
            subject
            + MID
            + JOIN
            + r"(?P<cop>am|'m|is|'s|are|'re|turned|turn|turns|turning)\s+(?:now\s+|only\s+|"
            r"just\s+|officially\s+)?(?P<n>" + lx.NUMBER_RX + r")(?:\s+(?:years?|yrs?)(?:\s+old)?|\s*y/?o)?"
            r"(?=\s*(?:[.,!?;)]|$|(?:now|and|but|this|today|tomorrow|next|last|in|on|so|yesterday|already)\b))",
        ),
        plan=re.compile(
            subject
            + r"(?P<mid>(?:(?:\s+|(?='))(?:"
            + lx.AUX_WORDS
            + r")\b)*?)"
            + JOIN
            + r"(?P<plan>"
            + lx.PLAN
            + r")\s+(?P<act>[a-z])"
        ),
        vocab=vocab,
        pet_nouns=_alt(pets) if pets else r"(?!x)x",
    )
