"""Indirect statements: facts said without their verb.

People rarely say "I live in X" or "I have a dog named Y"; they say "got the keys to a
flat in X", "first shift at Y was chaos", "adopted a cat! her name is kopi", "meet Maisie,
a rescue lurcher". Each rule here reads one such shape, with the speaker as subject, and
only on declarative, non-hypothetical sentences (the engine decides which). Changes said by what
happened (a theft, a promotion, a proposal, a cancelled trip) are in `indirect_changes.py`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tkg.extract import lexicon as lx
from tkg.extract.candidate import CONF_FIRST, CONF_LOOSE, Hit, Sentence
from tkg.extract.compiled import NAME, Compiled
from tkg.extract.gazetteer import is_place
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
# "got the keys to the Bedminster flat", "first night in the new Leith place": the home named before its noun
_KEYS_NAMED = re.compile(
    r"\b(?:(?P<subj>I|[Ww]e)(?:'ve|\s+have|\s+just|\s+finally)*\s+)?(?:got|get|picked\s+up|collected|"
    r"received)\s+(?:the|our|my)\s+keys\s+(?:to|for)\s+(?:the|our|my)\s+(?:new\s+)?(?=(?:[A-Z][\w\-]*\s+){1,3}"
    r"(?:flat|place|house|apartment|home|condo|studio|bungalow|cottage)\b)",
)
# "first night in Meanwood!! boxes everywhere": a first night (or weekend) somewhere, in a turn about moving
_FIRST_NIGHT = re.compile(
    _LEAD + r"(?i:(?:my\s+|our\s+)?(?:very\s+)?first\s+(?:night|nights|weekend|morning|evening)\s+"
    r"(?:alone\s+|properly\s+)?in\s+(?:the\s+new\s+(?:flat|place|house|home|apartment)\s+in\s+)?)(?=[A-Z])"
)
_MOVING = re.compile(r"\b(?:boxes|unpack\w*|moved|moving|keys|new\s+(?:flat|place|house|home))\b", re.I)
# "since June", "since 2021", "since the move": long enough to be living there, unlike "since Tuesday"
_LONG_AGO = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|"
    r"summer|autumn|fall|winter|\d{4}|last\s+(?:year|spring|summer|autumn|fall|winter)|the\s+move|we\s+moved)\b"
)
# "signed the lease on a flat in Porto", "writing from the new place in Ghent", "I'm in a share house in Leith
# now"
_HOME = (r"(?:flat|place|house|apartment|home|condo|studio|room|share\s+house|houseshare|flatshare|bungalow|"
         r"cottage|terrace|townhouse|maisonette|cabin|loft|duplex)")
# a room or part of a home one writes from ("writing from the new kitchen in Ely"): a home, said by its part
_HOME_PART = r"(?:kitchen|living\s+room|lounge|bedroom|balcony|garden|sofa|couch|porch)"
_HOME_WORDS = (
    "flat", "place", "house", "apartment", "home", "condo", "studio", "room", "since", "bungalow", "cottage",
    "terrace", "townhouse", "maisonette", "cabin", "loft", "duplex", "kitchen", "lounge", "balcony", "garden",
    "sofa", "couch", "porch",
)
_HOME_IN = re.compile(
    r"(?:\b(?P<subj>I|we)(?:'ve|\s+have|\s+just|\s+finally)*\s+)?(?:signed|got)\s+(?:the|a|our|my)\s+lease\s+"
    r"(?:on|for)\s+(?:a|an|the|my|our)\s+(?:[a-z][\w\-]*\s+){0,2}?" + _HOME + r"\s+in\s+"
    r"|\bfrom\s+(?:the|our|my)\s+new\s+(?:" + _HOME + "|" + _HOME_PART + r")\s+in\s+"
    r"|\b(?:writing|texting|typing|messaging|calling)\s+(?:to\s+(?:you|u)\s+)?(?:this\s+)?from\s+(?:a|an|the|our|my)\s+"
    r"(?:(?!hotel|hostel|airbnb|guest|hospital|dorm|friend|mum|mom|dad|parent|sister|brother)[\w\-]+\s+){0,3}?"
    + _HOME + r"\s+in\s+"
    r"|\b(?:found|got|rented|moved\s+into)\s+(?:a|an|our|my)\s+(?:[a-z][\w\-]*\s+){0,2}?" + _HOME
    + r"\s+(?:together\s+)?in\s+"
    r"|\b(?P<subj3>I|we)(?:'ve|\s+have)\s+been\s+in\s+(?=\S+(?:\s+\S+)?\s+since\s+" + _LONG_AGO + r")"
    r"|\b(?P<subj2>I'm|im|I\s+am|we're|we\s+are)\s+(?:now\s+)?(?:living\s+)?in\s+(?:a|an|our|my)\s+"
    r"(?:[a-z][\w\-]*\s+){0,2}?" + _HOME + r"\s+in\s+",
    re.I,
)
# "We're in Manchester now - we moved in July": where the speaker is now, in a turn about moving
_IN_NOW = re.compile(
    r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:now\s+|finally\s+|properly\s+)?in\s+(?=\S+(?:\s+\S+)?\s+now\b)",
    re.I,
)
_MOVED = re.compile(
    r"\b(?:moved|move|moving|relocated|settled|lease|keys|new\s+(?:place|flat|home|apartment)|"
    r"back\s+(?:in|at)\s+(?:my|our)\s+old|"
    r"(?:got|found)\s+a\s+(?:flat|place|house|apartment))\b",
    re.I,
)
# "moved in on saturday! the new place in Leith has a bath": the speaker's new home, in a turn about moving
_NEW_HOME_IN = re.compile(r"\b(?:(?:the|our|my)\s+)?new\s+" + _HOME + r"\s+in\s+", re.I)
# "Greetings from Vienna! ... I moved at the end of June": a greeting from the new home
_GREETING_FROM = re.compile(
    r"^\s*(?:hello|hi|hey|greetings|hola|ciao|love|writing(?:\s+to\s+(?:you|u))?)\s+from\s+", re.I
)
# the speaker moved (in): "moved in on saturday", "we've moved", "finally moved" (not "mum moved")
_MOVED_IN = re.compile(r"(?:^|[.!?]\s+|\b(?:I|we)(?:'ve|\s+have|\s+just|\s+finally)*\s+)"
                       r"(?:just\s+|finally\s+)?moved\b(?!\s+(?:my|the|a|an|his|her|our|their|it|them|some|all"
                       r"|everything)\b)", re.I)
# someone else said before a home ("Tom showed me the new flat", "her new place", "his sister's new flat");
# not the one the speaker moved in with ("moved in w Dev on sat. new place in Wash Park")
_NAMED_BEFORE = re.compile(r"(?<![.!?]\s)(?<!^)(?<!\bw\s)(?<!with\s)\b[A-Z][a-z]+\b"
                           r"|\b(?i:he|she|they|her|his|their|your)\b|'s\s+$")
# A third person right before the verb: the home is theirs ("Tom got a flat in Leeds", "she found a flat",
# "mum's moved into a flat", "my sister found a place")
_THIRD_BEFORE = re.compile(
    r"\b(?:he|she|they|it|someone|somebody|(?!(?:We|So|And|But|Then|Finally|Just|Also|Update|News)\b)[A-Z][a-z]+"
    r"|(?i:" + lx.BARE_KIN + r")|(?i:my|his|her|their|our)\s+[a-z]+)"
    r"(?:'s|\u2019s)?\s+(?:just\s+|finally\s+|also\s+)?$"
)
# the subject pronouns of a sentence: the last one before a verb says whose clause it is ("Mum's news:
# she's left Whitby and moved into a flat in Scarborough" is hers; "she said so I moved into a flat" mine)
_SUBJECTS = re.compile(r"\b(?:I|we|he|she|they)\b", re.I)


def third_subject(before: str) -> bool:
    """The last subject pronoun in ``before`` is a third person's.

    >>> third_subject("Mum's big news: she's left the house in Whitby and "), third_subject("she said so I ")
    (True, False)
    """
    found = [m.group(0).lower() for m in _SUBJECTS.finditer(before) if m.group(0) != "i"]
    return bool(found) and found[-1] in ("he", "she", "they")
# "still in Montreal", "I'm still in Ghent", "Still at Lumeway, still in Montreal": the speaker's home (or
# workplace) goes on; a clause of its own, never "my sister is still in Leeds"
_STILL = re.compile(
    r"(?:^|[,;]\s*|(?<=[.!?])\s+|\b(?:I'm|I\s+am|we're|we\s+are|im)\s+)(?:and\s+)?still\s+"
    r"(?:(?P<home>(?:living\s+|based\s+)?in)|(?P<work>(?:working\s+)?(?:at|for)))\s+(?=[A-Z])",
    re.I,
)
_THIRD_PERSON = re.compile(r"\b(?:she|he|her|his|him|they|their|them)\b", re.I)
# "first shift at the Royal Infirmary was chaos" (texting drops the "my")
_FIRST_AT = re.compile(
    _LEAD + r"(?i:(?:my\s+)?(?:very\s+)?first\s+(?:shift|day|week|month|rota)\s+(?:at|with))\s+"
)
# "her name is kopi", "his name's Bruno", "she's called Miso"; "I called him Migas" (who names it has it)
_PRONOUN_NAME = re.compile(
    r"\b(?:(?i:his|her|its|their)\s+names?(?:'s|\s+is|\s+was)|(?i:she|he|it)(?:'s|\s+is)\s+(?:called|named)"
    r"|(?P<namer>\b(?:I|[Ww]e)(?:'ve)?\s+(?:called|named)\s+(?:him|her|it))"
    r")\s+(?P<name>[A-Za-z][\w\-]*)\b"
)
# "I'm seeing someone. Her name is Clara": the name is the partner's
_SEEING = re.compile(
    r"\b(?:I'm|I\s+am|I've\s+been|we're|I\s+started)\s+(?:seeing|dating)\s+(?:someone|somebody)\b", re.I
)
# "a new companion: Maisie, a rescue lurcher", "Meet Pumpkin, our new kitten"
_FIRST_PERSON = re.compile(r"\b(?:I|we|my|our|me|us)\b|^(?:[Mm]eet|[Ss]ay hi to)\b", re.I)
_GOT_CUE = re.compile(
    r"\b(?:have|has|got|adopted|rescued|fostering|foster|brought\s+home|new|meet|welcomed)\b", re.I
)
# Nouns for a person: when one comes after the pet noun, "her name" is that person's.
_PERSON_WORDS = re.compile(
    r"\b(?:girl|boy|woman|man|guy|lady|baby|daughter|son|sister|brother|friend|colleague|"
    r"boss|teacher|neighbou?r|wife|husband|girlfriend|boyfriend|partner|kid|nurse|doctor)\b",
    re.I,
)


# The speaker got or has the pet: "I adopted a cat", "we've got a puppy", "our new kitten", "I'm fostering"
_OWN_PET = re.compile(
    r"(?:\b(?:I|we)(?:'ve|'re|'m)?\s+(?:[a-z]+\s+){0,2}?(?:have|got|adopted|rescued|fostering|"
    r"brought\s+home|picked\s+up|welcomed)\b|\b(?:my|our)\s+(?:new\s+|rescue\s+|little\s+)*"
    r"(?:dog|cat|puppy|kitten|pup|pet|bunny|rabbit|hamster)\b)",
    re.I,
)


@lru_cache(maxsize=16)
def _pet_rx(pet_nouns: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    noun = re.compile(r"\b(?:" + pet_nouns + r")(?![\w\-])", re.I)
    appos = re.compile(r"(?P<name>" + NAME + r")\s*,\s*(?:a|an|my|our)\s+(?:[\w\-]+\s+){0,2}?(?i:" + pet_nouns
                       + r")(?![\w\-])")  # "Kiwi, a Vizsla": a breed may be written with its capital
    # "She's a scruffy terrier called Pastel" (the pet was got earlier in the turn)
    # "our new puppy is a beagle called Dot": the pet noun says the kind, a breed word may stand for it
    pron = re.compile(r"\b(?:(?:[Ss]he|[Hh]e|[Ii]t)(?:'s|\s+is)\s+(?:a|an)\s+(?:[\w\-]+\s+){0,2}?(?:"
                      + pet_nouns + r")|(?:[Mm]y|[Oo]ur)\s+(?:new\s+|rescue\s+|little\s+)*(?:" + pet_nouns
                      + r")\s+is\s+(?:a|an)\s+(?:[\w\-]+\s+){0,2}?[\w\-]+)\s+(?:called|named)\s+(?P<name>"
                      + NAME + r")")
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
    for m in _KEYS_NAMED.finditer(sent.text) if "keys" in sent.text.lower() and "lives_in" in reg else ():
        if m.group("subj") is None and m.start() > 0 and not re.match(_LEAD + r"$", sent.text[: m.start()]):
            continue  # someone else's keys
        name = _before_home(sent.text[m.end():])
        if name and is_name(name):
            out.append(Hit(sent.speaker, "lives_in", name, confidence=CONF_FIRST - 0.1, anchor=m.end(),
                           indirect=True))
    first_night = _FIRST_NIGHT.match(sent.text) if "first" in sent.text.lower() else None
    if first_night and "lives_in" in reg and not sent.question and _MOVING.search(sent.turn or sent.text):
        for obj in take_objects(sent, first_night.end(), reg.get("lives_in"), allow_list=False):
            out.append(Hit(sent.speaker, "lives_in", obj, confidence=CONF_LOOSE, anchor=first_night.end(),
                           indirect=True))
    low = sent.text.lower()
    if "lives_in" in reg and any(k in low for k in _HOME_WORDS):
        for m in _HOME_IN.finditer(sent.text):
            if not (m.group("subj") or m.group("subj2") or m.group("subj3")) and (_THIRD_BEFORE.search(
                sent.text[: m.start()]
            ) or third_subject(sent.text[: m.start()])):
                continue  # "Tom got a flat in Leeds" is Tom's
            for obj in take_objects(sent, m.end(), reg.get("lives_in")):
                out.append(Hit(sent.speaker, "lives_in", obj, confidence=CONF_FIRST - 0.1, anchor=m.end(),
                               indirect=True))
    if "lives_in" in reg and (" now" in low or " from " in low) and _MOVED.search(sent.turn or sent.text):
        for m in [*_IN_NOW.finditer(sent.text), *_GREETING_FROM.finditer(sent.text)]:
            for obj in take_objects(sent, m.end(), reg.get("lives_in")):
                out.append(
                    Hit(sent.speaker, "lives_in", obj, confidence=CONF_LOOSE, anchor=m.end(), indirect=True)
                )
    moved = " new " in f" {low}" and not sent.question and _MOVED_IN.search(sent.turn or sent.text)
    for m in _NEW_HOME_IN.finditer(sent.text) if moved and "lives_in" in reg else ():
        if _NAMED_BEFORE.search(sent.text[: m.start()]):
            continue  # "Tom showed me the new flat in Leith": whose it is was said
        for obj in take_objects(sent, m.end(), reg.get("lives_in")):
            out.append(Hit(sent.speaker, "lives_in", obj, confidence=CONF_LOOSE, anchor=m.end(),
                           indirect=True))
    third = _THIRD_PERSON.search(sent.turn or sent.text)
    for m in _STILL.finditer(sent.text) if "still" in low else ():
        pred = "lives_in" if m.group("home") else "works_at"
        if pred not in reg or third and not re.search(r"\b(?:I|we)\b|\bim\b", m.group(0), re.I):
            continue  # "yep, still on the ward, still in Leeds. She says …": a reply about her
        for obj in take_objects(sent, m.end(), reg.get(pred), allow_list=False):
            if obj[:1].isupper() and is_place(obj) == (pred == "lives_in"):  # a town is no employer
                out.append(Hit(sent.speaker, pred, obj, confidence=CONF_LOOSE, anchor=m.end(), indirect=True))
    first = _FIRST_AT.match(sent.text) if "first" in low else None
    if first and "works_at" in reg:
        for obj in take_objects(sent, first.end(), reg.get("works_at")):
            if obj[:1].isupper():
                out.append(
                    Hit(
                        sent.speaker,
                        "works_at",
                        obj,
                        confidence=CONF_LOOSE,
                        anchor=first.end(),
                        indirect=True,
                    )
                )
    return out


def _before_home(text: str) -> str:
    """The capitalised words that open ``text`` up to its home noun ("Bedminster" of "Bedminster flat
    on Saturday")."""
    words = []
    for w in text.split():
        if not w[:1].isupper():
            break
        words.append(w)
    return clean_name(" ".join(words))


def pet_name_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """"adopted a cat!! her name is kopi" and "a new companion: Maisie, a rescue lurcher" -> has_pet;
    "I'm seeing someone. Her name is Nerys" -> partner_of.

    The pet noun must come before the name in the turn, with no person noun after it, and the
    speaker must be the one who has it ("I", "we", "my", "our").
    """
    if "has_pet" not in sent.registry:
        return []
    low = sent.text.lower()
    if "name" not in low and "called" not in low and "," not in low:
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
        before = sent.before + " " + sent.text[: m.start("name")]  # "our new puppy is a beagle called Dot"
        pets = list(noun_rx.finditer(before))
        if not pets or _PERSON_WORDS.search(before, pets[-1].end()):
            continue
        if not _OWN_PET.search(before) and not m.groupdict().get("namer"):
            continue  # "My niece got a hamster and her name is Pip": not the speaker's pet
        name = clean_name(m.group("name"))
        low = name.lower()
        if (
            not name
            or low in STOPWORDS
            or low in lx.NOT_NAMES
            or low in lx.PRONOUN_OBJECTS
            or noun_rx.fullmatch(name)
        ):
            continue
        out.append(Hit(sent.speaker, "has_pet", name[0].upper() + name[1:], confidence=CONF_FIRST - 0.1,
                       anchor=m.end()))
    # "we have a kitten now. Pesto, a Ragdoll, …": the pet was got in the sentence before
    if _FIRST_PERSON.search(sent.text) and _GOT_CUE.search(sent.text) or _OWN_PET.search(sent.before):
        for m in appos_rx.finditer(sent.text):
            name = clean_name(m.group("name"))
            if is_name(name):
                out.append(Hit(sent.speaker, "has_pet", name, confidence=CONF_FIRST - 0.1, anchor=m.end()))
    return out
