"""Whether a procedure's answer is a value or only a sentence that scored well (`echoed`), and
whether a text names a value of the asked kind (`names_kind`). An amount of money, or a thing known
by a proper name (`asks_a_name`: a band, a bakery, "the name of …"), is never answered by a whole
sentence copied from a turn that names none: the reader says it has no value instead; a work known by
its title (a book, a song) is answered by the one title that sentence or its turn quotes. Other open
kinds keep the procedure's sentence when the reader finds no value (LoCoMo's answers are often whole
sentences, and an abstention there counts as a false one). A copied sentence that is itself a question
is answered by its reply, when it asks what the question asks (`answered_by_reply`), and by nothing otherwise.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from planners.head_words import a_breed
from planners.question import Question
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.text import content_terms, split_sentences

from .about import Subject
from .backfill import turn_evidence
from .group_turns import reply_rows
from .reader import Candidate, Reading, no_information
from .result import ProcedureResult
from .spans import spans_of

if TYPE_CHECKING:
    from tkg.context import Context

# a two-word sentence that says one of these is a turn's, not a value: "keep him.", "still there."
_PRONOUNS = frozenset("him her it them me us you there here".split())


def echoed(result: ProcedureResult) -> bool:
    """The procedure's answer is a whole sentence copied from a turn, not a value read out of one."""
    low = " ".join(result.answer.split()).lower()
    words = low.split()
    last = result.answer.split()[-1:] or [""]
    sentence = len(words) >= 5 or (len(words) >= 3 and low[-1:] in ".!?") or (  # "also sad news."
        len(words) == 2 and low[-1:] in ".!?" and (bool({w.strip(".!?") for w in words} & _PRONOUNS)
                                                   or last[0][:1].islower())) or (  # "Will do.", "Yes ma."
        len(words) == 1 and low[-1:] in ".!?" and any(  # "legend." opening a turn: the turn's first sentence
            " ".join(e.text.split()).lower().startswith(low) for e in result.evidence))
    return sentence and any(low in " ".join(e.text.split()).lower() for e in result.evidence)


def sentence_for_value(q: Question, result: ProcedureResult, trace: dict[str, Any],
                       turns: list[Evidence], *, state: bool = False) -> Reading | None:
    """The procedure's answer stands (None), unless an amount was asked, or a thing of a category as it
    is now (asked "now", or ``state``: a current value asked without the word), and the answer is a
    whole sentence copied from a turn that names none: a sentence that scored well is no amount ("how
    much did she sell it for?" → "I sold it last week."), nor the crumble someone prefers now ("No
    apology needed."), nor the car she drives ("Will do."), so the reader says it has none. Asked now,
    saying the category is not naming one ("did my first shift in charge of the unit")."""
    asked = q.asked
    current = asked.kind == "thing" and bool(asked.head) and (asked.recency or state) and not asked.many
    if not (asked.head == "amount" or current) or asked.yesno or not echoed(result) \
            or names_kind(result.answer, q, head_word=not current):
        return None
    return no_information(f"no {asked.head or asked.kind} is named in the evidence, only whole turns",
                          result.evidence or turns[:5], trace)


def answered_by_reply(ctx: Context, q: Question, group: str, subject: Subject | None, result: ProcedureResult,
                      trace: dict[str, Any], turns: list[Evidence]) -> Reading | None:
    """When the procedure's answer is a question copied from a turn, and it asks what the question
    does (two content words in common besides names: "How long have you been playing the piano?"
    for "How long has Tim been playing the piano?"), the other speaker's reply answers it: its first
    statement of three words or more, with the reply as evidence before the question's turn. Another
    question ("Would that be weird?"), or one with no reply, states nothing; so does a reply by a
    speaker other than the one asked about ("how long has John played?" answered by Tim). None when
    the answer is no copied question."""
    if not (echoed(result) and result.answer.rstrip().endswith("?")):
        return None
    low = " ".join(result.answer.split()).lower()
    asking = next((e for e in result.evidence if low in " ".join(e.text.split()).lower()), None)
    names = {n.lower() for n in q.named}
    same = len((content_terms(result.answer) & content_terms(q.text)) - content_terms(" ".join(names))) >= 2
    row = reply_rows(ctx, group, [asking]).get(asking.episode) if asking is not None and same else None
    said = [x for x in split_sentences(str(row.get("text") or ""))  # a statement, not "Sure!" or "Hmm."
            if not x.rstrip().endswith("?") and sum(w.isalpha() for w in x.split()) >= 3] if row else []
    theirs = subject is None or not subject.speaker or row is not None and subject.said_by(
        str(row.get("speaker")))
    if asking is None or row is None or not said or not theirs:
        return no_information("the evidence's sentence asks a question, and no reply answers it",
                              result.evidence or turns[:5], trace)
    reply = turn_evidence(row, asking.score, group)
    return Reading(said[0], False, [reply, *(e for e in result.evidence if e.episode != reply.episode)],
                   {**trace, "answered_by": f"the reply ({reply.source_ref}) to the question its turn asks"})


