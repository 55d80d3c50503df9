"""Parse a question into a hop plan over the closed predicate vocabulary.

"Where did Priya's manager live in March 2023?" becomes seed Priya, hops
[reports_to, lives_in], as_of_text "March 2023". The plan is pure data: the grounded
walker (`procedures/walker.py`, over the store) starts at the seed entity, follows each hop
(`inverse` walks object → subject; symmetric predicates are stored forward and must be
matched both ways) and reads the target off the last edge.

The grammar is small on purpose — possessive chains, "the X of Y", "the person who
VERB Y", "the company Y works for", and the question frames around them ("who is NP",
"where does NP VERB", "who VERB NP", "how many N does NP have"). Anything else gives
None, and the caller falls back to retrieval.

Names: each of `entity_names` (and each alias in `aliases`, alias → canonical) is found
case-insensitively as a whole word; failing that, runs of capitalised words are matched
with rapidfuzz `fuzz.ratio` ≥ `NAME_THRESHOLD` (88) on lower-cased text. That admits one
typo in a longer name ("Beatrz" → Beatriz) but not a nickname ("Dan" vs "Dana" scores
86, "Meg" vs "Megan" 75): nicknames need an alias.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process, utils

from tkg.text import tokenize

from . import cues
from .lexicon import DEFAULT_LEXICON, LITERAL_PREDICATES, SYMMETRIC, LexEntry, Lexicon

MAX_HOPS = 4
NAME_THRESHOLD = 88


@dataclass(frozen=True)
class Hop:
    predicate: str
    inverse: bool = False  # walk object → subject
    qualifier: str = ""


@dataclass(frozen=True)
class HopPlan:
    seed: str  # the canonical entity name, from entity_names (or an alias's canonical)
    seed_surface: str  # as written in the question
    hops: tuple[Hop, ...]
    target: str  # "entity" | "literal" | "count" | "time"
    as_of_text: str | None = None


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    surface: str
    canonical: str


_STARTERS = frozenset("what who whom where when which how is are was were does do did has have tell".split())
_OWNER = re.compile(r"^(.+?)['’]s\s+\w")
_CAPS = re.compile(r"[A-Z][\w&.-]*(?:\s+(?:of\s+|&\s+)?[A-Z][\w&.-]*)*")


def find_mentions(
    question: str, entity_names: Sequence[str], aliases: Mapping[str, str] | None = None
) -> list[Mention]:
    """Entity mentions in `question`, left to right, non-overlapping.

    >>> [m.canonical for m in find_mentions("Where does Meg live?", ["Megan"], {"Meg": "Megan"})]
    ['Megan']
    """
    names = {n: n for n in entity_names if n.strip()} | {
        a: c for a, c in (aliases or {}).items() if a.strip()
    }
    known = {n.casefold() for n in names}
    # "Tariq's sister" is read as Tariq and a relation (the planner's chain), not as the entity an
    # ingest named after its owner: the question's possessive is planned like any other
    names = {n: c for n, c in names.items()
             if not ((o := _OWNER.match(n)) and o.group(1).casefold() in known)}
    found: list[Mention] = []

    def free(s: int, e: int) -> bool:
        return all(e <= m.start or s >= m.end for m in found)

    low = question.casefold()
    for name in sorted((n for n in names if n.casefold() in low), key=len, reverse=True):  # cheap test first
        for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", question, re.IGNORECASE):
            if free(m.start(), m.end()):
                found.append(Mention(m.start(), m.end(), m.group(0), names[name]))
    choices = list(names)
    for m in _CAPS.finditer(question):
        start, surface = m.start(), m.group(0)
        first, _, rest = surface.partition(" ")
        if first.lower() in _STARTERS:
            if not rest:
                continue
            start, surface = start + len(first) + 1, rest
        end = start + len(surface)
        if not free(start, end) or not choices:
            continue
        best = process.extractOne(surface, choices, scorer=fuzz.ratio, processor=utils.default_process,
                                  score_cutoff=NAME_THRESHOLD)  # fmt: skip
        if best is not None:
            found.append(Mention(start, end, surface, names[best[0]]))
    return sorted(found, key=lambda m: m.start)


_LEADS = (
    "can you tell me", "could you tell me", "do you know", "do you remember", "tell me", "remind me",
    "i wonder",
)
_FILLERS = (
    "right now", "these days", "at the moment", "at present", "any more", "the name of", "name of",
    "currently", "now", "still", "anymore", "nowadays", "presently", "today", "exactly", "actually",
    "please", "again", "ever", "current", "latest", "most recent", "also", "kind of", "kinds of",
    "type of", "types of", "sort of",
)  # fmt: skip
_COPULA = frozenset({"is", "are", "was", "were"})
_AUX = frozenset({"do", "does", "did", "has", "have", "had", "will", "would", "can", "could"}) | _COPULA
_PREPS = frozenset({"in", "at", "for", "to", "with", "from", "on", "by", "of", "up", "out"})
_HEADS = frozenset({
    "person", "one", "man", "woman", "guy", "girl", "boy", "people", "someone", "company", "city", "place",
    "town", "school", "team", "band", "club", "firm", "country", "friend", "lady",
})  # fmt: skip
_POSSESSION_VERBS = frozenset({"have", "has", "had", "own", "owns", "keep", "keeps", "got"})
_QUALIFIABLE = frozenset({"likes", "dislikes", "owns", "plays", "visited"})
_BELONG = frozenset({"belongs", "belonged", "belong"})
_WH = frozenset({"who", "whom", "what", "where", "which", "when"})


def _normalise(words: list[str]) -> list[str]:
    text = " " + " ".join(words) + " "
    for lead in _LEADS:
        if text.startswith(f" {lead} "):
            text = text[len(lead) + 1 :]
    for filler in _FILLERS:
        text = text.replace(f" {filler} ", " ")
    out = text.split()
    while out and out[-1] in ("called", "named"):
        out.pop()
    if out[-2:] == ["'s", "name"]:
        out = out[:-2]
    return out


_Found = tuple[str, list[Hop], int]  # (seed token, hops from the seed, next word index)
_Head = tuple[LexEntry, int] | None  # the relation noun after "what"/"which"/"how many", if any


class _Parser:
    """Recursive descent over normalised words; entity mentions are "@e<N>" tokens."""

    def __init__(self, words: list[str], lexicon: Lexicon) -> None:
        self.w = words
        self.lex = lexicon

    def at(self, i: int) -> str:
        return self.w[i] if i < len(self.w) else ""

    def noun(self, i: int) -> tuple[LexEntry, int] | None:
        return self.lex.match(self.w, i, "noun")

    def verb(self, i: int) -> tuple[LexEntry, int] | None:
        return self.lex.match(self.w, i, "verb")

    def skip_preps(self, i: int) -> int:
        while self.at(i) in _PREPS:
            i += 1
        return i

    def skip_one(self, i: int, optional: frozenset[str]) -> int:
        """Past the word at ``i`` when it is one of the optional words ("does", "is")."""
        return i + 1 if self.at(i) in optional else i

    def np(self, i: int) -> _Found | None:
        """A noun phrase that bottoms out in an entity mention."""
        word = self.at(i)
        if word.startswith("@e"):
            return self.possessives(word, [], i + 1)
        if word in ("the", "a", "an"):
            m = self.noun(i + 1)
            after = i + 1 + m[1] if m is not None else i + 1
            if m is not None and self.at(after) == "of":  # "the home town of NP"
                inner = self.np(after + 1)
                if inner is not None:
                    return self.possessives(inner[0], [*inner[1], _noun_hop(m[0])], inner[2])
            if (
                m is not None
                and self.at(after) in ("that", "which", "who")
                and self.at(after + 1) in _BELONG
                and self.at(after + 2) == "to"
            ):
                inner = self.np(after + 3)  # "the cat that belongs to NP" is "NP's cat"
                if inner is not None:
                    return inner[0], [*inner[1], _noun_hop(m[0])], inner[2]
            if self.at(i + 1) in _HEADS:
                return self.relative(i + 2)
        if word in ("someone", "anyone", "whoever"):
            return self.relative(i + 1)
        return None

    def possessives(self, seed: str, hops: list[Hop], j: int) -> _Found | None:
        while self.at(j) in ("'s", "'"):
            m = self.noun(j + 1)
            if m is None:
                return None
            hops.append(_noun_hop(m[0]))
            j += 1 + m[1]
        return seed, hops, j

    def relative(self, j: int) -> _Found | None:
        """After "the person": "who lives in NP" (head is subject) or "(who) NP works for" (object)."""
        if self.at(j) in ("who", "that", "which", "whom", "where"):
            j += 1
        k = j + 1 if self.at(j) in _AUX else j
        m = self.verb(k)
        if m is not None:
            inner = self.np(self.skip_preps(k + m[1]))
            if inner is not None:
                return inner[0], [*inner[1], _verb_hop(m[0], seed_is_object=True)], inner[2]
        inner = self.np(j)
        if inner is None:
            return None
        k = inner[2] + 1 if self.at(inner[2]) in _AUX else inner[2]
        m = self.verb(k)
        if m is None:
            return None
        return inner[0], [*inner[1], _verb_hop(m[0], seed_is_object=False)], self.skip_preps(k + m[1])

    def question(self) -> tuple[str, list[Hop], str] | None:
        """The whole question: (seed token, hops, wh-word)."""
        w, i = self.w, 0
        wh = self.at(0)
        head: _Head = None
        head_word = ""
        if w[:2] == ["how", "many"]:
            wh, i = "how many", 2
        elif w[:2] == ["how", "old"] and self.at(2) in _COPULA:
            found = self.np(3)
            return (found[0], [*found[1], Hop("age")], wh) if found and found[2] == len(w) else None
        elif wh in _WH:
            i = 1
        else:
            found = self.np(0)  # a bare noun phrase: "Priya's manager's home town"
            return (found[0], found[1], "") if found and found[2] == len(w) and found[1] else None
        if wh in ("what", "which", "how many") and self.at(i) not in _AUX and not self.at(i).startswith("@e"):
            head = self.noun(i)
            head_word = self.at(i)
            i += head[1] if head else 1
        for frame in (self.subject_question, self.copula_question, self.object_question):
            got = frame(i, wh, head, head_word)
            if got is not None and got[2] == len(w) and got[1]:
                return got[0], got[1], wh
        return None

    def subject_question(self, i: int, wh: str, head: _Head, head_word: str) -> _Found | None:
        """WH [AUX] NP VERB: "where does Marco's sister live", "what pets does Priya have"."""
        found = self.np(self.skip_one(i, _AUX))
        if found is None:
            return None
        seed, hops, j = found
        if head is not None and self.at(j) in _POSSESSION_VERBS and j + 1 == len(self.w):
            return seed, [*hops, _noun_hop(head[0])], j + 1
        if wh == "what" and self.at(j) == "do" and j + 1 == len(self.w):
            return seed, [*hops, Hop("job_title")], j + 1
        m = self.verb(j)
        if m is None:
            return None
        hop = _verb_hop(m[0], seed_is_object=False)
        if wh == "where" and hop.predicate == "birthday":
            hop = Hop("from_place")
        if head_word and hop.predicate in _QUALIFIABLE and not hop.qualifier:
            hop = Hop(hop.predicate, hop.inverse, _singular(head_word))
        return seed, [*hops, hop], self.skip_preps(j + m[1])

    def copula_question(self, i: int, wh: str, head: _Head, head_word: str) -> _Found | None:
        """WH COPULA NP: "who is Dana's manager", "what is the home town of Priya's boss"."""
        if self.at(i) not in _COPULA:
            return None
        found = self.np(i + 1)
        if found is None or not found[1]:
            return None
        seed, hops, j = found
        if wh == "where" and hops[-1].predicate not in ("lives_in", "from_place", "studies_at", "visited"):
            hops = [*hops, Hop("lives_in")]
        return seed, hops, j

    def object_question(self, i: int, wh: str, head: _Head, head_word: str) -> _Found | None:
        """WH [COPULA] VERB NP: "who reports to Dana", "who is married to Priya"."""
        i = self.skip_one(i, _COPULA)
        m = self.verb(i)
        if m is None:
            return None
        found = self.np(self.skip_preps(i + m[1]))
        if found is None:
            return None
        seed, hops, j = found
        return seed, [*hops, _verb_hop(m[0], seed_is_object=True)], j


def _noun_hop(entry: LexEntry) -> Hop:
    return Hop(entry.predicate, entry.inverse, entry.qualifier)


def _verb_hop(entry: LexEntry, *, seed_is_object: bool) -> Hop:
    inverse = entry.inverse != seed_is_object and entry.predicate not in SYMMETRIC
    return Hop(entry.predicate, inverse, entry.qualifier)


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def plan_hops(
    question: str,
    entity_names: Sequence[str],
    *,
    lexicon: Lexicon | None = None,
    aliases: Mapping[str, str] | None = None,
) -> HopPlan | None:
    """A hop plan for `question`, or None when it cannot be parsed or names no known entity.

    >>> plan = plan_hops("Where did Priya's manager live in March 2023?", ["Priya"])
    >>> [h.predicate for h in plan.hops], plan.as_of_text
    (['reports_to', 'lives_in'], 'March 2023')
    """
    anchor = cues.find_time_anchor(question)
    text = question if anchor is None else anchor.cut(question, " ")
    mentions = find_mentions(text, entity_names, aliases)
    if not mentions:
        return None
    for n, m in reversed(list(enumerate(mentions))):
        text = f"{text[: m.start]} @e{n}{text[m.end :]}"
    words = _normalise(tokenize(text))
    parsed = _Parser(words, lexicon or DEFAULT_LEXICON).question() if words else None
    if parsed is None:
        return None
    seed, hops, wh = parsed
    if not 0 < len(hops) <= MAX_HOPS:
        return None
    mention = mentions[int(seed[2:])]
    if wh == "how many":
        target = "count"
    elif wh == "when" and hops[-1].predicate != "birthday":
        target = "time"
    elif hops[-1].predicate in LITERAL_PREDICATES:
        target = "literal"
    else:
        target = "entity"
    return HopPlan(mention.canonical, mention.surface, tuple(hops), target, anchor.text if anchor else None)
