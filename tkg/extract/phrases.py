"""Noun-phrase rules: kinship and roles ("my sister Megan", "Dana, my manager,"), possessive
phrases ("your new place in Leeds"), favourites, birthdays, trips put off, pets lost.

A possessive presupposes its fact even inside a question ("how is your new
place in Leeds?" tells us the listener lives in Leeds), so `np_hits` runs on
questions too; the copular forms ("Dana is my manager") run on statements only.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from functools import lru_cache

from tkg.extract import lexicon as lx
from tkg.extract.candidate import CONF_FIRST, CONF_LOOSE, CONF_SECOND, CONF_THIRD, Hit, Sentence
from tkg.extract.compiled import NAME, POSS, Compiled
from tkg.extract.objects import clean_name, is_name, take_objects

_LATE = re.compile(r"\blate\s")
_COUPLES = ("married_to", "partner_of", "engaged_to")
_PRONOUN = re.compile(r"\b(?:I|my|me|we|our|you|your|it|they|them|he|she|this|that|there|what|which)\b", re.I)
_NP_CUE = re.compile(r"\b(?:[Mm]y|[Oo]ur|[Yy]our|named|called|[Cc]ongrat\w*)\b|'s\b")
_HAVE_CUE = re.compile(r"\b(?:have|has|had|got|adopted|rescued|brought)\b")
_NAME_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*")
_FAV = re.compile(r"(?<!one of )(?P<poss>" + POSS + r")\s+(?:(?:all[- ]time|absolute|very|current|new)\s+)?"
                  r"(?:favou?rite|fave)(?:\s+(?P<cat>[a-z]+(?:\s+[a-z]+){0,2}?))?\s+(?:of\s+all\s+time\s+|ever\s+)?"
                  r"(?:is|was|are|has\s+to\s+be|would\s+be|'s)\s+(?:(?:definitely|probably|still|now|currently)\s+)?")
_FAV_REV = re.compile(
    r"\s+(?:is|was|'s)\s+(?:(?:definitely|probably|still|now|also)\s+)?(?P<poss>\b[Mm]y|\b[Yy]our|"
    + NAME
    + r"'s)\s+(?:(?:all[- ]time|absolute|new)\s+)?(?:favou?rite|fave)\s+(?P<cat>[a-z]+"
    r"(?:\s+[a-z]+)?)\b"
)
_BIRTHDAY = re.compile(
    r"(?P<poss>" + POSS + r")\s+(?:birthday|bday|b-day)\s+(?:is|was|'s|falls)\s+|"
    r"(?P<subj>(?<![\w'])I|" + NAME + r")\s+was\s+born\s+(?=on|in\s+[A-Z])|"
    r"(?:it's|it\s+is|it\s+was|today\s+is)\s+(?P<today>" + POSS + r")\s+(?:birthday|bday)",
    re.I,
)
# a trip or a move, named by its place: "the Japan trip", "our trip to Japan", "the move to Bristol"
_TRIP = (
    r"(?:(?P<tposs>\b[Tt]he|\b[Oo]ur|\b[Mm]y|\b[Yy]our)\s+(?:(?P<place1>"
    + NAME
    + r")\s+(?:trip|move|holiday)|(?:trip|move|holiday|relocation)\s+to\s+(?P<place2>"
    + NAME
    + r")))"
)
_TRIP_CHANGED = re.compile(
    _TRIP
    + r"\s+(?:(?:is|was|has\s+been|got|'s|had\s+to\s+be)\s+(?:now\s+)?(?P<what>postponed|pushed\s+back|moved|"
    r"delayed|rescheduled|put\s+off|cancell?ed|called\s+off|off|scrapped)"
    r"|(?P<what2>fell\s+through|has\s+fallen\s+through|is(?:n't|\s+not)\s+happening|won't\s+happen))\b"
)
# "we're not moving to Bristol after all": the plan is off
_NOT_GOING = re.compile(
    r"(?P<who>(?<![\w'])I|\b[Ww]e)(?:'m|'re|\s+am|\s+are)\s+not\s+(?:moving|going|heading|flying|relocating)"
    r"\s+to\s+(?P<place2>" + NAME + r")\s+(?:after\s+all|any\s*more|now)\b"
)
_TRIP_ACT = re.compile(
    r"(?P<who>(?<![\w'])I|\b[Ww]e|\b[Yy]ou)(?:'ve|'ll)?\s+(?:(?:had\s+to|have\s+to|must|need\s+to|will|just|finally|"
    r"sadly|officially)\s+)*"
    r"(?P<what>postponed|pushed\s+back|moved|delayed|rescheduled|put\s+off|cancell?ed|cancel|called\s+off|"
    r"call\s+off|scrapped)\s+"
    + _TRIP
)
_PET_GONE = r"(?:\s*,?\s*(?P<name>" + NAME + r")\s*,?)?\s+(?:(?:sadly|just|recently|finally)\s+)?" \
            r"(?:passed\s+away|died|passed|ran\s+away|was\s+put\s+down|got\s+put\s+down|is\s+gone|went\s+missing)"


# "Fredek died on the 3rd of June": a name alone, which ends a pet of that name the speaker or the
# listener has (a retraction closes only an open edge to that very name: "Grandpa Joe died" closes none)
_NAMED_GONE = re.compile(r"(?<![\w'])(?P<name>" + NAME + r")\s+(?:(?:sadly|just|recently|finally|peacefully)"
                         r"\s+)?(?:passed\s+away|died|was\s+put\s+down|got\s+put\s+down)\b")


# small words a pet's name may follow ("so sorry Biscuit passed away"); after any other ("my grandad Joe
# died") the name is someone's relation's
_LEAD_INS = frozenset("and but so when since after because that oh well sadly sorry".split())


@lru_cache(maxsize=16)
def _pet_gone_rx(pet_nouns: str) -> re.Pattern[str]:
    return re.compile(r"(?P<poss>\b[Mm]y|\b[Oo]ur|\b[Yy]our)\s+(?:(?:" + lx.REL_ADJ + r")\s+){0,2}(?P<noun>"
                      + pet_nouns + r")" + _PET_GONE)


def _names(text: str) -> list[str]:
    return [clean_name(n) for n in _NAME_SPLIT.split(text) if n.strip() and is_name(n.strip())]


def _kin(
    sent: Sentence, comp: Compiled, owner_word: str, noun: str, names: list[str], conf: float
) -> list[Hit]:
    owner = sent.owner(owner_word)
    if owner is None or (owner_word.endswith("'s") and not is_name(owner)):
        return []
    if owner_word.lower() == "your":
        conf = min(conf, CONF_SECOND)
    out: list[Hit] = []
    for pred, inverse in comp.rel_nouns.get(noun.lower(), []):
        if pred not in sent.registry:
            continue
        for name in names:
            if name == owner:
                continue
            s, o = (name, owner) if inverse else (owner, name)
            out.append(Hit(s, pred, o, confidence=conf))
    return out


def np_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """Kinship/role phrases and possessive phrases (run on questions too: they presuppose)."""
    out = _have_named(sent, comp) if not sent.question and _HAVE_CUE.search(sent.text) else []
    if not _NP_CUE.search(sent.text):
        return out
    text = sent.text
    for rx in (comp.rel_np, comp.rel_named, comp.appositive):
        for m in rx.finditer(text) if rx is not None else ():
            names = _names(m.group("names") if "names" in m.re.groupindex else m.group("name"))
            kin = _kin(sent, comp, m.group("poss"), m.group("noun"), names, CONF_FIRST)
            if _LATE.search(m.group(0)):  # "my late wife Sheila": the marriage has ended
                kin = [replace(h, polarity="retract") if h.predicate in _COUPLES else h for h in kin]
            out += kin
    if not sent.question:
        for rx in (comp.is_my, comp.my_is):
            for m in rx.finditer(text) if rx is not None else ():
                out += _kin(sent, comp, m.group("poss"), m.group("noun"), _names(m.group("name")), CONF_THIRD)
    for m in comp.poss_np.finditer(text) if comp.poss_np is not None else ():
        pred_name = comp.possessive[" ".join(m.group("phrase").lower().split())]
        poss = m.group("poss")
        owner = sent.listener if poss.lower().startswith("congrat") else sent.owner(poss)
        if not owner or pred_name not in sent.registry:
            continue
        conf = CONF_FIRST if poss.lower() in ("my", "our") else CONF_SECOND
        for obj in take_objects(sent, m.end(), sent.registry.get(pred_name)):
            out.append(Hit(owner, pred_name, obj, confidence=conf, anchor=m.end()))
    return out


def _have_named(sent: Sentence, comp: Compiled) -> list[Hit]:
    """"I have a dog named Rolo", "we've got two cats, Milo and Otis", "... and a cat called Luna"."""
    out: list[Hit] = []
    if comp.have_named is None:
        return out
    for m in comp.have_named.finditer(sent.text):
        owner = m.group("subj")
        owner = "my" if owner.lower() in ("i", "we") else owner + "'s"
        if owner != "my" and not is_name(owner[:-2]):
            continue
        out += _kin(sent, comp, owner, m.group("noun"), _names(m.group("names")), CONF_FIRST)
        more = comp.and_named.match(sent.text, m.end()) if comp.and_named else None
        while more is not None and comp.and_named is not None:
            out += _kin(sent, comp, owner, more.group("noun"), _names(more.group("names")), CONF_FIRST)
            more = comp.and_named.match(sent.text, more.end())
    return out


def favorite_hits(sent: Sentence) -> list[Hit]:
    """"my favorite band is Radiohead", "Radiohead is my favourite band" -> favorite(qualifier=band)."""
    if "favorite" not in sent.registry or "fav" not in sent.text.lower():
        return []
    pred = sent.registry.get("favorite")
    out: list[Hit] = []
    for m in _FAV.finditer(sent.text):
        owner = sent.owner(m.group("poss"))
        cat = _category(m.group("cat") or "")
        for obj in take_objects(sent, m.end(), pred)[:1]:
            if owner:
                out.append(Hit(owner, "favorite", obj, qualifier=cat, confidence=_conf(m.group("poss"))))
    if sent.question:
        return out
    for m in _FAV_REV.finditer(sent.text):
        owner = sent.owner(m.group("poss"))
        head = sent.text[: m.start()]
        head = re.split(r"[,;:!?\-]|\.(?=\s)|\b(?:think|guess|say|says|said)\b", head)[-1]
        obj = re.sub(r"^\s*(?:the|a|an|oh|well|honestly|actually)\s+", "", head.strip(), flags=re.I).strip()
        words = obj.split()
        if (
            owner
            and 0 < len(words) <= 5
            and not _PRONOUN.search(obj)
            and words[0].lower() not in lx.NOT_NAMES
        ):
            out.append(
                Hit(
                    owner,
                    "favorite",
                    obj,
                    qualifier=_category(m.group("cat")),
                    confidence=_conf(m.group("poss")),
                )
            )
    return out


_TRAILING_TIME = (
    "now", "these days", "currently", "at the moment", "right now", "lately", "again", "too", "also",
)


def _category(cat: str) -> str:
    """The favourite's category, singular and without trailing time words ("band now" -> "band")."""
    cat = " ".join(cat.lower().split())
    for word in _TRAILING_TIME:
        if cat.endswith(" " + word):
            cat = cat[: -len(word) - 1].rstrip()
    if cat.endswith("s") and not cat.endswith(("ss", "us", "series")):
        cat = cat[:-1]
    return cat


