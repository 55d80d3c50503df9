"""Pets a conversation names without saying again what they are.

A pet is introduced once, if at all; after that it is just a name doing what pets do: "Juno
knocked my coffee off the desk", "took Rolo to the vet, he's in a cone", "Biscuit pulled me
up every hill". A question "what is Tom's cat called?" then finds no sentence with both "cat"
and a name, and its presupposition (Tom has a cat) looks unstated. This reads a group's turns
for names that behave like pets: said with pet cues (a vet, paws, a lead, a walk, purring, a
cat flap…) in at least `MIN_TURNS` turns and never with a person's cues (saying, texting, a
surname, a title, "my sister …"). Species cues ("a cat flap", "barked", "walk her") tell a cat
from a dog, and so does a reply that calls it "that cat". The owner is the speaker who names it
most. A dog only imagined ("if I got a dog I'd call it Waffles") is named in one turn: not a pet. A
name that is also a place's ("Paris") needs pet cues in `PLACE_NAMED_TURNS` turns and is never said
where a place goes ("moved to Paris"); the reader then takes it for no place or person.

Example::

    >>> turns = [("Ana", "Rolo knocked my mug off the desk again"), ("Ben", "ha, that cat"),
    ...          ("Ana", "took Rolo to the vet, his paw is fine")]
    >>> [(p.name, p.species, p.owner) for p in infer_pets(turns, ("Ana", "Ben"))]
    [('Rolo', 'cat', 'Ana')]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planners.head_words import ANIMALS, CAT_WORDS, DOG_WORDS
from tkg.models import Evidence
from tkg.words import is_place_name

from .about import Subject
from .backfill import turn_evidence
from .group_turns import turns_containing, turns_with_terms
from .reader import Reading
from .span_words import CHAT_WORDS

if TYPE_CHECKING:
    from tkg.context import Context

MIN_TURNS = 2  # turns with a pet cue a name needs to be read as a pet
PLACE_NAMED_TURNS = 3  # and a name that is also a place's ("a dog called Paris"), never said as a place
_SMALL = re.compile(r"\b[a-z]{3,}\b")
_OPENING = re.compile(r"(?:^|[.!?…:;\"(]|\n)\W*$")  # what comes before a word opening a sentence
_PLACE_BEFORE = re.compile(r"\b(?:in|to|from|at|near|around|across|visit(?:ed|ing)?|via|outside)\s+$", re.I)
_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")
# words a reply may be alone in a sentence ("Yes."), never a pet's name given alone
_REPLIES = frozenset("""yes yeah yep yup nope nah okay anyway anyways sure thanks cheers wow right well
    fine true exactly honestly seriously definitely absolutely totally agreed welcome sorry hello hey
    bye""".split())
# a name given in small letters ("we got a dog. rescue collie cross. called pilot"), or given alone
# right after the sentence that got the pet ("dev got a cat. pickle.", "adopted a greyhound. Nimbus.")
_CALLED = re.compile(r"\b(?:called|named)\s+([a-z]{3,})\b|[.!?]\s+([A-Za-z]{3,})\s*(?:[.!?]|$)")
# what a pet is said to have or do, whatever it is (whole words)
_PET = re.compile(
    r"\b(?:vets?|vet's|paws?|fur|furry|tail|treats|kibble|collar|microchip\w*|groom\w*|kennels?|cone|neutered|"
    r"spayed|rescue|shelter|pets?|flea\w*|worming|leash|lead|bowl|cage|hutch|litter|adopted|"
    + "|".join(sorted(ANIMALS)) + r"|dogs|cats|kittens|puppies)\b",
    re.I,
)
_CAT = re.compile(
    r"\b(?:purr\w*|meow\w*|miaow\w*|litter\s+(?:box|tray)|cat\s*flap|catnip|hairballs?|scratching\s+post|"
    r"knock(?:s|ed|ing)?\b[^.!?]{0,40}\boff)\b",
    re.I,
)
_DOG = re.compile(
    r"\b(?:bark\w*|fetch\w*|walkies|leash|on\s+(?:her|his|the)\s+lead|wag\w*|howl\w*|dog\s+park|"
    r"pull(?:s|ed|ing)?\s+(?:me|on)|walk(?:s|ed|ing)?\s+(?:her|him)\b)",
    re.I,
)
# what is said of a person, not of a pet: a name that speaks, is a relative, has a surname or a title
_PERSON_AFTER = re.compile(
    r"^(?:'s\s+(?:wife|husband|boyfriend|girlfriend|partner|job|boss|work|office|mum|mom|dad|parents|kids?|"
    r"children)\b|\s+(?:said|says|told|tells|texted|texts|messaged|emailed|called\s+me|asked|replied|"
    r"works|worked|studies|married|[A-Z][a-z]+))"
)
_PERSON_BEFORE = re.compile(
    r"\b(?:mr|mrs|ms|miss|dr|auntie|aunt|uncle|sister|brother|mum|mom|dad|friend|boss|colleague|cousin|"
    r"son|daughter|wife|husband|boyfriend|girlfriend|partner|baby|with\s+[A-Z][a-z]+\s+and)\.?\s+$",
    re.I,
)
_SPECIES_REPLY = re.compile(r"\b(?:that|the|your|ur)\s+(cat|dog|kitten|puppy|pup)\b", re.I)
_SPECIES = {"kitten": "cat", "puppy": "dog", "pup": "dog"}


@dataclass(frozen=True)
class Pet:
    """A name read as a pet: its species when cues tell it, the speaker who owns it, the turns
    that show it is a pet."""

    name: str
    species: str | None
    owner: str | None
    turns: tuple[int, ...]  # positions in the turns read


def _person(text: str, start: int, end: int) -> bool:
    after, before = text[end:end + 40], text[max(0, start - 30):start]
    return bool(_PERSON_AFTER.match(after) or _PERSON_BEFORE.search(before))


def infer_pets(turns: Sequence[tuple[str, str]], speakers: Sequence[str]) -> list[Pet]:
    """The names in ``turns`` ((speaker, text) in order) that behave like pets (see the module doc)."""
    said = {s.lower() for name in speakers for s in (name, name.split()[0])}
    cued: dict[str, set[int]] = {}
    person: set[str] = set()
    named: set[str] = set()  # capitalised inside a sentence, where only a name is ("took Rolo to the vet")
    placed: set[str] = set()  # names said where a place goes ("moved to Paris", "a week in Paris")
    by: dict[str, Counter[str]] = {}
    species: dict[str, Counter[str]] = {}
    words = {w for _, text in turns for w in _SMALL.findall(text)}
    small: dict[str, set[int]] = {}  # a name given small beside a pet cue, by its lower case: the turns
    small_by: dict[str, Counter[str]] = {}
    small_kinds: dict[str, Counter[str]] = {}
    for i, (speaker, text) in enumerate(turns):
        for m in _CALLED.finditer(text):
            given = (m.group(1) or m.group(2)).lower()
            before = text[:m.start() + 1]
            # for a name alone, the sentence before it
            told = before[max(before.rfind(c, 0, len(before) - 1) for c in ".!?") + 1:]
            window = text[max(0, m.start() - 80):m.end() + 80] if m.group(1) else told
            if given not in CHAT_WORDS | _REPLIES and given not in ANIMALS and (
                    _PET.search(window) or _CAT.search(window) or _DOG.search(window)):
                small.setdefault(given, set()).add(i)
                small_by.setdefault(given, Counter())[speaker] += 3  # who names it has it
                told_words = set(_SMALL.findall(window.lower()))
                small_kinds.setdefault(given, Counter()).update(
                    {"cat": len(_CAT.findall(window)) + 2 * bool(told_words & CAT_WORDS),
                     "dog": len(_DOG.findall(window)) + 2 * bool(told_words & DOG_WORDS)})
        for m in _NAME.finditer(text):
            name = m.group(0)
            if name.lower() in said or name.lower() in ANIMALS or _PET.fullmatch(name):
                continue  # a speaker, or a word for pets ("Pets are…") at a sentence's start
            if not _OPENING.search(text[:m.start()]):
                named.add(name)
            if _person(text, m.start(), m.end()):
                person.add(name)
                continue
            if _PLACE_BEFORE.search(text[max(0, m.start() - 20):m.start()]):
                placed.add(name)
            by.setdefault(name, Counter())[speaker] += 1
            window = text[max(0, m.start() - 80):m.end() + 80]
            if _PET.search(window) or _CAT.search(window) or _DOG.search(window):
                cued.setdefault(name, set()).add(i)
            kinds = species.setdefault(name, Counter())
            kinds["cat"] += len(_CAT.findall(window))
            kinds["dog"] += len(_DOG.findall(window))
            reply = turns[i + 1] if i + 1 < len(turns) else None
            if reply is not None and reply[0] != speaker and not _NAME.search(reply[1]):
                for word in _SPECIES_REPLY.findall(reply[1]):
                    kinds[_SPECIES.get(word.lower(), word.lower())] += 2
    for name in list(cued):  # "called pilot" with a dog, then "Pilot is a fine name": one pet, two turns
        if name.lower() in small:
            cued[name] |= small[name.lower()]
            by.setdefault(name, Counter()).update(small_by[name.lower()])
            species.setdefault(name, Counter()).update(small_kinds[name.lower()])
    pets = []
    for name, where in cued.items():
        if len(where) < MIN_TURNS or name in person or (name not in named and name.lower() in words):
            continue  # "The", "How", "Seeing": a word written small elsewhere, capitalised only as an opening
        if is_place_name(name) and (len(where) < PLACE_NAMED_TURNS or name in placed):
            continue  # "Paris" is a pet only when pet cues keep coming and it is never where someone is
        kinds = species.get(name, Counter())
        ranked = kinds.most_common(2)
        clear = ranked and ranked[0][1] > 0 and (len(ranked) < 2 or ranked[0][1] > ranked[1][1])
        kind = ranked[0][0] if clear else None
        owners = by[name].most_common(2)
        owner = owners[0][0] if len(owners) < 2 or owners[0][1] > owners[1][1] else None
        pets.append(Pet(name, kind, owner, tuple(sorted(where))))
    return pets


@dataclass(frozen=True)
class GroupPets:
    """A group's pets read off its turns, with the turns they were read from."""

    pets: list[Pet]
    rows: list[dict[str, object]]

    def __len__(self) -> int:  # what the group cache weighs it by
        return len(self.rows)


