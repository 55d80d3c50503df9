"""Whom a sentence is about, and which turns of a group speak of a question's subject.

A value only answers "Where does Lena live?" when the sentence that states it is about Lena:
said by her in the first person, said to her in the second person, or naming her (or "she"
right after she was named). The reader weighs every candidate by this, so "my sister Lena moved
to Oslo" counts for Lena and not for the speaker.

Example::

    >>> s = Subject("Lena", frozenset({"lena"}), speaker=False)
    >>> about(s, speaker="Marisol", sentence="my sister lena just moved to oslo", turn="",
    ...       others=("Marisol",))
    1.0
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from planners.question import Question
from tkg.text import stem
from tkg.words import is_place_name

from .clauses import clause_subject, dropped_i
from .span_base import modified

# (and in the languages chats switch into, `span_base.foreign_sentence`: "nag-resign na ako", "mi amá")
FIRST = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|we've|our|ours|us"
                   r"|ako|akin|kami|namin|tayo|natin|mi|mis|nosotros|eu|meu|minha|aku|je|moi|ich|mein|meine"
                   r"|ik|mijn)\b", re.I)
SECOND = re.compile(r"\b(?:you|you're|youre|you've|your|yours|yourself|u|ur)\b", re.I)
THIRD = re.compile(r"\b(?:he|she|him|her|his|hers|they|them|their)\b", re.I)
# a name called out: at the start, after a greeting or a comma, and followed by a pause
_VOCATIVE_BEFORE = re.compile(
    r"(?:^|[,;:!?.\u2026(]\s*|\b(?:hi+|hey+|hello|hiya|morning|evening|afternoon|night|dear|thanks|"
    r"thank you|congrats|congratulations|bye|yo|oh|ok|okay|sorry|welcome|happy \w+)\s+)$"
)
_VOCATIVE_AFTER = re.compile(r"\s*(?:[!?,.:;\u2026)]|$)")
_RELATION_BEFORE_NAME = re.compile(
    r"\b(?:sister|brother|mother|mom|mum|father|dad|son|daughter|wife|husband|"
    r"partner|friend|boss|manager|cousin|aunt|uncle|colleague|fianc[ée]e?|niece|nephew|"
    r"(?:grand|step)(?:daughter|son|child|mother|father|ma|pa|dad|mum)|(?:grand)?kid)\s+$",
    re.I,
)


@lru_cache(maxsize=4096)
def word_pattern(word: str, flags: int = 0) -> re.Pattern[str]:
    """``word`` as a whole word (no letter or digit either side), compiled once per process: the
    reader checks the same names against thousands of sentences."""
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", flags)


@dataclass(frozen=True)
class Subject:
    """Who or what a question is about, with the lower-case names that refer to it."""

    name: str
    aliases: frozenset[str]
    speaker: bool  # one of the group's speakers (first/second person refers to them)

    def named_in(self, text: str) -> bool:
        low = text.lower()
        return any(word_pattern(a).search(low) for a in self.aliases)

    def said_by(self, speaker: str | None) -> bool:
        """A turn of this speaker's own (full or first name)."""
        low = (speaker or "").lower()
        return bool(low) and (low == self.name.lower() or low.split()[0] in self.aliases)

    def unnamed(self, text: str) -> str:
        """``text`` without the subject's names."""
        for a in self.aliases:
            text = word_pattern(a, re.I).sub(" ", text)
        return text

    def only_addressed(self, text: str) -> bool:
        """Every mention of the subject in ``text`` calls them by name ("Morning Lena!", "oh Lena,
        …"): the text speaks *to* them, and says nothing about them unless it says "you"."""
        low = text.lower()
        found = [m for a in self.aliases for m in word_pattern(a).finditer(low)]
        return bool(found) and all(called_out(low, m.start(), m.end()) for m in found)


def called_out(text: str, start: int, end: int) -> bool:
    """The name at ``text[start:end]`` is called out, said to its bearer ("Sofia, quick heads-up",
    "thanks Sofia!"), not said of anyone or anything.

    >>> called_out("Sofia, quick heads-up: I'm off", 0, 5), called_out("I flew to Sofia, then home", 10, 15)
    (True, False)
    """
    low = text.lower()
    return bool(_VOCATIVE_BEFORE.search(low[:start]) and _VOCATIVE_AFTER.match(low[end:]))