def _conf(poss: str) -> float:
    return (
        CONF_FIRST if poss.lower() in ("my", "our") else CONF_SECOND if poss.lower() == "your" else CONF_THIRD
    )


def birthday_hits(sent: Sentence) -> list[Hit]:
    """"my birthday is on 3 March" / "I was born on 3 March 1990" -> birthday "3 March" (canonical text)."""
    if "birthday" not in sent.registry or not re.search(r"birthday|bday|b-day|born", sent.text, re.I):
        return []
    out: list[Hit] = []
    for m in _BIRTHDAY.finditer(sent.text):
        if m.group("today"):
            owner = sent.owner(m.group("today"))
            ref = next((t for t in sent.times if t.granularity == "day"), None)
            day = ref.start if ref else sent.when
            if owner:
                out.append(
                    Hit(owner, "birthday", _fmt(day, "day", False), confidence=_conf(m.group("today")))
                )
            continue
        word = m.group("poss") or m.group("subj")
        owner = sent.owner(word if word.lower() != "i" else "my")
        ref = next((t for t in sent.times if t.span[0] >= m.end() and t.span[0] - m.end() <= 4), None)
        if owner and ref and ref.granularity in ("day", "month"):
            explicit_year = bool(re.search(r"\d{4}", ref.text))
            out.append(
                Hit(
                    owner,
                    "birthday",
                    _fmt(ref.start, ref.granularity, explicit_year),
                    confidence=_conf("my" if word.lower() == "i" else word),
                )
            )
    return out


