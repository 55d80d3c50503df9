"""Changes said by what happened, not by the slot's verb.

"someone stole my bike" ends an ownership, "traded in my Civic for a Honda Odyssey" starts one,
"congrats on the promotion to sous chef" gives a job title, "I left Larkspur" ends a job named
earlier, "Tom proposed and I said yes" an engagement, "I cancelled Japan" a trip; a manager named
after where they manage and "Title at Org" after getting a job say the new role. Like
`indirect.py`, each rule reads one shape of sentence.
"""

from __future__ import annotations

import re

from tkg.extract import lexicon as lx
from tkg.extract.candidate import CONF_FIRST, CONF_LOOSE, Hit, Sentence
from tkg.extract.compiled import NAME, Compiled
from tkg.extract.gazetteer import is_place
from tkg.extract.objects import clean_name, is_name, take_objects
from tkg.text import STOPWORDS, normalize_name
from tkg.vehicle_words import names_vehicle

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
# "I traded in my Civic for a used Honda Odyssey", "swapped the old van for an e-bike": the new one is theirs;
# texting leaves the "I" out at a sentence's start ("Traded it in for a secondhand Nissan Leaf")
_TRADED = re.compile(
    r"(?:\b(?P<poss0>I|we)(?:'ve|\s+have|\s+just|\s+finally)*\s+|^\s*(?:(?i:so|then|and|finally)\s+)?)"
    r"(?i:traded|swapped|exchanged|part-exchanged)\s+"
    r"(?:in\s+)?(?:(?:my|our|the)\s+[^.;:!?]{1,40}?|it|her|him)\s+(?:in\s+)?for\s+(?:a|an|the|my)\s+(?:(?:used|new|second-hand|secondhand|"
    r"brand\s+new|old|little|tiny|shiny)\s+)?(?=\S)"
)
_MODALISH = re.compile(r"\b(?:would|could|might|if|want|hope|wish|maybe)\b", re.I)
# "congrats on the promotion to sous chef", "my promotion to head nurse came through"
_PROMOTION = re.compile(
    r"\b(?P<poss>[Mm]y|[Yy]our|[Cc]ongrat(?:ulation)?s\s+on\s+(?:the|your)|promoted\s+(?:me|you))"
    r"\s+(?:promotion\s+)?to\s+"
    r"(?:a\s+|an\s+)?(?P<title>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})"
)


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
    if "owns" in reg and re.search(r"traded|swapped|exchanged", low):
        for m in _TRADED.finditer(sent.text):
            for got in take_objects(sent, m.end(), reg.get("owns"), allow_list=False):
                if not names_vehicle(got):
                    continue  # "traded my shift for a day off"
                out.append(Hit(sent.speaker, "owns", got, confidence=CONF_FIRST - 0.1, anchor=m.end()))
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