_CONJOINED = re.compile(r"\b([A-Z][\w-]*)\s+(?:and|&)\s+$")


def subject_of(q: Question, speakers: dict[str, int]) -> Subject | None:
    """The question's subject: a name right after a relation noun ("her sister Lena"), else the
    first possessor ("Tobias's manager"), else the first name; matched to a speaker when it is one."""
    question, names = q.text, q.named
    people = [n for n in names
              if any(s.lower() == n.lower() or n.lower() in s.lower().split() for s in speakers)]
    names = tuple(people + [n for n in names if n not in people and not is_place_name(n)]) or names
    if not names:
        return None
    chosen = names[0]
    for n in names:
        at = question.find(n)
        if at > 0 and _RELATION_BEFORE_NAME.search(question[:at]):
            chosen = n
            break
    else:
        poss = re.search(r"\b([A-Z][\w-]*)['\u2019]s?\b", question)
        if poss and poss.group(1) in names:
            chosen = poss.group(1)
            # "Rory and Hana's dog" is both people's: a speaker of the two, who tells of it, else the first
            pair = _CONJOINED.search(question[: poss.start()])
            if pair and pair.group(1) in names:
                chosen = min((pair.group(1), chosen), key=names.index)
    low = chosen.lower()
    match = next((s for s in speakers if s.lower() == low or s.lower().split()[0] == low), None)
    short = [s for s in speakers if len(low) >= 3 and s.lower().split()[0].startswith(low)]
    match = match or (short[0] if len(short) == 1 else None)  # "Mel" is the speaker Melanie
    # "Funmi" is the speaker "Aunty Funmi" (a later word of one speaker's name, not a shared surname)
    later = [s for s in speakers if low in s.lower().split()[1:]]
    match = match or (later[0] if len(later) == 1 else None)
    name = match or chosen
    aliases = {name.lower(), name.lower().split()[0], low}
    return Subject(name, frozenset(a for a in aliases if len(a) > 1), match is not None)


def continued(sents: list[Any]) -> list[str]:
    """Each sentence's text, after the one before it when that one ends in a colon: "I have a new
    companion: Maisie, a rescue whippet" is one statement that the sentence splitter cut in two."""
    out, lead = [], ""
    for sent in sents:
        out.append(f"{lead} {sent.text}" if lead else sent.text)
        lead = sent.text if sent.text.rstrip().endswith(":") else ""
    return out


OWN_CLAUSE = 0.7  # a clause this surely about a speaker, in their own turn, is their own word on themselves
_SHORT_LEAD = 3  # words before a sentence that still opens its turn: a fragment ("yes!", "a collie.")
_ASKS = re.compile(r"\?+\W*$")  # a turn that ends on a question


def _question_ending(turn: str) -> str:
    """The question a turn ends on ("KIT?? Who is Kit??" → " Who is Kit"), or "" (read in one pass: the
    reader asks this of every sentence's turn before).

    >>> _question_ending("How lovely. Who is Sol?"), _question_ending("Sol came round.")
    (' Who is Sol', '')
    """
    end = _ASKS.search(turn)
    if end is None:
        return ""
    body = turn[: end.start()]
    return body[max(body.rfind(c) for c in ".!?") + 1 :]


def own_voice(s: Subject | None, said: list[tuple[str | None, float]]) -> str | None:
    """The speaker who states every chosen value of themselves: each (speaker, `clause_about`) pair
    is their own turn and a clause about them ("I'm sixty-seven now"). What they say of themselves is
    theirs, whoever else a question's words fit; None for a value an edge (no clause) or another states."""
    if s is None or not s.speaker or not said:
        return None
    first = s.name.lower().split()[:1]
    mine = all(owner >= OWN_CLAUSE and (who or "").lower().split()[:1] == first for who, owner in said)
    return s.name if mine else None


