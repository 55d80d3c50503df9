"""Whether a procedure's answer is a value or only a sentence that scored well (`echoed`), and
whether a text names a value of the asked kind (`names_kind`). An amount of money is never
answered by a whole sentence copied from a turn that names none: the reader says it has no value
instead. Other kinds keep the procedure's sentence when the reader finds no value (LoCoMo's
answers are often whole sentences, and an abstention there counts as a false one).
"""

from __future__ import annotations

from typing import Any

from planners.asked import Asked
from planners.question import Question
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.text import content_terms

from .reader import Reading, no_information
from .result import ProcedureResult
from .spans import spans_of


def echoed(result: ProcedureResult) -> bool:
    """The procedure's answer is a whole sentence copied from a turn, not a value read out of one."""
    low = " ".join(result.answer.split()).lower()
    sentence = len(low.split()) >= 5 or (len(low.split()) >= 3 and low[-1:] in ".!?")  # "also sad news."
    return sentence and any(low in " ".join(e.text.split()).lower() for e in result.evidence)


def sentence_for_value(q: Question, result: ProcedureResult, trace: dict[str, Any],
                       turns: list[Evidence]) -> Reading | None:
    """The procedure's answer stands (None), unless an amount was asked and the answer is a whole
    sentence copied from a turn that names none: a sentence that scored well is no amount ("how
    much did she sell it for?" → "I sold it last week."), so the reader says it has none."""
    asked = q.asked
    if asked.head != "amount" or asked.yesno or not echoed(result) or names_kind(result.answer, asked):
        return None
    return no_information(f"no {asked.head or asked.kind} is named in the evidence, only whole turns",
                          result.evidence or turns[:5], trace)


def names_kind(text: str, asked: Asked) -> bool:
    """The text says a value of the asked kind, or the asked category ("the best *band* ever"): a
    turn that does may hold the answer in words the reader could not type, so it stands."""
    head = {asked.head, asked.head + "s"} - {"s"} if asked.kind == "thing" else set()
    return any(spans_of(sent, asked.kind, asked.head) or {t.lower_ for t in sent} & head
               for sent in parse(text).sents)


def repeats_question(value: str, q: Question) -> bool:
    """The value only says back words of the question ("residency" for "which residency did she
    take?", "Nadia" for "what is the name of Nadia's cat?"): it tells nothing, so it answers
    nothing. A question that offers choices ("Leeds or York?") is answered by one of them.

    >>> from planners.question import parse
    >>> q = parse("Which residency did Nadia take?")
    >>> repeats_question("residency", q), repeats_question("the glass studio in Murano", q)
    (True, False)
    >>> repeats_question("York", parse("Does she live in Leeds or York now?"))
    False
    """
    said = content_terms(value)
    return bool(said) and " or " not in q.text.lower() and said <= q.terms
