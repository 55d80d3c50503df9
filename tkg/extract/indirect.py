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
from tkg.extract.gazetteer import is_place
from tkg.extract.objects import clean_name, is_name, take_objects
from tkg.text import STOPWORDS, normalize_name

_LEAD = r"^\s*(?:(?:so|and|but|ok|okay|well|also|anyway|update|news|finally|officially|just)[,:!]?\s+)*"
# "got the keys to a tiny flat in Alfama", "picked up the keys for our new place in Leeds"
_KEYS = re.compile(
    r"\b(?:(?P<subj>I|we)(?:'ve|\s+have|\s+just|\s+finally)*\s+)?(?:got|get|picked\s+up|collected|received)\s+"
    r"(?:the|our|my)\s+keys\s+(?:to|for)\s+(?:a|an|the|my|our)\s+(?:[a-z][\w\-]*\s+){0,2}?"
    r"(?:flat|place|house|apartment|home|condo|studio|room)\s+in\s+",
    re.I,
)
# "since June", "since 2021", "since the move": long enough to be living there, unlike "since Tuesday"
_LONG_AGO = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|"
    r"summer|autumn|fall|winter|\d{4}|last\s+(?:year|spring|summer|autumn|fall|winter)|the\s+move|we\s+moved)\b"
)
# "signed the lease on a flat in Porto", "writing from the new place in Ghent", "I'm in a share house in Leith
# now"
_HOME = r"(?:flat|place|house|apartment|home|condo|studio|room|share\s+house|houseshare|flatshare)"
_HOME_IN = re.compile(
    r"(?:\b(?P<subj>I|we)(?:'ve|\s+have|\s+just|\s+finally)*\s+)?(?:signed|got)\s+(?:the|a|our|my)\s+lease\s+"
    r"(?:on|for)\s+(?:a|an|the|my|our)\s+(?:[a-z][\w\-]*\s+){0,2}?" + _HOME + r"\s+in\s+"
    r"|\bfrom\s+(?:the|our|my)\s+new\s+" + _HOME + r"\s+in\s+"
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
# "Greetings from Vienna! ... I moved at the end of June": a greeting from the new home
_GREETING_FROM = re.compile(
    r"^\s*(?:hello|hi|hey|greetings|hola|ciao|love|writing(?:\s+to\s+(?:you|u))?)\s+from\s+", re.I
)
# A third person right before the verb: the home is theirs ("Tom got a flat in Leeds", "she found a flat")
_THIRD_BEFORE = re.compile(
    r"\b(?:he|she|they|it|[A-Z][a-z]+|someone|somebody)\s+(?:just\s+|finally\s+|also\s+)?$"
)
# "someone stole my bike", "my van got nicked": an ownership ends
_STOLEN = re.compile(
    r"\b(?:stole|nicked|pinched|swiped)\s+(?P<poss>my|our)\s+(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)"
    r"|\b(?P<poss2>[Mm]y|[Oo]ur)\s+(?P<obj2>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)\s+(?:was|got|has\s+been)\s+"
    r"(?:stolen|nicked|pinched|swiped)\b"
)
# "I've accepted a job at Halcyon Books in Manchester, as a commissioning editor"
_JOB_AS = re.compile(
    r"\b(?:I|I've|I'm|I\s+have|I\s+just)\s+(?:[\w']+\s+){0,3}?(?:accepted|got|took|started|landed|"
    r"joined|hired)\b[^.;:!?]{0,60}?\b(?:job|position|role|post|offer|on|me)?\b[^.;:!?]{0,60}?,?\s+"
    r"as\s+(?:a|an)\s+(?P<title>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})"
)
_MODALISH = re.compile(r"\b(?:would|could|might|if|want|hope|wish|maybe)\b", re.I)
# "congrats on the promotion to sous chef", "my promotion to head nurse came through"
_PROMOTION = re.compile(
    r"\b(?P<poss>[Mm]y|[Yy]our|[Cc]ongrat(?:ulation)?s\s+on\s+(?:the|your)|promoted\s+(?:me|you))"
    r"\s+(?:promotion\s+)?to\s+"
    r"(?:a\s+|an\s+)?(?P<title>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})"
)
# "first shift at the Royal Infirmary was chaos" (texting drops the "my")
_FIRST_AT = re.compile(
    _LEAD + r"(?i:(?:my\s+)?(?:very\s+)?first\s+(?:shift|day|week|month|rota)\s+(?:at|with))\s+"
)
# "her name is kopi", "his name's Bruno"
_PRONOUN_NAME = re.compile(
    r"\b(?i:his|her|its|their)\s+names?(?:'s|\s+is|\s+was)\s+(?P<name>[A-Za-z][\w\-]*)\b"
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
    low = sent.text.lower()
    if "lives_in" in reg and any(k in low for k in _HOME_WORDS):
        for m in _HOME_IN.finditer(sent.text):
            if not (m.group("subj") or m.group("subj2") or m.group("subj3")) and _THIRD_BEFORE.search(
                sent.text[: m.start()]
            ):
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
        before = sent.before + " " + sent.text[: m.start()]
        pets = list(noun_rx.finditer(before))
        if not pets or _PERSON_WORDS.search(before, pets[-1].end()):
            continue
        if not _OWN_PET.search(before):
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
    if _FIRST_PERSON.search(sent.text) and _GOT_CUE.search(sent.text):
        for m in appos_rx.finditer(sent.text):
            name = clean_name(m.group("name"))
            if is_name(name):
                out.append(Hit(sent.speaker, "has_pet", name, confidence=CONF_FIRST - 0.1, anchor=m.end()))
    return out


_AFTER_TITLE = frozenset(
    "last next this yesterday today tonight now recently already finally officially".split()
)


def _title(text: str, vocab: frozenset[str]) -> str | None:
    """The job title at the start of `text`: words up to a vocabulary word that ends the phrase
    ("senior editor on their list" -> "senior editor"; "nurse educator" is not "nurse")."""
    words = text.lower().split()
    for n in range(len(words), 0, -1):
        nxt = words[n] if n < len(words) else ""
        if words[n - 1] in vocab and (
            not nxt or nxt in STOPWORDS or nxt in _AFTER_TITLE or not nxt.isalpha()
        ):
            return " ".join(words[:n])
    return None


def stolen_and_promoted_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """"someone stole my bike" -> owns bike retracted; "congrats on the promotion to sous chef" ->
    the listener's job_title."""
    out: list[Hit] = []
    reg = sent.registry
    low = sent.text.lower()
    if "owns" in reg and re.search(r"stole|stolen|nicked|pinched|swiped", low):
        for m in _STOLEN.finditer(sent.text):
            obj = m.group("obj") or m.group("obj2")
            owner = sent.owner(m.group("poss") or m.group("poss2"))
            thing = (
                take_objects(sent, m.start("obj"), reg.get("owns"), allow_list=False)
                if m.group("obj")
                else [obj]
            )
            if owner and thing and obj:
                out.append(Hit(owner, "owns", thing[0], polarity="retract", confidence=CONF_FIRST - 0.1,
                               anchor=m.end()))
    if "job_title" in reg and " as " in low:
        vocab = comp.vocab.get("job_title", frozenset())
        for m in _JOB_AS.finditer(sent.text):
            title = _title(m.group("title"), vocab)
            if title and not _MODALISH.search(m.group(0)):
                out.append(Hit(sent.speaker, "job_title", title, confidence=CONF_FIRST - 0.1, anchor=m.end()))
    if "job_title" in reg and "promot" in low:
        vocab = comp.vocab.get("job_title", frozenset())
        for m in _PROMOTION.finditer(sent.text):
            title = _title(m.group("title"), vocab)
            poss = m.group("poss").lower()
            owner = (sent.listener if poss.startswith("congrat") or poss.endswith("you")
                     else sent.speaker if poss.endswith("me") else sent.owner(poss))
            if owner and title:
                out.append(Hit(owner, "job_title", title, confidence=CONF_FIRST - 0.1, anchor=m.end()))
    return out


_HOME_WORDS = ("flat", "place", "house", "apartment", "home", "condo", "studio", "room", "since")
_LEAVE_CUE = re.compile(r"\b(?:left|leaving|quit|quitting|resigned|walked)\b")
_TRIP_CUE = re.compile(r"cancel|call(?:ed)? off|scrap|postpon|pushed back|put off|delay", re.I)
# "I left Larkspur in May", "I'm leaving Brindle Labs": only for a place the subject was said to be at
_LEAVE = r"(?:left|leaving|quit|quitting|resigned\s+from|am\s+leaving|'m\s+leaving|walked\s+out\s+of)"
# "I got the Halden job", "St. Olave's gave me my old job back"
_GOT_JOB = re.compile(
    r"\b(?:I|we)\s+(?:just\s+|finally\s+|actually\s+)?got\s+the\s+(?P<org>" + NAME + r")\s+job\b"
    r"|(?P<org2>" + NAME + r")\s+(?:gave|offered)\s+me\s+(?:a|the|my\s+old)\s+job\s+back\b"
)
# "Tom proposed on the beach and I said yes", "we called off the engagement"
_PROPOSED = re.compile(r"(?:^|[.!?]\s+)(?P<name>" + NAME + r"|[a-z][a-z\-]+)\s+proposed\b")
_SAID_YES = re.compile(r"\b(?:I|i)\s+said\s+yes\b")
_CALLED_OFF = re.compile(
    r"\b(?:(?P<x>" + NAME + r"|[a-z][a-z\-]+)\s+and\s+(?:I|i)|[Ww]e)\s+(?:have\s+|'ve\s+|just\s+|finally\s+)?"
    r"(?:called|broke|break|call)\s+off\s+(?:the|our)\s+engagement\b"
)


def _lower_name(word: str) -> str | None:
    """A name texting left lowercase ("marcus proposed"), or None for a word that is not one."""
    low = word.lower()
    if low in STOPWORDS or low in lx.NOT_NAMES or low in lx.PRONOUN_OBJECTS or low in lx.CANONICAL_KIN:
        return None
    return word[0].upper() + word[1:]


def change_hits(sent: Sentence, context: list[Hit], partner: str | None) -> list[Hit]:
    """Changes said by what happened, not by the slot: leaving a workplace named earlier, getting
    "the X job", a proposal accepted, an engagement called off."""
    out: list[Hit] = []
    reg = sent.registry
    text = sent.text
    held = {(h.predicate, h.object) for h in context if h.subject == sent.speaker and h.polarity == "assert"
            and h.predicate in ("works_at", "studies_at", "member_of")}
    for pred, obj in held if _LEAVE_CUE.search(text) else ():
        if re.search(
            r"\b(?:I|we)(?:'m|'ve|'re)?\s+(?:[a-z']+\s+){0,2}?"
            + _LEAVE
            + r"\s+(?:the\s+)?"
            + re.escape(obj)
            + r"\b(?!'s|\s+(?:early|late|at\s|around\s|by\s|for\s+the\s+day|tonight|today|now))",
            text,
        ):
            out.append(Hit(sent.speaker, pred, obj, polarity="retract", confidence=CONF_FIRST - 0.1))
    for m in _GOT_JOB.finditer(text) if "works_at" in reg and " job" in text else ():
        org = (m.group("org") or m.group("org2")).strip()
        if is_name(org):
            out.append(
                Hit(sent.speaker, "works_at", org, confidence=CONF_LOOSE, anchor=m.end(), indirect=True)
            )
    if "engaged_to" in reg and "proposed" in text and _SAID_YES.search(sent.turn or text):
        for m in _PROPOSED.finditer(text):
            raw = m.group("name")
            name = clean_name(raw) if raw[:1].isupper() and is_name(clean_name(raw)) else _lower_name(raw)
            if name and name not in (sent.speaker, *sent.listeners):
                out.append(Hit(sent.speaker, "engaged_to", name, confidence=CONF_FIRST - 0.1, anchor=m.end()))
    for m in _CALLED_OFF.finditer(text) if "engaged_to" in reg and "engagement" in text else ():
        x = m.group("x")
        other = (clean_name(x) if x[:1].isupper() else _lower_name(x)) if x else partner
        if other:
            out.append(Hit(sent.speaker, "engaged_to", other, polarity="retract", confidence=CONF_FIRST - 0.1,
                           anchor=m.end()))
    return out


# "I cancelled Japan", "we've postponed Peru until spring": a trip named by its place alone
_TRIP_BY_PLACE = re.compile(
    r"\b(?:I|[Ww]e)(?:'ve|'d)?\s+(?:(?:had|have|must|just|finally|sadly|officially|to|now)\s+)*"
    r"(?P<what>cancell?ed|cancel|called\s+off|call\s+off|scrapped|postponed|pushed\s+back|put\s+off|delayed)\s+"
    r"(?:(?:my|our|the)\s+)?(?P<place>" + NAME + r")(?!\s+(?:trip|holiday|vacation|visit))"
)


def trip_by_place_hits(sent: Sentence) -> list[Hit]:
    """"I cancelled Japan" -> plans Japan retracted; "we've postponed Japan until next spring" -> plans
    Japan at the new time. Only for a known place: "I cancelled Netflix" is no trip."""
    out: list[Hit] = []
    if "plans" not in sent.registry or not _TRIP_CUE.search(sent.text):
        return out
    for m in _TRIP_BY_PLACE.finditer(sent.text):
        place = clean_name(m.group("place"))
        if not is_place(place):
            continue
        what = m.group("what").lower()
        if what.startswith(("cancel", "call", "scrap")):
            out.append(Hit(sent.speaker, "plans", place, polarity="retract", confidence=CONF_FIRST - 0.1,
                           anchor=m.end(), object_type="place"))
        elif any(t.span[0] >= m.end() for t in sent.times):
            out.append(Hit(sent.speaker, "plans", place, confidence=CONF_FIRST - 0.1, anchor=m.end(),
                           object_type="place"))
    return out


def trip_done_hits(hits: list[Hit], context: list[Hit]) -> list[Hit]:
    """A visit to a place the subject had planned ("We just got back from Japan" after "planning a trip
    to Japan") ends the plan."""
    planned = {(h.subject, normalize_name(h.object)): h.object for h in context
               if h.predicate == "plans" and h.polarity == "assert"}
    return [Hit(h.subject, "plans", planned[(h.subject, normalize_name(h.object))], polarity="retract",
                confidence=h.confidence, anchor=h.anchor, object_type="place")
            for h in hits if h.predicate == "visited" and h.polarity == "assert"
            and (h.subject, normalize_name(h.object)) in planned]


# "my new boss at Halcyon, Priya Raman, is a dream"; "My boss will be Beatriz Castellano"
_BOSS_AT = re.compile(
    r"\b(?P<poss>[Mm]y|[Oo]ur)\s+(?:new\s+)?(?:boss|manager|supervisor|line\s+manager|team\s+lead)\s+"
    r"(?:(?:at|in)\s+(?P<org>" + NAME + r")\s*,\s*|will\s+be\s+)(?P<name>" + NAME + r")"
)
# "I got a job! Junior urban planner at Studio Ferrante" (the title and employer said without a verb)
_TITLE_AT = re.compile(
    r"^\s*(?P<title>[A-Za-z][\w\-]*(?:\s+[a-z][\w\-]*){0,3})\s+(?:at|with)\s+(?P<org>" + NAME + r")"
)
_GOT_JOB_CUE = re.compile(
    r"\b(?:got|landed|accepted|took)\s+(?:a|the|an)\s+(?:new\s+)?(?:job|offer|position|role)\b|"
    r"\bgot\s+hired\b|\bI'm\s+hired\b",
    re.I,
)


def role_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """A manager named after where they manage, or as the one to come; a job said as "Title at Org"
    right after the speaker says they got a job."""
    out: list[Hit] = []
    reg = sent.registry
    if "reports_to" in reg and re.search(r"boss|manager|supervisor|team lead", sent.text, re.I):
        for m in _BOSS_AT.finditer(sent.text):
            name = clean_name(m.group("name"))
            if is_name(name):
                out.append(Hit(sent.speaker, "reports_to", name, confidence=CONF_FIRST - 0.1, anchor=m.end()))
    said = _TITLE_AT.match(sent.text) if "job_title" in reg and _GOT_JOB_CUE.search(sent.before) else None
    title = _title(said.group("title"), comp.vocab.get("job_title", frozenset())) if said else None
    if said and title and title == " ".join(said.group("title").lower().split()):
        out.append(Hit(sent.speaker, "job_title", title, confidence=CONF_LOOSE, anchor=said.end()))
        if "works_at" in reg:
            out.append(Hit(sent.speaker, "works_at", said.group("org").strip(), confidence=CONF_LOOSE,
                           anchor=said.end()))
    return out