_LEAVE_CUE = re.compile(r"\b(?:left|leaving|quit|quitting|resigned|walked)\b")
_TRIP_CUE = re.compile(r"cancel|call(?:ed)? off|scrap|postpon|pushed back|put off|delay", re.I)
# "I left Larkspur in May", "I'm leaving Brindle Labs": only for a place the subject was said to be at
_LEAVE = r"(?:left|leaving|quit|quitting|resigned\s+from|am\s+leaving|'m\s+leaving|walked\s+out\s+of)"
# "I got the Halden job", "St. Olave's gave me my old job back"
_GOT_JOB = re.compile(
    r"\b(?:I|we)\s+(?:just\s+|finally\s+|actually\s+)?got\s+the\s+(?P<org>" + NAME + r")\s+job\b"
    r"|(?P<org2>" + NAME + r")\s+(?:gave|offered)\s+me\s+(?:a|the|my\s+old)\s+job\s+back\b"
)
# a job offer that ended before it began: "the offer got withdrawn", "they rescinded the offer"
_WITHDRAWN = re.compile(
    r"\b(?:offer|job)\b[^.!?]{0,30}?\b(?:withdrawn|withdrew|rescinded|pulled|revoked|fell\s+through"
    r"|fallen\s+through|cancell?ed)\b|\b(?:withdrew|rescinded|pulled|revoked)\s+(?:the|their|my)\s+(?:job\s+)?offer\b",
    re.I,
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
    theirs = re.search(r"\b(?:\w+'s|his|her)\s+(?:new\s+)?(?:job\s+)?offer\b", text, re.I)  # a friend's
    if _WITHDRAWN.search(text) and not theirs:  # "scrap Bellwether, the offer got withdrawn"
        turn = (sent.turn or text).lower()
        for pred, obj in held:
            if pred == "works_at" and re.search(r"\b" + re.escape(obj.split()[0].lower()) + r"\b", turn):
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


# "Crete was amazing", "Back! Porto was so hot": a planned place told of in the past tense, not called off
_WAS = (r"\s+(?:was|were)\s+(?:so\s+|really\s+|absolutely\s+|just\s+|honestly\s+|incredibly\s+|too\s+)?"
        r"(?:amazing|great|brilliant|lovely|beautiful|gorgeous|fantastic|incredible|wonderful|perfect|fun|"
        r"hot|cold|freezing|rainy|stunning|magical|unreal|good|nice|awesome|epic|busy|exhausting|relaxing|"
        r"heaven|bliss|a\s+dream|the\s+best)\b")


def trip_done_hits(hits: list[Hit], context: list[Hit], sent: Sentence | None = None) -> list[Hit]:
    """A visit to a place the subject had planned ("We just got back from Japan" after "planning a trip
    to Japan") ends the plan; so does the speaker's planned place told of in the past tense ("Back!
    Crete was amazing"), which is a visit too."""
    planned = {(h.subject, normalize_name(h.object)): h.object for h in context
               if h.predicate == "plans" and h.polarity == "assert"}
    told = [] if sent is None or sent.question or sent.hypothetical else [
        Hit(sent.speaker, "visited", place, confidence=CONF_LOOSE, anchor=m.end(), indirect=True)
        for (who, _), place in planned.items() if who == sent.speaker and place[:1].isupper()
        for m in [re.search(rf"(?<![\w'])(?:{re.escape(place)}){_WAS}", sent.text, re.I)] if m is not None]
    seen = {(h.subject, normalize_name(h.object)) for h in hits if h.predicate == "visited"}
    new = [h for h in told if (h.subject, normalize_name(h.object)) not in seen]
    return new + [
        Hit(h.subject, "plans", planned[(h.subject, normalize_name(h.object))], polarity="retract",
            confidence=h.confidence, anchor=h.anchor, object_type="place")
        for h in hits + new if h.predicate == "visited" and h.polarity == "assert"
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
    r"(?:(?P<who>\b(?-i:[A-Z][a-z]+)|\b[Ii]|(?P<kin>\b(?:" + lx.BARE_KIN
    + r"|(?:my|his|her|their|our)\s+\w+)))"
    r"(?:\s+(?:just|finally|has|have|'s|'ve|actually))*\s+)?"
    r"\b(?:got|landed|accepted|took)\s+(?:a|the|an)\s+(?:[\w-]+\s+){0,2}?(?:job|offer|position|role)\b|"
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
    cue = _GOT_JOB_CUE.search(sent.before) if "job_title" in reg else None
    said = _TITLE_AT.match(sent.text) if cue else None
    title = _title(said.group("title"), comp.vocab.get("job_title", frozenset())) if said else None
    owner = _job_owner(sent, cue) if cue else None
    if said and title and owner and title == " ".join(said.group("title").lower().split()):
        out.append(Hit(owner, "job_title", title, confidence=CONF_LOOSE, anchor=said.end()))
        if "works_at" in reg:
            out.append(Hit(owner, "works_at", said.group("org").strip(" .,;:!?"), confidence=CONF_LOOSE,
                           anchor=said.end()))
    return out


_THIRD_PRONOUNS = frozenset({"she", "he", "they", "it", "we"})


def _job_owner(sent: Sentence, cue: re.Match[str]) -> str | None:
    """Whose job a "Title at Org" fragment tells: the speaker's ("I got a job!", or no one named before
    "got"), or the one named ("Marta just got a hospital job too!"); a pronoun's or a relative's ("mum
    just got a job") is not guessed."""
    who = cue.group("who")
    if cue.group("kin"):
        return None
    if who is None or who.lower() == "i":
        return sent.speaker
    if who.lower() in _THIRD_PRONOUNS:
        return None
    name = clean_name(who)
    return name if is_name(name) and name.lower() not in STOPWORDS else sent.speaker  # "Finally got …"