def _refers_to(s: Subject, word: Any, *, said_by: bool, listener_ok: bool) -> bool | None:
    """Whether a pronoun or name refers to the subject (None: it says nothing either way)."""
    low = word.lower_
    if s.named_in(low):
        return True
    if low in ("i", "we", "me", "us", "my", "our", "mine"):
        return s.speaker and said_by
    if low == "ya" and word.i == word.sent.start:
        return None  # "ya still at the shop": texting's "yeah", not "you"
    if low in ("you", "u", "ya", "your", "ur", "yours"):
        return s.speaker and not said_by and listener_ok
    if word.pos_ == "PROPN":
        return False
    return None


def _appositions(token: Any) -> list[Any]:
    """Nouns in apposition with the token, either way round."""
    out = [c for c in token.children if c.dep_ == "appos"]
    if token.dep_ == "appos":
        out.append(token.head)
    return out


_NOT_AT_ONES_OWN = frozenset("sister brother mother mom mum father dad son daughter cousin aunt uncle "
                             "friend friends girlfriend boyfriend wife husband partner kids children".split())


def _owner_at(token: Any) -> Any | None:
    """The possessor of the noun a place or an organisation is "at": "*my* supervisor at Orbis"
    (the speaker works there too), never a relative's or a friend's ("my sister at Oxford")."""
    t = token
    while t.dep_ in ("compound", "amod", "det") and t.head is not t:
        t = t.head
    prep = t.head
    if t.dep_ != "pobj" or prep.lower_ != "at" or prep.head.pos_ != "NOUN" \
            or prep.head.lower_ in _NOT_AT_ONES_OWN:
        return None
    return next((c for c in prep.head.children if c.dep_ == "poss"), None)


_POSSESSIVE = frozenset("my our your ur yr his her their".split())


def _copula_possessor(token: Any, relation: frozenset[str]) -> Any | None:
    """Whose relation a copula says the token's phrase is: "*tan* is ur supervisor", "Marta is my
    boss" (the possessor, here "ur" and "my"); None when the clause links it to no relation noun."""
    t = token
    while t.dep_ in ("compound", "amod", "flat") and t.head is not t:
        t = t.head
    if not relation or t.dep_ != "nsubj" or t.head.lemma_ != "be":
        return None
    said = [x for c in t.head.children if c.dep_ == "attr" for x in c.subtree]  # what the copula says it is
    nouns = [x for x in said if x.pos_ in ("NOUN", "PROPN")]
    if not any(x.lemma_.lower() in relation or x.lower_ in relation for x in nouns):
        return None
    # "ur" is often parsed as a name, and the relation noun as a compound: any possessive word will do
    return next((x for x in said if x.dep_ == "poss" or x.lower_ in _POSSESSIVE), None)


_OBJECT_PRONOUNS = frozenset({"her", "him", "them"})


def _done_to(s: Subject, token: Any, relation: frozenset[str], *, said_by: bool,
             listener_ok: bool) -> str | None:
    """To whom the token does the relation's verb, its object or "to" someone ("Sam *proposed to her*",
    "Dana married Ines", "he proposed to you"; not "looked at me"): "subject", "other", "pronoun"
    ("her"/"him": whose, the sentence says), or None when the token does no relation verb to anyone."""
    verb = token.head
    if token.dep_ != "nsubj" or verb.pos_ != "VERB" or not {stem(verb.lower_), stem(verb.lemma_.lower()),
                                                             verb.lemma_.lower()} & relation:
        return None
    to = [c for c in verb.children if c.dep_ == "prep" and c.lower_ == "to"]
    targets = [c for c in verb.children if c.dep_ == "dobj"] + [  # "married Ines", "proposed to her"
        x for c in to for x in c.children if x.dep_ == "pobj"]
    for t in targets:
        first = t.doc[t.head.i + 1] if t.dep_ == "pobj" else t  # "to her last week": "her" as possessive
        if t.lower_ in _OBJECT_PRONOUNS or first.dep_ == "poss" and first.lower_ == "her":
            return "pronoun"
        mine = _refers_to(s, t, said_by=said_by, listener_ok=listener_ok)
        if mine is not None:
            return "subject" if mine else "other"
    return None


# nouns whose possessor a sentence "my X is …" is about: "my life is books and The Marigold Engine",
# "my new obsession is Paper Lanterns" (not "my sister is a nurse", which is about the sister)
_SELF_NOUNS = frozenset("life obsession favourite favorite fave fav addiction passion weakness jam".split())
_FIRST_PERSON = frozenset("i me my mine we us our im i'm".split())
_THIRD_PERSON = frozenset("he she they".split())


