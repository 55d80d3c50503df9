"""Values the question's own verb takes in a turn, weighed up: the turn states the asked relation itself.

"Who looked after Greta's goats?" is answered by whoever *is looking after* them ("my neighbour
Astrid is looking after the goats"), even in a clause about someone other than the question's
subject; "Which team does Oskar support?" by what he *supports* ("I've supported Lech since I
was six"), not by a team named in another sentence. Which argument is asked comes from the
question's parse: the wh-word as the verb's subject asks for the doer, else for what the verb takes
(its object, or the object of a preposition on it: "which club does he play for"). The question's
verb (`main_verb`) and its tense (`present`) are read here too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from planners.asked import Asked
from tkg.nlp import parse

from .about import Subject
from .reader import Candidate

_SUBJ = frozenset({"nsubj", "nsubjpass"})
_OBJ = frozenset({"dobj", "attr", "oprd", "dative"})
_WH = frozenset({"who", "whom", "what", "which"})
_RELATIVE = frozenset({"who", "which", "that"})
_NOUNISH = frozenset({"compound", "amod", "flat", "appos", "poss", "det", "nummod"})
VERB_WEIGHT = 2.0  # a value the question's verb takes in its sentence, against one it does not
_LIGHT = frozenset({"do", "be", "have"})
_OWNED = 0.9  # the doer of the asked verb: the clause is the question's, whoever it is about


def asks_doer(question: Any) -> bool:
    """Whether the question's wh-word is its verb's subject ("*Who* looked after…", "*which friend*
    moved…"), from its parsed ``Doc``."""
    for t in question:
        if t.lower_ in _WH:
            head = t.head if t.dep_ == "det" else t  # "which friend": the noun it determines
            verb = head.head  # "which team *does* Oskar support" is often parsed with "team" under "does"
            return head.dep_ in _SUBJ and verb.pos_ == "VERB" and verb.lemma_.lower() not in _LIGHT
    return False


def _preps(verb: Any) -> set[str]:
    return {c.lower_ for c in verb.children if c.dep_ in ("prep", "prt")}


def _takes(token: Any, verb: str, doer: bool, preps: set[str], subject: Subject | None = None) -> bool:
    """Whether ``token``'s noun phrase is the ``verb``'s subject (``doer``) or what it takes, with
    the question's particles: who *looked after* them is not who *looked at* her. What it takes
    from a doer named otherwise than the question's ``subject`` is another's ("the Corolla lives
    in Torquay now" says nothing of where its old owner lives)."""
    t = token
    for _ in range(4):  # up from a name to the noun phrase it is part of ("my neighbour Astrid")
        if t.dep_ not in _NOUNISH or t.head is t:
            break
        t = t.head
    if doer:
        return t.dep_ in _SUBJ and t.head.lemma_.lower() == verb and preps <= _preps(t.head)
    if t.dep_ == "pobj":  # "supports Lech" / "plays for Warta": the preposition hangs on the verb
        t = t.head
        taken = t.dep_ == "prep" and t.head.lemma_.lower() == verb and (not preps or t.lower_ in preps)
    else:
        taken = t.dep_ in _OBJ and t.head.lemma_.lower() == verb
    return taken and not _done_by_another(t.head, subject)


def _done_by_another(verb: Any, subject: Subject | None) -> bool:
    """The verb's subject is a name or a noun that does not name ``subject`` ("the Corolla lives…",
    "Anjali lives…"); a pronoun or a dropped subject may be theirs."""
    doers = [c for c in verb.children if c.dep_ in _SUBJ]
    if verb.dep_ == "relcl" and any(d.lower_ in _RELATIVE for d in doers):
        doers = [verb.head]  # "my sister Dorothy, who lives in Falmouth": Dorothy does
    named = [" ".join(x.text for x in d.subtree if x.i <= d.i) for d in doers if d.pos_ in ("PROPN", "NOUN")]
    return subject is not None and any(not subject.named_in(n) for n in named)


def by_verb(found: list[Candidate], verb: str, question: Any,
            subject: Subject | None = None) -> list[Candidate]:
    """The turn candidates the question's ``verb`` takes in their sentence weighed up (a doer's own
    clause counts as the question's, see the module doc); the others as they were."""
    doer = asks_doer(question)
    said = next((t for t in question if t.lemma_.lower() == verb), None)
    preps = _preps(said) if said is not None else set()
    out = []
    for c in found:
        if c.source != "turn":
            out.append(c)
            continue
        last = c.value.split()[-1].lower() if c.value.split() else ""
        hits = [t for t in parse(c.evidence.text) if t.lower_ == last]
        if not any(_takes(t, verb, doer, preps, subject) for t in hits):
            out.append(c)
            continue
        owner = max(c.owner, _OWNED) if doer else c.owner
        score = c.score * VERB_WEIGHT * (0.3 + owner) / (0.3 + c.owner)
        out.append(replace(c, score=score, owner=owner))
    return out


def present(question: str) -> bool:
    """The question asks in the present tense ("What *is* her relationship status?"): a state that
    changes (engaged, then married) is asked as it stands now."""
    tags = {t.tag_ for t in parse(question)}
    return bool(tags & {"VBZ", "VBP"}) and not tags & {"VBD", "VBN"}


def main_verb(question: Any) -> str | None:
    """The question's own verb ("play" in "What instrument does Aarav play now?"), not be/have/do:
    from its parsed ``Doc`` (parsed with the turns, one batch) or its text."""
    for t in parse(question) if isinstance(question, str) else question:
        if t.pos_ == "VERB" and t.lemma_.lower() not in ("be", "have", "do", "get"):
            return str(t.lemma_.lower())
    return None


_ECHOED_KINDS = frozenset({"animal", "thing", "role", "pet_name"})


def echoes(asked: Asked, doc: Any) -> set[str]:
    """The question's own common nouns, which never answer it ("what breed is her *puppy*": not
    "puppy"; "what does he do at *work*": not "work"), for the kinds a common noun may answer."""
    if asked.kind not in _ECHOED_KINDS or asked.yesno:
        return set()
    nouns = {t for t in doc if t.pos_ == "NOUN" and t.lower_ != asked.head}
    return {w for t in nouns for w in (t.lower_, t.lemma_.lower())}
