"""Query planning: which mode a question is, what to retrieve for it, and how to walk the graph.

    route(question) -> Route            mode, payload, procedure, gate trace, timings
    plan_hops(question, names) -> HopPlan | None   seed entity + hops over the closed vocabulary

Nothing here touches a store: routes and hop plans are plain data that procedures execute.
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
    "Route",
    "abstention_gate",
    "build_lexicon",
    "default_classifier",
    "default_payloads",
    "empty_retrieval_fallback",
    "evaluate_classifier",
    "find_mentions",
    "load_payloads",
    "plan_hops",
    "route",
    "run_query_gates",
    "widen",
]