def another_doer(token: Any) -> bool:
    """The token's clause is done by "he", "she", "they" or a named person ("she has a cat called
    pancake"): someone's own, not the speaker's, however the value is introduced. A copula's subject
    may be the animal itself ("She's a rescue greyhound called Juno"): no one else's.

    >>> from tkg.nlp import parse
    >>> another_doer(parse("she has a cat called pancake")[5])
    True
    >>> another_doer(parse("She's a greyhound called Juno")[5])
    False
    """
    subj = clause_subject(token)  # (the value's own clause, "Gethin did his first shift", is no one else's)
    return subj is not None and subj.i != token.i and _someone_else(subj) and subj.head.lemma_.lower() != "be"


def _someone_else(t: Any) -> bool:
    return t.lower_ in _THIRD_PERSON or t.ent_type_ == "PERSON"


def _goes_on_about_another(token: Any) -> bool:
    """A sentence with no subject and no word of the speaker's own, right after one whose subject is
    "he", "she", "they" or a name: it goes on about them ("Mum's ok. She's sore. Still in Margate").

    >>> from tkg.nlp import parse
    >>> doc = parse("Mum's ok. She won't admit it. Still in Margate, still doing those stairs")
    >>> _goes_on_about_another(doc[-8]), _goes_on_about_another(parse("Still in Margate.")[2])
    (True, False)
    >>> doc = parse("she arrived saturday. meet mabel. lurcher, from the rescue in keynsham.")
    >>> _goes_on_about_another(doc[-2])
    False
    """
    sent = token.sent
    if sent.start == 0 or any(t.lower_ in _FIRST_PERSON for t in sent):
        return False
    before = token.doc[sent.start - 1].sent  # the sentence right before says who ("meet mabel." says none)
    return any(t.dep_ in ("nsubj", "nsubjpass") and _someone_else(t) for t in before)


def clause_about(s: Subject, token: Any, *, speaker: str, speakers: tuple[str, ...], fallback: float,
                 relation: frozenset[str] = frozenset()) -> float:
    """How surely the clause holding ``token`` is about the subject, from its grammatical subject:
    "I"/"we" is the speaker, "you" the listener, a name that person, "my sister" someone else, but
    "my boss" the subject's own relation when the question asks for it (``relation`` nouns);
    without a grammatical subject, ``fallback`` (what the sentence and its turn say) discounted."""
    said_by = speaker.lower() == s.name.lower() or speaker.lower().split()[0] in s.aliases
    listener_ok = len(speakers) <= 2
    for noun in _appositions(token):  # "Marjolein (my supervisor)", "my boss (hannah)"
        poss = next((c for c in noun.children if c.dep_ == "poss"), None)
        if poss is not None and (noun.lemma_.lower() in relation or noun.lower_ in relation):
            mine = _refers_to(s, poss, said_by=said_by, listener_ok=listener_ok)  # "his coach Tomasz":
            return 0.9 if mine else (fallback if mine is None else 0.0)  # whose, the sentence says
    poss = _copula_possessor(token, relation)  # "tan is ur supervisor": the relation is the possessor's
    if poss is not None:
        mine = _refers_to(s, poss, said_by=said_by, listener_ok=listener_ok)
        return 0.9 if mine else (fallback * 0.5 if mine is None else 0.0)
    owner = _owner_at(token)  # "my supervisor at Orbis", "our desk at the lab": the owner is there too
    if owner is not None and _refers_to(s, owner, said_by=said_by, listener_ok=listener_ok):
        return 0.9
    done = _done_to(s, token, relation, said_by=said_by, listener_ok=listener_ok) if relation else None
    if done == "subject":
        return 0.9
    if done == "pronoun":  # "Sam proposed to her" right after the subject was named
        return fallback
    head = modified(token)  # "electric" in "an electric scooter": the noun it modifies
    given = next((c for c in head.head.children if c.dep_ == "dative"), None) if head.dep_ == "dobj" else None
    if given is not None and _refers_to(s, given, said_by=said_by, listener_ok=listener_ok):
        return 0.9  # "my dad got me an electric scooter": the one given it has it
    subj = clause_subject(token)
    if subj is None:
        # "Accepted an offer at Lumen Health", "moving to leeds in june": the speaker's "I" left out
        return 0.9 if said_by and dropped_i(token) and not _goes_on_about_another(token) else fallback * 0.8
    words = " ".join(t.lower_ for t in subj.subtree)
    if s.named_in(words) and not any(c.dep_ == "poss" for c in subj.children):
        return 1.0
    if subj.i == token.i and token.ent_type_ == "PERSON" and any(
            _refers_to(s, c, said_by=said_by, listener_ok=listener_ok) for c in subj.conjuncts):
        return 0.9  # "Siobhan and I have been seeing each other": the subject does it with them
    if any(s.named_in(a.text) for a in _appositions(subj)):  # "my sister Ewa bought a house": Ewa did
        return 1.0
    poss = next((c for c in subj.children if c.dep_ == "poss"), None)
    if poss is not None and not s.speaker and subj.lower_ in s.aliases:
        return 0.9  # a relative read by their noun ("my mum moved to cardiff": the mum, `unnamed_relative`)
    if poss is not None:
        mine = _refers_to(s, poss, said_by=said_by, listener_ok=listener_ok)
        if subj.lemma_.lower() in relation or subj.lower_ in relation or (
                subj.lemma_.lower() in _SELF_NOUNS and subj.head.lemma_ == "be"):  # "my new obsession is X"
            return 0.9 if mine else (fallback * 0.5 if mine is None else 0.0)
        if head.i == subj.i:  # "my bass is officially inaudible": the value is the possessed one, theirs
            return 0.9 if mine else (fallback * 0.5 if mine is None else 0.0)
        return 0.0  # "my sister moved to Oslo" is about the sister
    direct = _refers_to(s, subj, said_by=said_by, listener_ok=listener_ok)
    if direct is not None:
        return 0.9 if direct else 0.0
    if subj.lower_ in ("he", "she", "him", "her"):  # a third person: never the speaker or the listener
        return 0.0 if s.speaker else fallback * 0.8
    if subj.lower_ in ("they", "it", "this", "that", "there", "which", "who"):
        return fallback * 0.8
    return fallback * 0.7


