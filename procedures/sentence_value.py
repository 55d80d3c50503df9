"""Whether a procedure's answer is a value or only a sentence that scored well: a value question
(a place, a thing, a date, an amount…) is never answered by a whole sentence copied from a turn
that names nothing of the asked kind; the reader says it has no value instead. Reasons, manners,
events, summaries, yes/no and "what do they do" questions may answer with a clause.
"""

from __future__ import annotations

import re
from typing import Any

from planners.asked import Asked
from planners.question import Question
from tkg.models import Evidence
from tkg.nlp import parse

from .abstain import INFERENCE
from .reader import Reading, no_information
from .result import ProcedureResult
from .spans import spans_of

CLAUSE_KINDS = frozenset({"reason", "manner", "event", "summary"})  # answered by a clause, not a value
_DOING = re.compile(r"\bwhat (?:do|does|did) .*\bdo\b", re.I)  # "what does his family do": an activity


def echoed(result: ProcedureResult) -> bool:
    """The procedure's answer is a whole sentence copied from a turn, not a value read out of one."""
    low = " ".join(result.answer.split()).lower()
    sentence = len(low.split()) >= 5 or (len(low.split()) >= 3 and low[-1:] in ".!?")  # "also sad news."
    return sentence and any(low in " ".join(e.text.split()).lower() for e in result.evidence)


def sentence_for_value(q: Question, result: ProcedureResult, trace: dict[str, Any],
                       turns: list[Evidence]) -> Reading | None:
    """The procedure's answer stands (None), unless a value was asked (a place, a thing, a date, an
    amount…) and the answer is a whole sentence copied from a turn that names none of that kind: a
    sentence that scored well is no value ("how much did she sell it for?" → "I sold it last
    week."), so the reader says it has none. Reasons, manners, events, summaries, yes/no and "what
    did they do" questions may answer with a clause."""
    asked = q.asked
    if asked.kind in CLAUSE_KINDS or asked.yesno or _DOING.search(q.text) or INFERENCE.search(q.text) \
            or not echoed(result) or names_kind(result.answer, asked):
        return None
    return no_information(f"no {asked.head or asked.kind} is named in the evidence, only whole turns",
                          result.evidence or turns[:5], trace)


def names_kind(text: str, asked: Asked) -> bool:
    """The text says a value of the asked kind, or the asked category ("the best *band* ever"): a
    turn that does may hold the answer in words the reader could not type, so it stands."""
    head = {asked.head, asked.head + "s"} - {"s"} if asked.kind == "thing" else set()
    return any(spans_of(sent, asked.kind, asked.head) or {t.lower_ for t in sent} & head
               for sent in parse(text).sents)
