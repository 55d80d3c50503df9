"""What a question takes as given: the names it mentions besides its subject, the relative or pet
it asks about or gives someone ("the name of Tobias's *dog*", "when did Jess name *her cat*"), and
how a turn says one of them (a name misspelt, a going somewhere). `procedures.premise` checks them
against the turns.

Example::

    >>> {"dog", "puppy", "perro"} <= presupposed_nouns("What is the name of Tobias's dog?", "dog")
    True
    >>> heading_to("off to ireland on friday", "ireland")
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rapidfuzz import fuzz

from planners.head_words import (
    ANIMALS,
    CAT_WORDS,
    DOG_WORDS,
    FOREIGN_CATS,
    FOREIGN_DOGS,
    FOREIGN_PARTNERS,
    kind_of_noun,
)
from planners.question import Question
from tkg.text import stems_of
from tkg.words import is_common_word, is_place_name

from .about import Subject, word_pattern

# a couple's own words say a partner too: "me n hana split up", "maya's moving in w me next month"
_COUPLE = ("split up", "broke up", "moving in with", "moved in with", "moving in w", "moved in w",
           "on a date", "first date", "second date")
# relatives and animals a question may presuppose, with the words that state one
KIN: dict[str, frozenset[str]] = {
    "child": frozenset({"child", "children", "kid", "kids", "baby", "son", "daughter", "newborn", "toddler"}),
    "baby": frozenset({"baby", "newborn", "pregnant", "child", "son", "daughter"}),
    "son": frozenset({"son", "boy", "kid", "kids", "child", "children"}),
    "daughter": frozenset({"daughter", "girl", "kid", "kids", "child", "children"}),
    "girlfriend": frozenset({"girlfriend", "gf", "dating", "seeing", "partner", *_COUPLE, *FOREIGN_PARTNERS}),
    "boyfriend": frozenset({"boyfriend", "bf", "dating", "seeing", "partner", *_COUPLE, *FOREIGN_PARTNERS}),
    "wife": frozenset({"wife", "married", "wedding"}),
    "husband": frozenset({"husband", "married", "wedding"}),
    # (an animal is a "pet" in its owner's own words too: "Pets are the best. I still miss Max")
    "dog": frozenset({"pet", "pets"}) | DOG_WORDS | FOREIGN_DOGS,  # a breed too: "meet mabel. lurcher"
    "cat": frozenset({"pet", "pets"}) | CAT_WORDS | FOREIGN_CATS,
    # not everyone has one: "the name of Ingrid's sister" of someone who only ever names a brother
    "sister": frozenset({"sister", "sisters", "sis", "siblings", "twin"}),
    "brother": frozenset({"brother", "brothers", "bro", "siblings", "twin"}),
}

_CALENDAR = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun".split())
MISSPELT = 90  # rapidfuzz ratio at which a long name is the same name misspelt ("Xenoblade", "Xeonoblade")
MISSPELT_MIN = 7  # names shorter than this are matched exactly ("Ireland" is not "Iceland")
_PRESUPPOSING = frozenset({"pet_name", "animal", "person"})


_RELATIVE_BEFORE = re.compile(r"[A-Za-z]['\u2019]s\s+(?:\w+\s+)??([a-z]+)\b")  # "Imogen's (older) sister"
_OWNED_WORDS = "|".join([*KIN, *sorted(ANIMALS)])
_OWNED = re.compile(  # "her cat", "Jess's new puppy": a relative or pet the question gives someone
    rf"\b(?:his|her|their|[A-Z][\w-]*['\u2019]s)\s+(?:new\s+|late\s+|old\s+)?({_OWNED_WORDS})(?![\w-])")
_NAMED_AFTER = re.compile(r"\s+[A-Z][a-z]+\b(?!['\u2019])")  # a name right after, not a possessive
# "the dog that belongs to Jamie's (former) flatmate", "…to Euan's sister's fiancé": the subject's
# relative the owner is, or is reached through
_BELONGING = re.compile(r"\b(?:belong(?:s|ing|ed)?\s+to|owned\s+by)\s+[\w-]+['\u2019]s\s+(?:[a-z]+\s+)??"
                        r"([a-z\u00c0-\u024f-]+)", re.I)
# "the dog of Jade's fiancé", "the dog that lives with Kofi's (older) sister": whose it is, when the
# word after the possessive is a person's ("the name of Margaret's spaniel" is hers)
_OF_PERSON = re.compile(r"\b(?:of|(?:that|which|who)\s+lives?\s+with|living\s+with)\s+[\w-]+['\u2019]s\s+"
                        r"(?:[a-z]+\s+)?([a-z\u00c0-\u024f-]+)\b(?!['\u2019]s)", re.I)


def names_a_thing(word: str, question: str) -> bool:
    """A capitalised word of the question that names something ("Lisbon", "Fagiolo"), not a word
    capitalised by position or habit ("According", "TV", "Aug", "European")."""
    if word.isupper() and len(word) <= 4:
        return False
    if question.lstrip().startswith(word):
        return False
    return word.lower() not in _CALENDAR and not (is_common_word(word) and not is_place_name(word))


def same_word(a: str, b: str) -> bool:
    """Two stems of one word: the same stem, or one the stemmer split differently ("propose" from the
    question, "propos" from "proposed"): one begins the other and they share five letters or more.

    >>> same_word("move", "move"), same_word("propose", "propos"), same_word("move", "mov")
    (True, True, False)
    """
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 5 and long.startswith(short) and len(long) - len(short) <= 2


def presupposed_nouns(question: str, head: str) -> set[str]:
    """The words that would state the relative or animal ``head`` that the question takes as given."""
    if head in KIN:
        return set(KIN[head])
    return {head, head + "s"} if head else set()


def presupposed(q: Question) -> set[str]:
    """The words that would state the relative or pet a question takes as given, whatever it asks
    ("where does Lena's *son* live", "the name of Tobias's *dog*"); empty when it presupposes none."""
    asked = q.asked
    owned = _OWNED.search(q.text)  # "what did Jess name *her cat*": whatever is asked, the cat is given
    if owned is not None and _NAMED_AFTER.match(q.text, owned.end()):
        return set()  # "when did Becca's son Ollie start school": Ollie, named, is the son
    if owned is not None and not (asked.head in KIN or asked.head in ANIMALS):
        other = _RELATIVE_BEFORE.search(q.text, 0, owned.start())
        if other is not None and owned.group(0).split()[0].lower() in ("his", "her", "their"):
            # "when did Imogen's sister have *her* baby": the sister's baby; the sister is given
            whose = other.group(1).lower()
            return presupposed_nouns(q.text, whose) if whose in KIN else set()
        return presupposed_nouns(q.text, owned.group(1).lower())
    if not (asked.head in KIN or (asked.kind in _PRESUPPOSING and asked.head in ANIMALS)):
        return set()
    owner = _BELONGING.search(q.text)
    if owner is None:
        owner = next((m for m in _OF_PERSON.finditer(q.text) if kind_of_noun(m.group(1)) == "person"), None)
    if owner is not None:  # the pet is not the subject's; the relative it is had through is
        whose = owner.group(1).lower()
        return presupposed_nouns(q.text, whose) if whose in KIN else set()
    chain = re.search(rf"['\u2019]s\s+([a-z-]+)['\u2019]s\s+(?:[a-z-]+\s+){{0,2}}{re.escape(asked.head)}\b",
                      q.text, re.I)
    if chain is not None:  # "Hannah's sister's baby": the baby is the sister's; Hannah's sister is given
        return presupposed_nouns(q.text, chain.group(1).lower()) if chain.group(1).lower() in KIN else set()
    return presupposed_nouns(q.text, asked.head)


def titles(name: str, subject: Subject | None, question: str) -> bool:
    """``name`` is a word said just before the subject's name, part of how they are called ("Nana
    Rosa", "Uncle Tomás"), not a thing the question takes as given."""
    return subject is not None and any(
        re.search(rf"\b{re.escape(name)}\s+{re.escape(a)}\b", question, re.I) for a in subject.aliases)


