"""The words a turn tells an event with, for the event a "when" question asks about.

"When did Bramble die?" is told "Bramble passed away on the 8th"; "When did Dex adopt Segfault?"
"got him from the shelter on saturday"; "When did Kai propose?" "he popped the question". The
question's verbs (with a particle: "break up") are looked up in `RELATIVES`, the common English
paraphrases of each; a verb not listed is told by its own stem; a question with no event verb
("When is Hannah's wedding?", "What date is the gig?") by its nouns, and a few nouns by the verbs
that tell them too ("wedding" ↔ "got married"). What a "when" question asks is `QuestionEvent`.

    >>> ev = question_event("When did Bramble die?", frozenset({"bramble"}))
    >>> ev.tells("Sad news: Bramble passed away on the 8th.")
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tkg.nlp import parse
from tkg.text import content_terms, stem

_PRON = r"(?:him|her|them|it|us|me)"
# verb lemma (or lemma + particle) → the ways a turn says it happened
RELATIVES: dict[str, str] = {
    "die": rf"died|dies|dead|passed away|passed on|pass away|we lost {_PRON}|lost (?:our|my|his|her) \w+"
           rf"|put {_PRON} down|put {_PRON} to sleep|put to sleep|had to say goodbye",
    "pass away": "",  # filled below: die's
    "adopt": rf"adopt\w*|got {_PRON} from|brought {_PRON} home|took {_PRON} home|picked {_PRON} up from"
             r"|rescued|from the (?:shelter|rescue|pound)",
    "propose": r"propos\w*|popped the question|got engaged|(?:we're|we are|i'm|she's|he's) engaged"
               rf"|asked (?:{_PRON}|\w+) to marry",
    "break up": r"broke up|break(?:ing)? up|broken up|split(?:ting)?(?: up)?|ended (?:it|things)|dumped"
                r"|called it quits",
    "split": r"broke up|break(?:ing)? up|broken up|split(?:ting)?(?: up)?|ended (?:it|things)|dumped",
    "start": r"start\w*|first (?:day|shift|week|session)|began|begun|begin\w*|kicked off",
    "begin": r"start\w*|first (?:day|shift|week|session)|began|begun|begin\w*",
    "steal": r"stole|stolen|steal\w*|nicked|pinched|robbed|swiped|nabbed",
    "marry": r"married|marry|marri\w+|wedding|tied the knot|got hitched",
    "wed": r"married|marry|wedding|tied the knot|got hitched",
    "bear": r"born|gave birth|had (?:the|a|her|his|their) baby|arrived",
    "move": r"mov(?:e|ed|es|ing)|relocat\w*|shift(?:ed|ing)",  # (Indian English: "since we shifted")
    "quit": r"quit|resign\w*|handed in (?:my|his|her|their) notice",
    "buy": r"bought|buy\w*|purchas\w*",
    "sell": r"sold|sell\w*",
    "meet": r"met|meet\w*",
    "graduate": r"graduat\w*",
    "retire": r"retir\w*",
    "open": r"open\w*|launch\w*",
}
RELATIVES["pass away"] = RELATIVES["die"]
# event nouns told by a verb too
NOUN_RELATIVES: dict[str, str] = {
    "wedding": RELATIVES["marry"],
    "engagement": RELATIVES["propose"],
    "proposal": RELATIVES["propose"],
    "breakup": RELATIVES["break up"],
    "death": RELATIVES["die"],
    "birth": RELATIVES["bear"],
    "adoption": RELATIVES["adopt"],
    "move": RELATIVES["move"],
}
# a sentence asking when something is or was ("when's your test again?", "what day is the party?")
ASKS_WHEN = re.compile(r"\b(?:when|what (?:date|day|time)|which day|the date)\b[^.!]*(?:\?|$)", re.I)


def asks_when(sentence: str) -> bool:
    """The sentence is a question asking when something is or was ("when's your test again?")."""
    return sentence.rstrip().endswith("?") and ASKS_WHEN.search(sentence) is not None

# a denial with no clause break between it and what follows ("didn't get the job at …")
_DENIAL = re.compile(r"\b(?:not|never|no longer|didn'?t|don'?t|doesn'?t|won'?t|isn'?t|wasn'?t|aren'?t|can'?t"
                     r"|couldn'?t|haven'?t|hasn'?t|fell through|called off|cancel+ed)\b[^,;:.!?()—–-]*$")
_LIGHT = frozenset({"be", "do", "have", "happen", "take", "plan", "get", "go", "make", "suppose", "schedule",
                    "set", "book", "hold", "will", "mention", "say", "talk", "tell", "share", "discuss",
                    "bring", "decide", "try", "want", "need", "begin"})
# past forms a stem does not reach
IRREGULAR = {w.split(":")[0]: w.split(":")[1] for w in """win:won ride:rode|ridden write:wrote|written run:ran
    give:gave|given find:found fly:flew|flown teach:taught eat:ate|eaten drive:drove|driven swim:swam|swum
    sing:sang|sung catch:caught think:thought feel:felt build:built send:sent spend:spent speak:spoke|spoken
    throw:threw|thrown wear:wore|worn draw:drew|drawn fall:fell|fallen see:saw|seen lose:lost leave:left
    buy:bought sell:sold meet:met pay:paid lend:lent hear:heard keep:kept sleep:slept grow:grew|grown
    know:knew|known forget:forgot|forgotten choose:chose|chosen wake:woke|woken""".split()}
_PARTICLES = frozenset({"up", "away", "on", "off", "out", "down", "back", "in"})
# particles that make another verb of most verbs ("pass away", "give up", "pay off", "work out")
_SENSE_PARTICLES = frozenset({"up", "away", "off", "out"})
_MOTION = frozenset({"move", "go", "come", "walk", "fly", "drive", "travel", "head", "ride", "sail", "get"})
# words of the question frame, never the event or its object
_FRAME = frozenset(stem(w) for w in "when date day time year month exactly originally first initially "
                   "supposed planned scheduled happen happened place take".split())


@dataclass(frozen=True)
class QuestionEvent:
    """What a "when" question asks about: the event's patterns, and the other words (its object, its
    people) a telling turn says; ``nominal`` when a noun names the event ("the wedding")."""

    patterns: tuple[re.Pattern[str], ...]
    objects: frozenset[str]
    nominal: bool
    names: frozenset[str] = frozenset()  # the stems of the names among the objects
    particles: frozenset[str] = frozenset()  # the particles of the question's own verbs ("break *up*")

    def tells(self, text: str) -> bool:
        """Whether ``text`` says the event (one of its patterns as words)."""
        low = text.lower()
        return any(p.search(low) for p in self.patterns)

    def told_at(self, text: str) -> int:
        """Where ``text`` first says the event, or -1."""
        low = text.lower()
        found = [m.start() for p in self.patterns if (m := p.search(low))]
        return min(found, default=-1)

    def denied(self, text: str) -> bool:
        """The event is said only as denied: a denial before its words, in the same stretch of clause
        ("we didn't break up"; "we're married, i've never felt so happy" denies nothing)."""
        at = self.told_at(text)
        return at >= 0 and denied_before(text.lower(), at)

    def other_verb(self, sent: Any) -> bool:
        """The sentence says the event's verb only as another phrasal verb, with a particle the
        question's verb lacks that is not in the event's own pattern: "our cat *passed away*" tells
        no "when did she pass her test", "I gave up piano" no "when did he give …"; a motion verb keeps
        its sense with one ("moved out", "drove up to Leeds")."""
        low = sent.text.lower()
        for p in self.patterns:
            m = p.search(low)
            if m is None:
                continue
            token = next((t for t in sent if t.idx - sent.start_char == m.start()), None)
            if token is None or token.lemma_.lower() in _MOTION:
                return False
            return any(c.dep_ in ("prt", "advmod") and c.lower_ in _SENSE_PARTICLES
                       and c.lower_ not in self.particles
                       and not m.start() <= c.idx - sent.start_char < m.end() for c in token.children)
        return False

    def needles(self) -> list[str]:
        """Plain words a telling turn contains, for a substring search: the event's literal words
        ("passed away", "adopt") and its object's, not the names (a speaker's name matches every
        turn they say)."""
        words = set()
        for p in self.patterns:
            inner = p.pattern[p.pattern.index("(?:") + 3:p.pattern.rindex(")(?!")]
            for alt in inner.split("|"):
                plain = re.sub(r"\\w[*+]$", "", alt)
                if len(plain) >= 4 and re.fullmatch(r"[a-z' ]+", plain) and plain not in _PRON:
                    words.add(plain)
        return sorted(words | {o for o in self.objects - self.names if len(o) >= 4})

    def object_hits(self, text: str) -> int:
        """How many of the event's other words ``text`` says."""
        return len(content_terms(text) & self.objects)

    def to_trace(self) -> dict[str, object]:
        return {"patterns": [p.pattern[:60] for p in self.patterns], "objects": sorted(self.objects),
                "nominal": self.nominal}


