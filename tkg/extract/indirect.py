"""Indirect statements: facts said without their verb.

People rarely say "I live in X" or "I have a dog named Y"; they say "got the keys to a
flat in X", "first shift at Y was chaos", "adopted a cat! her name is kopi", "meet Maisie,
a rescue lurcher". Each rule here reads one such shape, with the speaker as subject, and
only on declarative, non-hypothetical sentences (the engine decides which).
"""

from __future__ import annotations

import re
from functools import lru_cache

from tkg.extract import lexicon as lx
from tkg.extract.candidate import CONF_FIRST, CONF_LOOSE, Hit, Sentence
from tkg.extract.compiled import NAME, Compiled
from tkg.extract.objects import clean_name, is_name, take_objects
from tkg.text import STOPWORDS

_LEAD = r"^\s*(?:(?:so|and|but|ok|okay|well|also|anyway|update|news|finally|officially|just)[,:!]?\s+)*"
# "got the keys to a tiny flat in Alfama", "picked up the keys for our new place in Leeds"
_KEYS = re.compile(
    r"\b(?:(?P<subj>I|we)(?:'ve|\s+have|\s+just|\s+finally)*\s+)?(?:got|get|picked\s+up|collected|received)\s+"
    r"(?:the|our|my)\s+keys\s+(?:to|for)\s+(?:a|an|the|my|our)\s+(?:[a-z][\w\-]*\s+){0,2}?"
    r"(?:flat|place|house|apartment|home|condo|studio|room)\s+in\s+",
    re.I,
)
# "first shift at the Royal Infirmary was chaos" (texting drops the "my")
_FIRST_AT = re.compile(_LEAD + r"(?i:(?:my\s+)?(?:very\s+)?first\s+(?:shift|day|week|month|rota)\s+(?:at|with))\s+")
# "her name is kopi", "his name's Bruno"
_PRONOUN_NAME = re.compile(r"\b(?i:his|her|its|their)\s+names?(?:'s|\s+is|\s+was)\s+(?P<name>[A-Za-z][\w\-]*)\b")
# "I'm seeing someone. Her name is Clara": the name is the partner's
_SEEING = re.compile(r"\b(?:I'm|I\s+am|I've\s+been|we're|I\s+started)\s+(?:seeing|dating)\s+(?:someone|somebody)\b",
                     re.I)
# "a new companion: Maisie, a rescue lurcher", "Meet Pumpkin, our new kitten"
_FIRST_PERSON = re.compile(r"\b(?:I|we|my|our|me|us)\b|^(?:[Mm]eet|[Ss]ay hi to)\b", re.I)
_GOT_CUE = re.compile(r"\b(?:have|has|got|adopted|rescued|fostering|foster|brought\s+home|new|meet|welcomed)\b",
                      re.I)
# Nouns for a person: when one comes after the pet noun, "her name" is that person's.
_PERSON_WORDS = re.compile(r"\b(?:girl|boy|woman|man|guy|lady|baby|daughter|son|sister|brother|friend|colleague|"
                           r"boss|teacher|neighbou?r|wife|husband|girlfriend|boyfriend|partner|kid|nurse|doctor)\b",
                           re.I)


@lru_cache(maxsize=16)
def _pet_rx(pet_nouns: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    noun = re.compile(r"\b(?:" + pet_nouns + r")(?![\w\-])", re.I)
    appos = re.compile(r"(?P<name>" + NAME + r")\s*,\s*(?:a|an|my|our)\s+(?:[\w\-]+\s+){0,2}?(?:" + pet_nouns
                       + r")(?![\w\-])")
    # "She's a scruffy terrier called Pastel" (the pet was got earlier in the turn)
    pron = re.compile(r"\b(?:[Ss]he|[Hh]e|[Ii]t)(?:'s|\s+is)\s+(?:a|an)\s+(?:[\w\-]+\s+){0,2}?(?:" + pet_nouns
                      + r")\s+(?:called|named)\s+(?P<name>" + NAME + r")")
    return noun, appos, pron


def home_and_work_hits(sent: Sentence) -> list[Hit]:
    """"got the keys to a flat in Alfama" -> lives_in Alfama; "first shift at X" -> works_at X."""
    out: list[Hit] = []
    reg = sent.registry
    if "keys" in sent.text.lower() and "lives_in" in reg:
        for m in _KEYS.finditer(sent.text):
            subj = m.group("subj")
            if subj is None and m.start() > 0 and not re.match(_LEAD + r"$", sent.text[: m.start()]):
                continue  # someone else's keys ("Tom got the keys ...")
            for obj in take_objects(sent, m.end(), reg.get("lives_in")):
                out.append(Hit(sent.speaker, "lives_in", obj, confidence=CONF_FIRST - 0.1, anchor=m.end(),
                               indirect=True))
    first = _FIRST_AT.match(sent.text)
    if first and "works_at" in reg:
        for obj in take_objects(sent, first.end(), reg.get("works_at")):
            if obj[:1].isupper():
                out.append(Hit(sent.speaker, "works_at", obj, confidence=CONF_LOOSE, anchor=first.end(), indirect=True))
    return out


def pet_name_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """"adopted a cat!! her name is kopi" and "a new companion: Maisie, a rescue lurcher" -> has_pet;
    "I'm seeing someone. Her name is Nerys" -> partner_of.

    The pet noun must come before the name in the turn, with no person noun after it, and the
    speaker must be the one who has it ("I", "we", "my", "our").
    """
    if "has_pet" not in sent.registry:
        return []
    noun_rx, appos_rx, pron_rx = _pet_rx(comp.pet_nouns)
    out: list[Hit] = []
    for m in _PRONOUN_NAME.finditer(sent.text) if "partner_of" in sent.registry else ():
        before = sent.before + " " + sent.text[: m.start()]
        seeing = list(_SEEING.finditer(before))
        name = clean_name(m.group("name"))
        if seeing and not noun_rx.search(before, seeing[-1].end()) and name[:1].isupper() and is_name(name):
            out.append(Hit(sent.speaker, "partner_of", name, confidence=CONF_FIRST - 0.1, anchor=m.end()))
    for m in [*_PRONOUN_NAME.finditer(sent.text), *pron_rx.finditer(sent.text)]:
        before = sent.before + " " + sent.text[: m.start()]
        pets = list(noun_rx.finditer(before))
        if not pets or _PERSON_WORDS.search(before, pets[-1].end()):
            continue
        if not _FIRST_PERSON.search(before) or not _GOT_CUE.search(before):
            continue
        name = clean_name(m.group("name"))
        low = name.lower()
        if not name or low in STOPWORDS or low in lx.NOT_NAMES or low in lx.PRONOUN_OBJECTS or noun_rx.fullmatch(name):
            continue
        out.append(Hit(sent.speaker, "has_pet", name[0].upper() + name[1:], confidence=CONF_FIRST - 0.1,
                       anchor=m.end()))
    if _FIRST_PERSON.search(sent.text) and _GOT_CUE.search(sent.text):
        for m in appos_rx.finditer(sent.text):
            name = clean_name(m.group("name"))
            if is_name(name):
                out.append(Hit(sent.speaker, "has_pet", name, confidence=CONF_FIRST - 0.1, anchor=m.end()))
    return out
