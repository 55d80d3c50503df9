"""`mentions()`: the named things a turn talks about, typed by the words around them.

Every capitalised run that is plausibly a name becomes a mention, for MENTIONS
edges and for grounding entity names in questions. The type is a cheap guess
from context: "my dog Biscuit" -> pet, "in Leeds" -> place, "St. Anne's
Hospital" -> organisation, "my sister Megan" or a known participant -> person.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tkg.extract import lexicon as lx
from tkg.extract.objects import clean_name, is_name
from tkg.predicates import REGISTRY, PredicateRegistry
from tkg.text import any_of, normalize_name, split_sentences, without_long_words

_RUN = re.compile(
    r"(?:[A-Z][\w'\-]*\.?|[A-Z]{2,})(?:\s+(?:(?:of|de|van|von|la|le|da|du|del|the)\s+)?(?:[A-Z][\w'\-]*\.?|&)){0,4}"
)
# the words just before a name (ending the text before it) or just after it (starting the rest)
_BEFORE_THE = r"\s+(?:the\s+)?$"
_ORG_BEFORE = any_of(
    r"work(?:s|ed|ing)?\s+(?:at|for)|join(?:s|ed|ing)?|hired\s+(?:by|at)|employed\s+(?:at|by)|"
    r"job\s+(?:at|with)|stud(?:y|ying|ies|ied)\s+at|started\s+at|member\s+of|graduated\s+from",
    after=_BEFORE_THE,
)
_PLACE_BEFORE = any_of(
    "in|to|from|at|near|visit(?:ed|ing)?|around|across|outside|toward|towards|via|through|into|of",
    after=_BEFORE_THE,
)
_PERSON_BEFORE = any_of("with|and|met|told|called|texted|asked|saw|thanks|thank|hey|hi|hello|dear|congrats|"
                        "congratulations|bye|love|miss|named|called", after=r"\s*,?\s*$")
_PERSON_AFTER = any_of(
    r"'s|said|says|told|asked|and\s+I|is\s+my|was\s+my|texted|called|!|,\s+(?:my|our)",
    before=r"^\s*",
    after="",
)


def _kin_words(registry: PredicateRegistry) -> tuple[frozenset[str], frozenset[str]]:
    pets: set[str] = set()
    people: set[str] = set()
    for p in registry.predicates():
        target = pets if p.object_type == "pet" else people if p.object_type == "person" else None
        if target is not None:
            target.update(n.lower() for n in (*p.nouns, *p.inverse_nouns))
    return frozenset(pets), frozenset(people)


_PETS, _PEOPLE = _kin_words(REGISTRY)


def _type(
    name: str, before: str, after: str, known: set[str], pets: frozenset[str], people: frozenset[str]
) -> str:
    if normalize_name(name) in known:
        return "person"
    prev_word = before.rstrip(" ,").split()[-1].lower() if before.strip(" ,") else ""
    if prev_word in pets:
        return "pet"
    if prev_word in people:
        return "person"
    last = normalize_name(name).split()[-1] if normalize_name(name) else ""
    if last in lx.ORG_WORDS or "&" in name or _ORG_BEFORE.search(before):
        return "organisation"
    if name.isupper() and len(name) > 1 and not _PLACE_BEFORE.search(before):
        return "organisation"  # "LGBTQ", "BBC"
    if _PLACE_BEFORE.search(before):
        return "place"
    if _PERSON_BEFORE.search(before) or _PERSON_AFTER.match(after):
        return "person"
    return "person" if " " not in name else "thing"


def mentions(
    text: str, *, speaker: str, listeners: Sequence[str], registry: PredicateRegistry | None = None
) -> list[tuple[str, str]]:
    """(surface name, type) of each named thing the turn mentions, first mention first, no repeats.

    >>> mentions("Hey Marco! My dog Biscuit hates the rain in Leeds.", speaker="Priya", listeners=["Marco"])
    [('Marco', 'person'), ('Biscuit', 'pet'), ('Leeds', 'place')]
    """
    pets, people = _kin_words(registry) if registry is not None else (_PETS, _PEOPLE)
    known = {normalize_name(n) for n in (speaker, *listeners)}
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for sentence in split_sentences(without_long_words(text.replace("\u2019", "'"))):
        for m in _RUN.finditer(sentence):
            name = clean_name(m.group(0))
            words = name.split()
            while words and words[0].lower().rstrip(".") in lx.NOT_NAMES:
                words = words[1:]  # "Hey Marco" -> "Marco"; "Thanks Caroline" -> "Caroline"
            if not words:
                continue
            name = " ".join(words)
            if not is_name(name) or name == "I" or len(name) < 2:
                continue
            if (
                m.start() == 0
                and len(words) == 1
                and words[0] == m.group(0)
                and name.lower().endswith(("ing", "s"))
            ):
                continue  # "Painting is fun", "Dogs are great"
            key = normalize_name(name)
            if not key or key in seen:
                continue
            seen.add(key)
            start = m.start() + m.group(0).find(words[0])
            out.append((name, _type(name, sentence[:start], sentence[m.end():], known, pets, people)))
    return out