@lru_cache(maxsize=65_536)
def about(s: Subject, *, speaker: str, sentence: str, turn: str, others: tuple[str, ...],
          previous: str = "", earlier: str = "") -> float:
    """How surely ``sentence`` (of ``turn``, said by ``speaker``) is about the subject, 0–1.

    ``others`` are the group's other speakers (a two-person chat's "you" is the listener);
    ``previous`` is the turn before, for "she" right after the subject was named; ``earlier`` the
    one before it, for "she" opening a turn after a reply ("meera. we met…" – "wow!" – "she's a
    doctor"), named in no sentence between (a later one may name someone else first). Kept per
    argument set: several steps of one question weigh the same sentences.
    """
    said_by = speaker.lower() == s.name.lower() or speaker.lower().split()[0] in s.aliases
    # a speaker the other one calls by name ("Morning Lena! News from Oslo…") is spoken to, not of
    if s.speaker and not said_by:
        sentence, turn = (s.unnamed(x) if s.only_addressed(x) else x for x in (sentence, turn))
    if s.named_in(sentence):
        return 1.0
    if s.speaker and said_by:
        return 0.9 if FIRST.search(sentence) else 0.5
    if s.speaker and not said_by and SECOND.search(sentence) and len(others) <= 2:
        return 0.8
    # the turn's first sentence, or one after a few words only ("cockapoo. she named it pickle")
    lead = turn[: max(turn.find(sentence.strip()), 0)]
    opening = len(lead.split()) <= _SHORT_LEAD and not THIRD.search(lead)
    if s.named_in(turn) or (THIRD.search(sentence) and (s.named_in(previous) or opening and s.named_in(
            earlier))):
        return 0.6 if THIRD.search(sentence) or not FIRST.search(sentence) else 0.3
    # the answer to a question about them ("Who is Sol?" – "Old friend. Works at Bean There…")
    if opening and not FIRST.search(sentence) and not SECOND.search(sentence) and s.named_in(
            _question_ending(previous)):
        return 0.6
    return 0.0