def says_name(name: str, text: str) -> bool:
    """Whether lower-case ``text`` says the lower-case ``name``: as a whole word, or for a long
    one-word name also misspelt (either side may be: people type fast).

    >>> says_name("xenoblade", "i'm playing xeonoblade chronicles")
    True
    """
    if word_pattern(name).search(text):
        return True
    if len(name) < MISSPELT_MIN or " " in name:
        return False
    words = (w for w in re.findall(r"[^\W_]+", text) if abs(len(w) - len(name)) <= 2)
    return any(fuzz.ratio(name, w) >= MISSPELT for w in words)


def names_no_one(sent: Any, name: str) -> bool:
    """Each time the parsed sentence says the one-word ``name`` (lower case), it talks of the name as a
    name ("Fela is a sweet name", "Tupsu is a top dog name"): the one a wish gave, not one a pet has.

    >>> from tkg.nlp import parse
    >>> [names_no_one(next(parse(t).sents), "tupsu") for t in ("Tupsu is a top dog name",
    ...                                                        "Tupsu is asleep on the sofa")]
    [True, False]
    """
    said = [t for t in sent if t.lower_ == name]
    return bool(said) and all(t.dep_ == "nsubj" and t.head.lemma_ == "be" and any(
        c.dep_ == "attr" and c.lemma_.lower() == "name" for c in t.head.children) for t in said)


_ANCHOR = r"(?:after|before|since|while|during|until)"
# going somewhere is said many ways ("leave for Oslo", "I'm off to Oslo", "flying to Oslo")
GOING = stems_of(["leave", "leaving", "go", "going", "travel", "travelling", "fly", "flying", "head",
                  "heading", "trip", "visit", "visiting"])


def heading_to(text: str, name: str) -> bool:
    """Whether lower-case ``text`` says someone goes to the lower-case place ``name`` ("off to
    ireland", "a trip to the alps", "leaving for rome")."""
    return re.search(rf"\b(?:to|for)\s+(?:the\s+)?{re.escape(name)}\b", text) is not None


def anchoring(question: str, name: str) -> bool:
    """Whether ``name`` sits in a clause that only dates the asked event ("when did she call her
    sister *after getting back from Oslo*"): that place is presupposed alone, not with the event."""
    return re.search(rf"\b{_ANCHOR}\b[^,;?]*?\b{re.escape(name)}\b", question, re.I) is not None


def one_name(question: str, names: Iterable[str]) -> dict[str, set[str]]:
    """The parts of one name the question says side by side ("the Skoda Octavia", "Hollin Tarn") that
    follow each part: a turn that says the last part states it ("the octavia"), not one that says only
    a part before it ("a flat in Kreuzberg" for "the Kreuzberg Altbau").

    >>> parts = one_name("What car did Dean drive before the Skoda Octavia?", ["dean", "skoda", "octavia"])
    >>> sorted(parts["skoda"]), sorted(parts["octavia"]), sorted(parts["dean"])
    (['octavia', 'skoda'], ['octavia'], ['dean'])
    """
    low = " ".join(question.lower().split())
    parts = {n: {n} for n in names}
    for a in reversed(list(parts)):  # (a run read from its end: "A B C" gives A every part after it)
        for b in parts:
            if a != b and f"{a} {b}" in low:
                parts[a] |= parts[b]
    return parts
