"""Whose a clause is: its grammatical subject, climbing through shared subjects and the verbs that
hand a clause to their object, and the clauses that leave their "I" out. `procedures.about` weighs a
sentence's values by these; they read the parse only, never a question or a store.
"""

from __future__ import annotations

from typing import Any

from .span_base import copular_s, modified

_SUBJ_DEPS = ("nsubj", "nsubjpass", "csubj", "expl")
# verbs whose object does what the clause after them says ("asked me to take design lead")
_OBJECT_CONTROL = frozenset("ask tell want invite persuade encourage convince help need expect allow "
                            "beg urge push pressure".split())


def named_by(token: Any) -> Any:
    """The noun a name is given to ("a guy *called Sol*": the guy), whose clause the name's is; the
    token itself otherwise."""
    verb = token.head
    if token.dep_ in ("oprd", "dobj", "attr") and verb.dep_ == "acl" and verb.lemma_.lower() in (
            "call", "name"):
        return verb.head
    return token


def clause_subject(token: Any) -> Any | None:
    """The grammatical subject of the clause a token sits in ("*my sister* moved to Oslo"), climbing
    through shared subjects ("I quit and moved to Porto") and to the one a verb like "ask" tells to do
    the clause ("she asked *me* to take design lead"); None when the clause has none. A noun
    said of someone by a "'s" the tagger took for a possessive ("Tomasz's an electrician", "Tomasz's
    the new foreman at *Arup*") has that someone for its subject."""
    t, seen = named_by(token), 0
    while seen < 12:
        seen += 1
        said = copular_s(t) if t.pos_ in ("NOUN", "PROPN") else None
        if said is not None:
            return said[0]
        if t.pos_ in ("VERB", "AUX") or t.dep_ == "ROOT":
            # of several, a name or a pronoun: "Liam's home loads now bc *he* left Ryanair" hangs both
            subj = max((c for c in t.children if c.dep_ in _SUBJ_DEPS),
                       key=lambda c: (c.pos_ in ("PRON", "PROPN"), -c.i), default=None)
            if subj is not None:  # "I don switch": a dialect's auxiliary the tagger took for the subject
                return next((c for c in subj.children if c.dep_ == "nsubj" and c.pos_ == "PRON"), subj)
            if fronted(t):
                return None  # "Traded it in for a Leaf, so Hannah can charge it": not Hannah's trade
            if t.dep_ == "xcomp" and t.head.lemma_.lower() in _OBJECT_CONTROL:
                told = next((c for c in t.head.children if c.dep_ == "dobj"), None)
                if told is not None:  # "she asked *me* to take design lead": the one asked does it
                    return told
            if t.dep_ in ("conj", "xcomp", "advcl", "acomp", "ccomp", "relcl") and t.head is not t:
                t = t.head
                continue
            return None
        if t.head is t:
            return None
        t = t.head
    return None


_INVERTED = frozenset("so because cause cos and but".split())


def fronted(verb: Any) -> bool:
    """A subjectless clause that opens its sentence and that the tagger hung on the clause after it:
    "Traded it in for a Leaf, so Hannah can charge it" is two clauses, and the first left out its "I".

    >>> from tkg.nlp import parse
    >>> doc = parse("Traded it in for a secondhand Nissan Leaf, so Hannah can charge it at the practice.")
    >>> fronted(doc[0]), fronted(doc[12])
    (True, False)
    """
    if verb.dep_ != "advcl" or verb.tag_ not in ("VBD", "VBN") or any(
            t.pos_ not in ("ADV", "INTJ", "PUNCT") for t in verb.sent[: verb.i - verb.sent.start]):
        return False
    return any(c.lower_ in _INVERTED and verb.i < c.i < verb.head.i for c in verb.head.children)


def dropped_i(token: Any) -> bool:
    """The token's clause is a sentence's main verb told without a subject, done or going on
    ("Accepted an offer…", "moving to leeds"), or a sentence with no verb ("fully qualified
    electrician since october"): in a turn, the speaker's own."""
    head = modified(named_by(token), "advmod")  # "fully" in "fully qualified electrician": its noun
    if head.dep_ == "ROOT" and head.pos_ in ("NOUN", "PROPN"):  # no verb: "electrician since october"
        return not any(t.pos_ in ("VERB", "AUX", "INTJ") for t in head.sent)  # nor a greeting: "Hey Nate!"
    verb, placed = named_by(token), False
    while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:
        placed = placed or verb.dep_ == "prep"
        verb = verb.head
    if placed and verb.dep_ == "ROOT" and verb.pos_ in ("NOUN", "PROPN"):  # "first night in the kovan flat"
        return not any(t.pos_ in ("VERB", "AUX", "INTJ") for t in verb.sent)
    # (a determiner makes the "-ing" a noun: "The playing an awesome pop song")
    return (verb.dep_ == "ROOT" and verb.tag_ in ("VBD", "VBN", "VBG") or fronted(verb)) and not any(
        c.dep_ in ("nsubj", "nsubjpass", "expl", "det") for c in verb.children)