# things known by a proper name ("which band", "what business"): a sentence that only says the
# category ("the best band I've seen") names none of them
NAMED_HEADS = frozenset("""nickname band album song book novel film movie show series podcast app game brand
    shop store restaurant cafe café bar pub hotel church venue facility studio label magazine zine newspaper
    blog channel website business bakery startup charity gallery museum""".split())
# the named things whose names people quote ("read 'Becoming Nicole'"): works with a title
TITLED_WORKS = frozenset("album song book novel film movie show series podcast game magazine zine poem play"
                         .split())
_NAME_ASKED = re.compile(r"\bname\s+of\b|\b(?:is|was|are|were)\b.*\bcalled\s*\??\s*$", re.I)
# a title in quotes ("read 'Designing Data Systems'") or a model number ("a 4070"): how a sentence
# may name such a thing in words the spans do not type
# (a title between double quotes may hold an apostrophe: "Charlotte's Web")
_QUOTED = re.compile(r"(?:^|(?<=[\s(]))(?:\"([^\"\u201d]{2,60})\"|\u201c([^\"\u201d]{2,60})\u201d"
                     r"|['\u2018]([^'\"\u2019\u201d]{2,60})['\u2019])(?=[\s,.!?;:)]|$)")
_TITLED = re.compile(_QUOTED.pattern + r"|\b\w*\d{3,}\w*\b")


def asks_a_name(q: Question) -> bool:
    """The question asks for a thing's proper name: its head is a thing known by one ("which *band*")
    or it asks for a name ("what is the name of …", "what was her zine called?").

    >>> from planners.question import parse
    >>> asks_a_name(parse("Which band did Bea see?")), asks_a_name(parse("What was Jess's zine called?"))
    (True, True)
    >>> asks_a_name(parse("What injury kept Jonas out?"))
    False
    """
    asked = q.asked
    return asked.kind == "thing" and (asked.head in NAMED_HEADS or _NAME_ASKED.search(q.text) is not None)


def names_kind(text: str, q: Question, *, head_word: bool = True) -> bool:
    """The text says a value of the asked kind, or the asked category ("the best *band* ever"): a
    turn that does may hold the answer in words the reader could not type, so it stands. When a
    proper name is asked (`asks_a_name`), only a quoted title or a model number may be one. Without
    ``head_word``, the category said counts for nothing.

    >>> from planners.question import parse
    >>> names_kind("Honestly the best band I've seen in years.", parse("Which band did Bea see?"))
    False
    >>> names_kind("Also read 'The Quiet Orchard' this spring.", parse("Which book did he read?"))
    True
    """
    if asks_a_name(q):
        return _TITLED.search(text) is not None
    asked = q.asked
    head = {asked.head, asked.head + "s"} - {"s"} if asked.kind == "thing" and head_word else set()
    return any(spans_of(sent, asked.kind, asked.head) or {t.lower_ for t in sent} & head
               for sent in parse(text).sents)


def quoted_titles(text: str) -> list[str]:
    """The titles a text quotes, each once: a quoted phrase starting with a capital or a digit
    ("loved reading "Charlotte's Web" as a kid"), not a quoted word said back ("she said 'no'").

    >>> quoted_titles('Yeah! "Brave" by Sara Bareilles. She said "no way", and read \u2018Orlando\u2019.')
    ['Brave', 'Orlando']
    """
    found = (next(g for g in m.groups() if g) for m in _QUOTED.finditer(text))
    return list(dict.fromkeys(t.strip() for t in found if t.strip()[:1].isupper() or t.strip()[:1].isdigit()))


def title_answer(q: Question, result: ProcedureResult, trace: dict[str, Any]) -> Reading | None:
    """For a work known by its title (`TITLED_WORKS`: a book, a song…), the one title the procedure's
    copied sentence or, failing that, its turn quotes, as the value, with that turn as its support;
    None when the sentence is no copy, or the turn quotes no title or several. A band or a shop is
    not answered so: the title a turn quotes beside one is its song or its product."""
    if q.asked.kind != "thing" or q.asked.head not in TITLED_WORKS or not echoed(result):
        return None
    low = " ".join(result.answer.split()).lower()
    turn = next((e for e in result.evidence if low in " ".join(e.text.split()).lower()), None)
    if turn is None:
        return None
    titles = quoted_titles(result.answer) or quoted_titles(turn.text)
    if len(titles) != 1:
        return None
    rest = [e for e in result.evidence if e is not turn]
    return Reading(titles[0], False, [turn, *rest], {**trace, "title": {"from": turn.source_ref}})


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


def answering(cands: list[Candidate], q: Question) -> list[Candidate]:
    """The candidates that can answer ``q``: none that only says back its words (`repeats_question`,
    a yes/no question's words may be its answer), and for "what breed of dog" only a breed of one."""
    if not q.asked.yesno:
        cands = [c for c in cands if not repeats_question(c.value, q)]
    return [c for c in cands if a_breed(c.value, q.text)] if q.asked.head == "breed" else cands