def _fmt(day: datetime, granularity: str, with_year: bool) -> str:
    if granularity == "month":
        return day.strftime("%B")
    text = f"{day.day} {day.strftime('%B')}"
    return f"{text} {day.year}" if with_year else text


def trip_hits(sent: Sentence) -> list[Hit]:
    """"the Japan trip is postponed to next year" -> plans Japan (new time); "we cancelled the trip to
    Japan", "the move to Bristol fell through", "we're not moving to Bristol after all" -> retract."""
    low = sent.text.lower()
    if "plans" not in sent.registry or not any(w in low for w in ("trip", "move", "holiday", "reloc", "not")):
        return []
    out: list[Hit] = []
    for rx in (_TRIP_CHANGED, _TRIP_ACT, _NOT_GOING):
        for m in rx.finditer(sent.text):
            place = clean_name(m.groupdict().get("place1") or m.group("place2"))
            if not is_name(place):
                continue
            who = m.groupdict().get("who") or m.group("tposs")
            owner = sent.speaker if who.lower() in ("the", "we", "i", "our", "my") else sent.listener
            if not owner:
                continue
            what = " ".join((m.groupdict().get("what") or "off").lower().split())
            cancelled = what.startswith(("cancel", "called", "scrapped", "off"))
            conf = CONF_FIRST if owner == sent.speaker else CONF_SECOND
            if cancelled:
                out.append(Hit(owner, "plans", place, polarity="retract", confidence=conf, anchor=m.end(),
                               object_type="place"))
            elif any(t.span[0] >= m.end() for t in sent.times):
                out.append(Hit(owner, "plans", place, confidence=conf, anchor=m.end(), object_type="place"))
    return out