def group_pets(ctx: Context, group: str) -> GroupPets:
    """The group's pets (`infer_pets` over its turns with a pet cue), kept per write stamp."""
    def read() -> GroupPets:
        rows = _pet_rows(ctx, group)
        said = [(str(r["speaker"] or ""), str(r["text"] or "")) for r in rows]
        return GroupPets(infer_pets(said, tuple(ctx.speakers(group))), rows)
    return ctx.cache.get(group, "pets", ctx.stamp(group), read)


def owned_pets(ctx: Context, group: str, subject: Subject, head: str) -> list[tuple[Pet, list[Evidence]]]:
    """The subject's pets of the asked kind (``head``: "cat", "dog", or a word for any pet), each with
    the turns that show it."""
    found = group_pets(ctx, group)
    pets, rows = found.pets, found.rows
    # (a breed is its species: a spaniel is a dog, and an animal never said to be one is no spaniel)
    wanted = "dog" if head in DOG_WORDS else "cat" if head in CAT_WORDS else head
    out = []
    for pet in pets:
        if pet.owner is None or not subject.said_by(pet.owner):
            continue
        if wanted in ("cat", "dog") and pet.species != wanted:
            continue
        if wanted not in ("cat", "dog", "pet", "animal") and pet.species is not None:
            continue
        out.append((pet, [turn_evidence(rows[i], 1.0, group) for i in pet.turns]))
    return out