def verb_forms(lemma: str) -> str:
    """A pattern for the forms of a verb not in `RELATIVES`: "apply" → applies, applied, applying."""
    base = lemma[:-1] if len(lemma) > 3 and lemma[-1] in "ey" else lemma
    extra = f"|{IRREGULAR[lemma]}" if lemma in IRREGULAR else ""
    return rf"{re.escape(base)}\w*{extra}"


def denied_before(low: str, at: int) -> bool:
    """A denial in the lower-case text before position ``at``, with no clause break after it."""
    return _DENIAL.search(low[:at]) is not None


def _word(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w'])(?:{pattern})(?!\w)")


def question_event(question: str, names: frozenset[str]) -> QuestionEvent:
    """The event of a "when" question (see the module doc); ``names`` (lower-case) are the people and
    things it names, which count as its objects."""
    doc = parse(question)
    patterns: list[str] = []
    event_stems: set[str] = set()
    particles: set[str] = set()
    for t in doc:
        if t.pos_ != "VERB" or t.lemma_.lower() in _LIGHT:
            continue
        lemma = t.lemma_.lower()
        prt = next((c.lower_ for c in t.children
                    if c.dep_ == "prt" or c.dep_ == "advmod" and c.lower_ in _PARTICLES), "")
        key = f"{lemma} {prt}" if f"{lemma} {prt}" in RELATIVES else lemma
        particles.add(prt)
        patterns.append(RELATIVES.get(key, verb_forms(lemma)))
        event_stems |= {stem(t.lower_), stem(lemma)}
    nominal = not patterns
    if nominal:  # "When is Hannah's wedding?": its nouns name the event
        for t in doc:
            # not its owner: "mum" in "mum's 60th birthday" is whose it is, which much else is said of
            if t.pos_ in ("NOUN", "PROPN") and t.lower_ not in names and stem(t.lower_) not in _FRAME \
                    and t.dep_ != "poss":
                # "D.C." is written "dc" too: an abbreviation's dots are optional
                own = re.escape(stem(t.lower_)).replace(r"\.", r"\.?")
                patterns.append(NOUN_RELATIVES.get(t.lemma_.lower(), own + r"\w*"))
    terms = content_terms(question) - _FRAME - event_stems - {stem(p) for p in particles if p}  # not "away"
    objects = frozenset(terms | {stem(n) for n in names})
    return QuestionEvent(tuple(_word(p) for p in dict.fromkeys(patterns)), objects, nominal,
                         frozenset(stem(n) for n in names), frozenset(particles))