def pet_gone_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """"our dog Biscuit passed away" -> has_pet Biscuit retracted; "Biscuit died on the 3rd" -> the
    speaker's and the listener's has_pet Biscuit retracted (only an open edge to Biscuit closes)."""
    if "has_pet" not in sent.registry or not re.search(r"died|passed|away|put down|gone|missing", sent.text):
        return []
    out: list[Hit] = []
    for m in _pet_gone_rx(comp.pet_nouns).finditer(sent.text):
        owner = sent.owner(m.group("poss"))
        name = m.group("name")
        obj = clean_name(name) if name and is_name(name) else m.group("noun").lower()
        if owner:
            out.append(
                Hit(owner, "has_pet", obj, polarity="retract", confidence=CONF_LOOSE + 0.1, anchor=m.end())
            )
    said = {h.object for h in out}
    for m in _NAMED_GONE.finditer(sent.text):
        name, before = clean_name(m.group("name")), sent.text[: m.start()].split()[-1:]
        if name in said or not is_name(m.group("name")) or len(name.split()) > 1 or (
                before and before[0][-1].isalpha() and before[0].lower() not in _LEAD_INS):
            continue  # "my grandad Joe died", "Anna Berg died": someone's name, no pet's
        out += [Hit(owner, "has_pet", name, polarity="retract", confidence=CONF_LOOSE + 0.1, anchor=m.end())
                for owner in dict.fromkeys((sent.speaker, sent.listener)) if owner]
    return out


_NAMED_IT = re.compile(r"\b(?:we|I)\s+(?:'ve\s+)?(?:named|called)\s+(?:it|him|her)\s+(?P<name>" + NAME + r")")


def pet_named_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """"We brought home a little hamster, we named it Biscuit" -> has_pet Biscuit (a pet noun must
    come before the naming, so "we named it Project X" about a product says nothing)."""
    if "has_pet" not in sent.registry:
        return []
    out: list[Hit] = []
    for m in _NAMED_IT.finditer(sent.text):
        before = sent.text[: m.start()].lower()
        if not re.search(r"\b(?:" + comp.pet_nouns + r")\b", before):
            continue
        name = m.group("name")
        if is_name(name):
            out.append(Hit(sent.speaker, "has_pet", clean_name(name), confidence=CONF_FIRST, anchor=m.end()))
    return out
