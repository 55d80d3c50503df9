"""Lists and counts over a subject's history: every value of the asked kind once, or how many.

"Which companies has Rafa worked for?" is answered from the values of the asked kind the reader
found in the subject's facts (every version, not only the current one) and in the spans of that
kind in the subject's turns. Spellings of one value ("Atleti" / "Atlético Madrid", "West End" /
"Westend") merge here (rapidfuzz). "Which pets does she *currently* have?" keeps only the values
no later turn ends ("Biscuit died in October", "sold the Volvo", "I left the club").

"How many goats does Greta keep?" runs the counts her turns state, in the order they were said:
a total ("I have four goats", "four of them", "the other three") sets it, "two more" adds, a loss
("lost two", "one died", a counted animal named as killed) takes away.

Example::

    >>> same_value("Atleti", "Atlético Madrid"), same_value("Paul", "Paula")
    (True, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from rapidfuzz import fuzz

from tkg.models import Evidence
from tkg.nlp import parse, parse_many

from .slots import FAR_PAST
from .stated import negated

T = TypeVar("T")
# verbs (by lemma) and verb + particle phrases that end holding, owning, living or belonging
_ENDING_VERBS = frozenset("die sell lose leave quit rehome scrap bury kill euthanise euthanize divorce dump"
                          .split())
_ENDING_PARTICLES = {("pass", "away"), ("give", "away"), ("move", "out"), ("put", "down"), ("give", "up"),
                     ("drop", "out"), ("split", "up"), ("break", "up")}  # "Theo and I have split up"
_LOSS_VERBS = frozenset("die lose kill sell rehome".split())
# verbs that lose a named animal only when a creature, not a person, does it ("a fox got Cleo")
_TAKEN_BY = frozenset("take get eat grab snatch".split())
_VALUES = {w: i + 1 for i, w in enumerate(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
# (tkg.extract.lexicon has the same tens, but importing it loads the ingest pipeline on the question path)
_TENS = {w: 10 * (i + 2) for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split())}
_MORE = frozenset("more new extra additional".split())
_REST = frozenset("other remaining surviving last".split())


def norm_key(value: str) -> str:
    """A comparison form: lower case, letters and digits, accents folded by the caller's `norm`."""
    return " ".join(re.sub(r"[^\w]+", " ", value.casefold()).split())


def same_value(a: str, b: str) -> bool:
    """Two spellings of one value: equal, near-equal (``fuzz.ratio`` ≥ 90), one the other's
    words ("Park" / "Oak Park"), or a short form the longer one starts with ("Atleti")."""
    x, y = sorted((_fold(a), _fold(b)), key=len)
    if not x or not y:
        return False
    if x == y or fuzz.ratio(x, y) >= 90:
        return True
    if len(x) < 4:
        return False
    if set(x.split()) <= set(y.split()):
        return True
    return len(x) >= 5 and " " not in x and any(w.startswith(x[:-1]) for w in y.split()) and \
        fuzz.partial_ratio(x, y) >= 90


def _fold(value: str) -> str:
    table = str.maketrans("áàâäãåéèêëíìîïóòôöõúùûüñçøæ", "aaaaaaeeeeiiiiooooouuuuncoa")
    return norm_key(value).translate(table)


def merge_variants(groups: dict[str, list[T]]) -> None:
    """Join the candidate groups whose keys spell one value; the key said most often (then the
    longest) keeps them all."""
    keys = sorted(groups, key=lambda k: (-len(groups[k]), -len(k), k))
    for i, keep in enumerate(keys):
        if keep not in groups:
            continue
        for other in keys[i + 1:]:
            if other in groups and same_value(keep, other):
                groups[keep].extend(groups.pop(other))


# where what an ending verb ends hangs ("we lost our dog Mango": the parser may hang the name on the verb)
_ENDED = frozenset({"nsubj", "dobj", "nsubjpass", "prep", "npadvmod"})


def _ends(tok: Any) -> bool:
    lemma = tok.lemma_.lower()
    if lemma in _ENDING_VERBS:
        return True
    return any((lemma, c.lower_) in _ENDING_PARTICLES for c in tok.children if c.dep_ == "prt")


def _later(turns: list[Evidence], key: str, since: datetime | None) -> list[Evidence]:
    """The turns that name ``key`` (folded) said from ``since`` on, the latest first (the turn a
    value was read from may end it too: "we lost our hamster Nacho")."""
    return [ev for ev in sorted(turns, key=lambda e: e.valid_at or FAR_PAST, reverse=True)
            if not (since is not None and ev.valid_at is not None and ev.valid_at < since)
            and key in _fold(ev.text)]


# a couple's idioms for parting, whose verb ends nothing by itself
_PARTED = re.compile(r"\b(?:call(?:ed|ing)?\s+it\s+(?:a\s+day|quits)|part(?:ed|ing)\s+ways|"
                     r"went\s+(?:our|their)\s+separate\s+ways|ended\s+things)\b", re.I)


def ending(value: str, turns: list[Evidence], since: datetime | None) -> Evidence | None:
    """The turn, said from ``since`` on, whose clause ends ``value``: the value is the subject or the
    object of an ending verb ("Biscuit died", "sold the Volvo", "I left Kralingen Runners")."""
    key = _fold(value)
    for ev in _later(turns, key, since):
        for sent in parse(ev.text).sents:
            if _PARTED.search(sent.text) and key in _fold(sent.text):
                return ev  # "Ollie and I called it a day on New Year's Eve"
            for tok in sent:
                if not _ends(tok):
                    continue
                near = " ".join(t.text for c in tok.children if c.dep_ in _ENDED for t in c.subtree)
                if key in _fold(near) and not any(c.dep_ == "neg" for c in tok.children):
                    return ev
    return None


