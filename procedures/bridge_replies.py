"""The subject's relative named across an exchange, when no turn says "my wife Nina" outright.

The other speaker says the relation noun as the subject's own ("how's *your* son?", "tell *your*
wife she's welcome"), and the subject names the person in the turn next to it:

* after it, replying (`answered_name`): "how old is your son now?" → "Kuba is seven now";
* before it, the turn the other speaker answers (`named_before`): "Nina says thank you" →
  "tell your wife she's very welcome".

Or the subject's own turn names the person, then says the noun in a fragment after the sentence
(`fragment_named`): "Sofie has caught the bug! My girlfriend, doing parkrun, who knew."

`kin_owner` says whose a relation noun is ("*my* sister" said by the subject, "*your* sister" said
to them, "*Ana's* sister"). `procedures.bridge` reads these after the graph and the turns naming
the person next to the relation's words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tkg.models import Evidence
from tkg.nlp import parse
from tkg.text import stems_of, tokenize
from tkg.words import is_place_name

from .about import Subject
from .backfill import turn_evidence
from .group_turns import prior_rows, reply_rows, turns_containing
from .reader import norm
from .slots import FAR_PAST
from .spans import spans_of
from .synthesis import dedupe

if TYPE_CHECKING:
    from tkg.context import Context

SECOND_OWNED = re.compile(r"\b(?:your|ur)\s+", re.I)
# labels the small tagger gives a lone given name that does something ("Nina says thank you" as GPE)
_AGENT_LABELS = frozenset({"", "PERSON", "GPE", "NORP", "ORG"})
_NAMING_DEPS = frozenset({"nsubj", "nsubjpass", "appos", "attr", "ROOT", "npadvmod", "dobj"})


def kin_owner(noun: Any, speaker: str, subject: Subject) -> bool | None:
    """Whether the possessor of a relation noun is the subject ("*my* sister" said by them, "*your*
    sister" said to them, "*Ana's* sister"); None without a possessor or with "his"/"her"."""
    poss = next((c for c in noun.children if c.dep_ == "poss"), None)
    if poss is None:
        return None
    said_by = speaker.lower() == subject.name.lower() or speaker.lower().split()[0] in subject.aliases
    low = poss.lower_
    if low in ("my", "our"):
        return subject.speaker and said_by
    if low in ("your", "ur", "yours"):
        return subject.speaker and not said_by
    if poss.pos_ == "PRON" or low in ("his", "her", "their", "its"):
        return None  # "his sister", "its singer": whose is the sentence's to say
    return subject.named_in(low)


def _asking(ctx: Context, group: str, word: str, subject: Subject, turns: list[Evidence],
            cues: set[str]) -> list[Evidence]:
    """The other speaker's turns that say the relation noun as the subject's own ("your wife")."""
    rows = turns_containing(ctx, group, [f"{you} {word}" for you in ("your", "ur")])
    asking = [ev for ev in dedupe(turns + [turn_evidence(r, 0.0, group) for r in rows])
              if not subject.said_by(ev.speaker) and SECOND_OWNED.search(ev.text)
              and stems_of(tokenize(ev.text)) & cues]
    return [ev for ev in asking if any(
        stems_of([t.text]) & cues and kin_owner(t, ev.speaker, subject) for t in parse(ev.text)
        if t.pos_ in ("NOUN", "PROPN"))]


def _people(sents: list[Any], excluded: set[str]) -> set[str]:
    """The people the sentences name: tagged names, and a capitalised subject the small tagger may call
    a place or a company ("Nina says thank you", "Ruben has joined a choir") when it is no place."""
    names = {sp.text for sent in sents for sp in spans_of(sent, "person", "") if sp.sure >= 0.9} | {
        t.text for sent in sents for t in sent if t.pos_ == "PROPN" and t.dep_ in ("nsubj", "nsubjpass")
        and t.ent_type_ in _AGENT_LABELS and not is_place_name(t.text)}
    return {n for n in names if norm(n) not in excluded}


def _latest(found: list[tuple[str, Evidence]]) -> tuple[str, Evidence] | None:
    return max(found, key=lambda x: (x[1].valid_at or FAR_PAST, x[1].source_ref or "")) if found else None


def answered_name(ctx: Context, group: str, word: str, subject: Subject, turns: list[Evidence],
                  cues: set[str], excluded: set[str]) -> tuple[str, Evidence] | None:
    """The person a speaker subject names first when asked about *their* relative: "how old is your
    son now?" → "Kuba is seven now", "and your husband, still teaching?" → "yes, Daniel still
    teaches": the reply's first sentence that names a person, that person as a clause's subject or
    object; the latest such reply."""
    if not subject.speaker:
        return None
    asking = _asking(ctx, group, word.lower(), subject, turns, cues)
    found: list[tuple[str, Evidence]] = []
    for row in (reply_rows(ctx, group, asking) if asking else {}).values():
        if not subject.said_by(row.get("speaker")):
            continue
        reply = turn_evidence(row, 0.0, group)
        for sent in parse(reply.text).sents:
            names = [sp for sp in spans_of(sent, "person", word) if norm(sp.text) not in excluded
                     and sent.doc[sp.start].dep_ in _NAMING_DEPS]
            if names:
                found.append((names[0].text, reply))
                break
            if any(t.pos_ in ("NOUN", "PROPN", "VERB") for t in sent):
                break  # the first sentence that says something: a name later is another's
    return _latest(found)


def named_before(ctx: Context, group: str, word: str, subject: Subject, turns: list[Evidence],
                 cues: set[str], excluded: set[str]) -> tuple[str, Evidence] | None:
    """The one person a speaker subject's turn names just before the other speaker answers it with the
    relation noun as the subject's own: "Nina says thank you" → "tell your wife she's welcome" (Nina).
    A turn naming two people leaves it open; the latest such exchange."""
    if not subject.speaker:
        return None
    asking = _asking(ctx, group, word.lower(), subject, turns, cues)
    found: list[tuple[str, Evidence]] = []
    for row in (prior_rows(ctx, group, asking) if asking else {}).values():
        if not subject.said_by(row.get("speaker")):
            continue
        said = turn_evidence(row, 0.0, group)
        names = _people(list(parse(said.text).sents), excluded)
        if len(names) == 1:
            found.append((names.pop(), said))
    return _latest(found)


def fragment_named(word_cues: set[str], subject: Subject, turns: list[Evidence],
                   excluded: set[str]) -> tuple[str, Evidence] | None:
    """The one person the sentence before names, when the subject's relation noun stands alone as a
    verbless sentence of its own ("Sofie has caught the bug! *My girlfriend*, doing parkrun, who
    knew."): the fragment says who the name just said is. The latest such turn."""
    found: list[tuple[str, Evidence]] = []
    for ev in turns:
        sents = list(parse(ev.text).sents)
        for before, sent in zip(sents, sents[1:], strict=False):
            root = sent.root
            if root.pos_ != "NOUN" or not stems_of([root.text]) & word_cues \
                    or kin_owner(root, ev.speaker or "", subject) is not True:
                continue
            names = _people([before], excluded)
            if len(names) == 1:
                found.append((names.pop(), ev))
    return _latest(found)
