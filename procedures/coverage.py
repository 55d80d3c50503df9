"""Does a graph answer cover what the question asks about?

A fact answers a question only when it speaks of what the question asks. "When did Jon start
to go to the gym?" finds Jon's one `visited` edge (Paris) through the words "go to", but nothing
of the edge says "gym": answering 28 January from it is wrong, and its source turn, put first,
pushes the turns that do say it down the evidence (BENCHMARKS.md, session 5, has what this check
gained). So the words the question asks
about, beyond its subject, the relation's own words and the frame ("names", "kind"), must be at
least half covered by the facts' objects, qualifiers and sentences. The head noun of a list
question names the kind of its values, not a topic, so "Which cities has Jon visited?" asks
about nothing else and any value covers it.

Example::

    >>> from planners.question import parse
    >>> from tkg.predicates import PredicateRegistry
    >>> registry = PredicateRegistry.load()
    >>> asked, said = coverage(parse("When did Jon start to go to the gym?"), ["Jon"], "visited",
    ...                        ["Jon visited Paris"], registry)
    >>> sorted(asked), said
    (['gym', 'start'], set())
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from planners.cues import recency_cue
from planners.question import Question
from tkg.text import content_terms

if TYPE_CHECKING:
    from tkg.models import Fact
    from tkg.predicates import PredicateRegistry

COVERED = 0.5  # share of the asked-about words the facts must say
# words that frame a list or count question rather than name what it is about
_FRAME = ("name names kind kinds type types sort sorts thing things time times many much ever all both "
          "current currently now")
# the head noun of a list or count question names the kind of its values ("which cities"), not a topic
HEAD = re.compile(r"\b(?:how many|which|what|list(?: all)?(?: the)?|all the)\s+([a-z][a-z-]+)", re.I)


def coverage(q: Question, subjects: Sequence[str], predicate: str, texts: Iterable[str],
             registry: PredicateRegistry) -> tuple[set[str], set[str]]:
    """(what the question asks about, what of it ``texts`` say), as stemmed content words."""
    own: list[str] = [predicate.replace("_", " ")]
    if predicate in registry:
        p = registry.get(predicate)
        own += [w.replace("{name}", "") for w in (*p.phrases, *p.inverse_phrases, *p.verbs, *p.nouns,
                                                  *p.inverse_nouns, *p.possessive)]
    question, anchor = q.text, q.anchor  # "in May 2023" says when, not what
    if anchor is not None:
        question = anchor.cut(question, " ")
    while cue := recency_cue(question):  # and so does "at the moment"
        question = question.replace(cue, " ", 1)
    head = HEAD.search(question)
    asked = content_terms(question, drop=[*subjects, *own, _FRAME, head.group(1) if head else ""])
    return asked, asked & content_terms(" ".join(texts))


def covers(q: Question, subjects: Sequence[str], predicate: str, facts: Sequence[Fact],
           registry: PredicateRegistry) -> bool:
    """Whether ``facts`` say at least `COVERED` of what the question asks about beyond its relation."""
    texts = [f"{f.object} {f.qualifier} {f.fact}" for f in facts]
    asked, said = coverage(q, subjects, predicate, texts, registry)
    return not asked or len(said) >= COVERED * len(asked)