def denied(value: str, turns: list[Evidence], since: datetime | None) -> Evidence | None:
    """The turn, said from ``since`` on, that denies or calls off ``value`` ("I didn't get the job at
    Orbis", "the Lisbon move fell through"): an application or a plan that never held."""
    key = _fold(value)
    for ev in _later(turns, key, since):
        for sent in parse(ev.text).sents:
            at = [t for t in sent if t.text[:1].isalnum() and _fold(t.text) == key.split()[0]]
            if at and not sent.text.rstrip().endswith("?") and negated(sent, at[0]):
                return ev
    return None


@dataclass
class Tally:
    """A running count of the ``head`` things a subject has, with the turns that changed it."""

    head: str
    total: int | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    members: set[str] = field(default_factory=set)

    def note(self, how: str, n: int, ev: Evidence, said: str) -> None:
        if how == "set":
            self.total = n
        elif self.total is not None:
            self.total = max(0, self.total + (n if how == "add" else -n))
        self.steps.append({"turn": ev.source_ref, "said": said, how: n, "total": self.total})
        if ev not in self.evidence:
            self.evidence.append(ev)


def _number(toks: list[Any], j: int) -> tuple[int | None, int]:
    """The number written from ``toks[j]`` and the position after it: "4", "six", "thirty-eight"
    and "twenty two" (one number, not a thirty and an eight)."""
    tok = toks[j]
    if tok.like_num and tok.text.isdigit():
        return int(tok.text), j + 1
    tens = _TENS.get(tok.lower_)
    if tens is None:
        return _VALUES.get(tok.lower_), j + 1
    k = j + 2 if j + 2 < len(toks) and toks[j + 1].text == "-" else j + 1
    unit = _VALUES.get(toks[k].lower_, 10) if k < len(toks) else 10
    return (tens + unit, k + 1) if unit < 10 else (tens, j + 1)


def _is_head(tok: Any, head: str) -> bool:
    low, lemma = tok.lower_, tok.lemma_.lower()
    return head in (low, lemma) or low in (head + "s", head + "es")


def count_held(head: str, turns: list[Evidence], is_subjects: Callable[[Evidence], bool],
               done: frozenset[str] = frozenset()) -> Tally | None:
    """The number of ``head`` things held after the subject's turns (see the module doc), or None
    when no turn states a total. ``is_subjects(ev)`` says whether a turn speaks for the subject. With
    ``done`` (verbs' lemmas), only a sentence saying one of them counts: "how many years did she
    teach" counts the years she "taught", not a dog "nine years old"."""
    tally = Tally(head)
    theirs = [ev for ev in sorted(turns, key=lambda e: e.valid_at or FAR_PAST) if is_subjects(ev)]
    parse_many([ev.text for ev in theirs])  # every one is read: one batch
    for ev in theirs:
        context = False  # the turn has named the counted things: "of them", "the other three" count them
        for sent in parse(ev.text).sents:
            toks = list(sent)
            said_head = any(_is_head(t, head) for t in toks) or any(t.lower_ in tally.members for t in toks)
            _collect_members(sent, tally, said_head or context)
            if done and not any(t.lemma_.lower() in done for t in toks):
                continue
            after_number = 0  # the words of a number read already ("eight" of "thirty-eight")
            for j, tok in enumerate(toks):
                if j < after_number:
                    continue
                n, after_number = _number(toks, j)
                if tok.lower_ == "another" and j + 1 < len(toks) and _is_head(toks[j + 1], head):
                    n = 1
                if n is None:
                    continue
                after = toks[after_number : after_number + 3]
                counted = any(_is_head(t, head) for t in after) or (
                    (context or said_head) and (
                        [t.lower_ for t in after[:2]] == ["of", "them"]
                        or (j > 0 and toks[j - 1].lower_ in _REST)))
                if not counted:
                    continue
                said = sent.text.strip()
                if tok.lower_ == "another" or any(t.lower_ in _MORE for t in after[:2]):
                    tally.note("add", n, ev, said)
                elif any(t.lemma_.lower() in _LOSS_VERBS or _taken(t) for t in toks):
                    tally.note("lose", n, ev, said)
                else:
                    tally.note("set", n, ev, said)
            lost = _lost_members(sent, tally)
            if lost:
                tally.note("lose", len(lost), ev, sent.text.strip())
                tally.members -= lost
            context = context or said_head
    return tally if tally.total is not None else None


def _taken(verb: Any) -> bool:
    """A taking verb done by a creature, not a person: "a fox got ...", "a hawk took one"."""
    if verb.lemma_.lower() not in _TAKEN_BY:
        return False
    doer = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    return doer is not None and doer.pos_ == "NOUN" and doer.ent_type_ != "PERSON"


def _collect_members(sent: Any, tally: Tally, counting: bool) -> None:
    """Names given to the counted things ("they're called Ada, Bente and Cleo")."""
    if not counting or not any(t.lemma_.lower() in ("call", "name") for t in sent):
        return
    tally.members |= {t.lower_ for t in sent if t.pos_ == "PROPN"}


def _lost_members(sent: Any, tally: Tally) -> set[str]:
    """Named counted things a loss verb takes ("a fox took Cleo", "Bente died")."""
    out = set()
    for t in sent:
        verb = t.head
        if t.lower_ not in tally.members or t.dep_ not in ("nsubj", "dobj", "nsubjpass") or \
                any(c.dep_ == "neg" for c in verb.children):
            continue
        if verb.lemma_.lower() in _LOSS_VERBS or (t.dep_ == "dobj" and _taken(verb)):
            out.add(t.lower_)
    return out
