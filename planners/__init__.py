"""Query planning: what a question says, which mode it is, what to retrieve for it, which hops to walk.

    route(question, index=...) -> Route  the parsed Question, mode, payload, procedure, gate trace, timings
    parse(question, index=...) -> Question   text, tokens, terms, answer kind, time anchor, cues,
                                             mentions, slot
    plan_hops(question, names) -> HopPlan | None   seed entity + hops over the closed vocabulary

Nothing here touches a store or imports a procedure: the group's entity index comes in as data,
and routes, questions and hop plans are plain data that procedures execute (`procedures/walker.py`
walks a hop plan over the store).
"""

from __future__ import annotations

from .classifier import (
    LLMClassifier,
    ModeClassifier,
    NaiveBayesClassifier,
    default_classifier,
    evaluate_classifier,
)
from .gates import GateResult, abstention_gate, empty_retrieval_fallback, run_query_gates
from .hop_planner import Hop, HopPlan, find_mentions, plan_hops
from .lexicon import DEFAULT_LEXICON, ExtraPhrase, Lexicon, build_lexicon
from .payloads import Payload, PayloadTable, default_payloads, load_payloads, widen
from .question import Question, QuestionSlot, parse
from .router import Route, route

__all__ = [
    "DEFAULT_LEXICON",
    "ExtraPhrase",
    "GateResult",
    "Hop",
    "HopPlan",
    "LLMClassifier",
    "Lexicon",
    "ModeClassifier",
    "NaiveBayesClassifier",
    "Payload",
    "PayloadTable",
    "Question",
    "QuestionSlot",
    "Route",
    "abstention_gate",
    "build_lexicon",
    "default_classifier",
    "default_payloads",
    "empty_retrieval_fallback",
    "evaluate_classifier",
    "find_mentions",
    "load_payloads",
    "parse",
    "plan_hops",
    "route",
    "run_query_gates",
    "widen",
]