def _pet_rows(ctx: Context, group: str) -> list[dict[str, object]]:
    """The group's turns with a pet cue, and every turn naming a name they hold, in time order."""
    cued = turns_with_terms(ctx, group, ["vet", "paw", "purr", "bark", "walk", "lead", "leash", "cat", "dog",
                                         "pet", "litter", "knock", "pull", "kennel", "fur", "tail", "treat"],
                            2000)
    names = {m.group(0).lower() for r in cued for m in _NAME.finditer(r["text"] or "")}
    rows = {str(r["uuid"]): r for r in cued}
    for r in turns_containing(ctx, group, sorted(names)) if names else []:
        rows.setdefault(str(r["uuid"]), r)
    return sorted(rows.values(), key=lambda r: (r["valid_at"] is None, r["valid_at"], str(r["source_ref"])))


def pet_reading(
    pets: list[tuple[Pet, list[Evidence]]], evidence: list[Evidence], trace: dict[str, Any]
) -> Reading:
    """The answer from pets read off their behaviour: their names, the turns that show them first."""
    shown = [e for _, turns in pets for e in turns]
    support = list({e.episode: e for e in shown + evidence}.values())
    trace = {**trace, "pets": [{"name": p.name, "species": p.species, "owner": p.owner,
                                "turns": [e.source_ref for e in t]} for p, t in pets]}
    return Reading(" and ".join(p.name for p, _ in pets), False, support, trace, typed=True,
                   own=pets[0][0].owner)
