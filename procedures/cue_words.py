"""The words a sentence stating a value is likely to share with the question that asks for it: the
question's own content words, the words a value of its kind is often said with ("moved", "hired"),
and the asked predicate's verbs, nouns and phrases. The reader weighs a span by how near these are;
the turns it reads are found by them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from planners.asked import Asked
from tkg.text import content_terms, stem

from .about import Subject
from .span_workplaces import EMPLOYERS

if TYPE_CHECKING:
    from tkg.context import Context

_FORMERLY = re.compile(r"\b(?:previous(?:ly)?|former(?:ly)?|used to|before)\b", re.I)
_ORIGIN = re.compile(r"\bfrom\W*$", re.I)
# a question about a trip ("where did she go on holiday", "where did they spend New Year", "where did he fly")
_TRIP_Q = re.compile(r"\b(?:holiday\w*|hols|vacation\w*|trips?|travel\w*|honeymoon\w*|getaway|spen[dt]|"
                     r"spending|go(?:es|ne|ing)?\s+(?:away|abroad)|fl(?:y|ew|ying)|visit\w*)\b", re.I)
# the words a turn telling of a trip says of it ("back from Sardinia", "all inclusive", "flights booked"),
# which need not be the question's ("where did she go in September")
TRIP_WORDS = frozenset("back trip holiday hols flight flew fly flying vacation travel inclusive abroad "
                       "honeymoon getaway beach".split())


def trip_question(question: str) -> bool:
    """Whether a question asks where someone went on a trip rather than where they live or work.

    >>> [trip_question(q) for q in ("Where did Ana go on holiday in May?", "Where does Ana live?")]
    [True, False]
    """
    return bool(_TRIP_Q.search(question))


# the words a sentence stating a value of the kind often says, as stems (what `content_terms` gives)
KIND_CUES: dict[str, set[str]] = {kind: {stem(w) for w in words.split()} for kind, words in {
    "number": "old age turn turned birthday year years",
    "status": "married engaged wedding dating together proposed split single",
    "role": "job work title promoted promotion hired role position",
    "place": "live living moved move moving unpacked settled",
    "organisation": "job work working started hired joined shift",
}.items()}


# the words a sentence stating a value of a head noun's category often says ("twenty minutes on the e-bike")
HEAD_CUES: dict[str, set[str]] = {"transport": {stem(w) for w in "commute ride cycle drive minutes".split()}}
_LIGHT = frozenset("go move start be get".split())
# a partner asked for ("who is he seeing"): the words a turn that tells of a new romance says without
# naming the relation ("matched w someone called rafi", "we kissed!!")
_PARTNER = content_terms("partner girlfriend boyfriend bf gf dating seeing date")
_COURTING = content_terms("matched crush kissed romance romantic")
_PARTING = content_terms("split dumped")  # and one ending: "me n bo split up" (not "broke": "I'm broke")


def cue_terms(ctx: Context, question: str, predicate: str | None, subject: Subject | None,
              asked: Asked | None = None) -> set[str]:
    """Stemmed words a stating sentence is likely to share with the question: its content words
    and, for the relation it asks about, the predicate's verbs, nouns and phrases."""
    # a workplace's cues only for where someone works ("which football team" is no employer)
    kind = asked.kind if asked and (asked.kind != "organisation" or asked.head in EMPLOYERS) else ""
    terms = content_terms(question, drop=sorted(subject.aliases) if subject else ())
    terms |= KIND_CUES.get(kind, set()) | HEAD_CUES.get(asked.head if asked else "", set())
    terms |= {"ex"} if _FORMERLY.search(question) else set()  # "where did she work before": "ex-Google"
    terms |= {"from"} if _ORIGIN.search(question) else set()  # "which city is he from": "the guy from Braga"
    if predicate and predicate in ctx.registry:
        p = ctx.registry.get(predicate)
        # a light verb says nothing of a relation to a person ("go out with", "start seeing"); other words do
        light = _LIGHT if p.object_type == "person" else frozenset()
        words = " ".join((*p.phrases, *(v.split(" ")[0] for v in p.verbs if v.split(" ")[0] not in light),
                          *p.nouns,
                          *(x.split(" ")[-2] for x in p.possessive if " " in x),
                          # what a couple says of itself past its light verb: "me and Elio are official"
                          *(v.split(" ")[-1] for v in p.together_verbs if v.split(" ")[0] in _LIGHT)))
        terms |= content_terms(words.replace("{name}", ""))
    if asked is not None and asked.kind == "person" and terms & _PARTNER:
        terms |= _COURTING | _PARTING
    return terms
