"""Whether a sentence the procedure copied from a turn supports the question it answers.

When the reader finds no value of the asked kind, the procedure's best-scoring sentence stands
(LoCoMo's answers are often whole sentences). Such a sentence is no answer when the clauses that
carry the question's words only intend or imagine what the question asks as done ("What song does
Yuki play on the piano?" → "I want to learn the piano, but no time."): an intention, a wish or a
condition is not a fact. Read from the parse (`procedures.stated`), not from the sentence's words.
A question that itself asks about plans, wishes or a guess is left alone.
"""

from __future__ import annotations

import re

from planners.question import Question
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.text import content_terms, stem

from .abstain import GENERIC, INFERENCE, SAY_VERBS
from .stated import intended_tokens

# a question about an intention or a future asks for exactly what an intention says
_ABOUT_INTENT = re.compile(r"\b(?:plan\w*|want\w*|hop(?:e|es|ed|ing)|wish\w*|intend\w*|going to|gonna|will|"
                           r"'ll|would|might|could|should|dream\w*|consider\w*|think\w* (?:of|about)|"
                           r"next|future|goals?|aspir\w*|someday|upcoming)\b", re.I)


def copied(answer: str, evidence: list[Evidence]) -> bool:
    """The answer is a whole sentence copied from an evidence turn, not a value read out of one."""
    low = " ".join(answer.split()).lower()
    sentence = len(low.split()) >= 4 or (len(low.split()) >= 3 and low[-1:] in ".!?")
    return sentence and any(low in " ".join(e.text.split()).lower() for e in evidence)


def only_intended(q: Question, answer: str, evidence: list[Evidence]) -> str | None:
    """Why the copied sentence ``answer`` does not support ``q`` (its clauses that share the
    question's words only intend or imagine), or None when it may stand."""
    if _ABOUT_INTENT.search(q.text) or INFERENCE.search(q.text) or SAY_VERBS.search(q.text) \
            or q.asked.kind in ("reason", "manner", "summary") or not copied(answer, evidence):
        return None  # a reason, a manner or what someone said may well be an intention
    asked = {t for t in q.terms if t not in GENERIC and len(t) >= 3} - content_terms(" ".join(q.named))
    # the question's words in the answer, and whether each sits in a clause that only intends
    said = [(t.i, t.i in intended_tokens(s)) for s in parse(answer).sents for t in s
            if t.is_alpha and stem(t.lower_) in asked]
    if said and all(only for _, only in said):
        return "the sentence that shares the question's words only intends it"
    return None
