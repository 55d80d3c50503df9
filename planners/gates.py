"""Gates: small, explainable rules that revise a route.

*Query gates* look at the question before retrieval and say which mode its surface asks
for (a second relation, "still", a date, "summarize", "how many"); each returns whether it
fired and the text that made it fire, so the trace explains the route. *Runtime gates*
are called later by procedures with what retrieval found: widen when nothing came back,
abstain when the asked-about entity was never grounded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from tkg.text import tokenize

from . import cues
from .lexicon import DEFAULT_LEXICON, Lexicon
from .payloads import INDEXES, Payload

_TIME_WORDS = frozenset({"now", "currently", "still", "anymore", "today", "nowadays"})
_POSSESSION_VERBS = frozenset({"have", "has", "had", "own", "owns", "keep", "keeps"})
_RELATIVE_HEADS = frozenset({"person", "one", "man", "woman", "guy", "girl", "someone", "people", "friend"})
# Words that name a relation only in the right spot ("Priya's place" yes, "in place of" no).
_WEAK_NOUNS = frozenset({"place", "home", "work", "title", "plan", "plans", "city", "group", "position"})
_WEAK_VERBS = frozenset(
    {"from", "into", "on", "seeing", "based", "located", "stay", "stays", "plan", "plans"}
)
# the words a question may end on after its relation: "who is he seeing *these days*", "at the moment"
_TRAILING_TIME = frozenset({*_TIME_WORDS, "these", "days", "lately", "moment", "at", "the", "right"})


@dataclass(frozen=True)
class GateResult:
    name: str
    fired: bool
    reason: str
    mode: str  # the mode this gate argues for when it fires


def relation_markers(words: list[str], lexicon: Lexicon) -> list[tuple[int, str, str]]:
    """Relation phrases that plausibly link two things: (position, kind, phrase).

    Verbs count anywhere; nouns only where they hang off something — after a possessive
    ("Priya's sister") or before "of" ("the home town of") — so "when she was a kid" or
    "how many pets" add nothing. Weak words ("from", "home", "work") count only after a
    possessive or at the end of the question ("where is Priya's wife from", "who is he seeing these
    days").

    >>> [p for _, _, p in relation_markers("who is kofi seeing these days".split(), DEFAULT_LEXICON)]
    ['seeing']
    """
    found: list[tuple[int, str, str]] = []
    end = len(words)  # the question's last word before a time said after the relation
    while end > 1 and words[end - 1] in _TRAILING_TIME:
        end -= 1
    # "how many pets does X have": the head noun is the relation the possession verb asks about
    possessed_head = -1
    if words and words[-1] in _POSSESSION_VERBS:
        for k, w in enumerate(words[:-1]):
            if w in ("many", "what", "which"):
                possessed_head = k + 1
                break
    i = 0
    while i < len(words):
        after_possessive = i > 0 and words[i - 1] in ("'s", "'")
        hit = None
        for kind in ("noun", "verb") if after_possessive else ("verb", "noun"):
            m = lexicon.match(words, i, kind)
            if m is not None:
                hit = (kind, m[1])
                break
        if hit is None:
            i += 1
            continue
        kind, n = hit
        phrase = " ".join(words[i : i + n])
        anchored = after_possessive or (i + n < len(words) and words[i + n] == "of") or possessed_head == i
        weak = phrase in (_WEAK_NOUNS if kind == "noun" else _WEAK_VERBS)
        if (kind == "verb" or anchored) and (not weak or anchored or i + n >= end):
            found.append((i, kind, phrase))
        i += n
    if len(words) > 2 and words[0] == "what" and words[-1] == "do":  # "what does X's wife do" asks a job
        found.append((len(words) - 1, "verb", "do"))
    return found


def relation_chain_gate(question: str, lexicon: Lexicon | None = None) -> GateResult:
    """Fires on a possessive chain ("Priya's manager's town") or on two relation phrases
    when one of them hangs off a possessive, an "of", or a "the person who" clause.

    >>> relation_chain_gate("Where does Marco's sister live?").fired
    True
    """
    anchor = cues.find_time_anchor(question)
    if anchor is not None:  # "... have in 2022?": the date is not part of the chain
        question = anchor.cut(question)
    words = [w for w in tokenize(question) if w not in _TIME_WORDS]
    poss = [i for i, w in enumerate(words) if w in ("'s", "'")]
    for a, b in zip(poss, poss[1:], strict=False):
        if b - a <= 4:
            return GateResult(
                "relation_chain",
                True,
                f"possessive chain: {' '.join(words[a - 1 : b + 2])}",
                "relation_chain",
            )
    marks = relation_markers(words, lexicon or DEFAULT_LEXICON)
    linked = any(
        kind == "noun" or _after_relative(words, i) for i, kind, _ in marks
    )
    if len(marks) >= 2 and linked:
        return GateResult(
            "relation_chain", True, "relations: " + ", ".join(p for _, _, p in marks), "relation_chain"
        )
    return GateResult("relation_chain", False, f"{len(marks)} linked relation phrase(s)", "relation_chain")


def _after_relative(words: list[str], i: int) -> bool:
    """Whether words[i] is the verb of a relative clause: "the person who (is) ...", "the one that X ..."."""
    j = i - 1
    if j >= 0 and words[j] in ("is", "was", "are", "were"):
        j -= 1
    for k in (j, j - 1):  # "the person who lives ...", "the person who Beatriz reports to"
        if k >= 1 and words[k] in ("who", "that") and words[k - 1] in _RELATIVE_HEADS:
            return True
    return False


def _cue_gate(name: str, cue: str | None, what: str, mode: str) -> GateResult:
    """A gate that fires when a cue was found, naming the cue in its reason."""
    return GateResult(name, cue is not None, f"{what} {cue!r}" if cue else f"no {what}", mode)


def recency_gate(question: str) -> GateResult:
    """Fires on "now", "currently", "still", "anymore", "these days", "latest", "current"."""
    return _cue_gate("recency", cues.recency_cue(question), "recency marker", "latest_version")


def time_anchor_gate(question: str) -> GateResult:
    """Fires on a date, a month or year, "before"/"after"/"when", "last summer", "as of"."""
    return _cue_gate("time_anchor", cues.time_cue(question), "time anchor", "time_anchored")


def summary_gate(question: str) -> GateResult:
    """Fires on "summarize", "tell me everything", "overview", "what has X been up to"."""
    return _cue_gate("summary", cues.summary_cue(question), "summary request", "long_form")


def aggregation_gate(question: str) -> GateResult:
    """Fires on "how many", "list", "all the", "which <plural> has ..."."""
    return _cue_gate("aggregation", cues.count_cue(question), "count/list request", "aggregation")


QUERY_GATES: tuple[Callable[[str], GateResult], ...] = (
    summary_gate,
    aggregation_gate,
    relation_chain_gate,
    time_anchor_gate,
    recency_gate,
)


def run_query_gates(question: str) -> list[GateResult]:
    """Every query gate's verdict on `question`, in precedence order (see `modes.GATE_PRECEDENCE`).

    >>> [g.name for g in run_query_gates("How many pets does Priya have?") if g.fired]
    ['aggregation']
    """
    return [gate(question) for gate in QUERY_GATES]


def empty_retrieval_fallback(payload: Payload) -> Payload:
    """A wider payload for when retrieval came back empty: twice the depth (at least 20),
    every index, rrf fusion with equal weights, no graph walk (the entity match failed).

    >>> from planners.payloads import default_payloads
    >>> empty_retrieval_fallback(default_payloads().for_mode("single_fact")).graph
    False
    """
    return replace(
        payload,
        name=payload.name if payload.name.endswith("+fallback") else f"{payload.name}+fallback",
        depth=max(20, payload.depth * 2),
        indexes=INDEXES,
        fusion="rrf",
        weights=tuple((i, 1.0) for i in INDEXES),
        graph=False,
        hop_limit=0,
        neighbours=max(1, payload.neighbours),
    )


def abstention_gate(grounded: bool, payload: Payload) -> bool:
    """True when the procedure should abstain: its payload asks for a grounded entity and
    none was found. A payload with abstention "none" (one a user sets) never abstains here.

    >>> from planners.payloads import default_payloads
    >>> abstention_gate(False, default_payloads().for_mode("single_fact"))
    True
    """
    return payload.abstention == "entity" and not grounded
