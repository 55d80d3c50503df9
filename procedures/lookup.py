"""The ``lookup`` procedure: retrieve, then answer with the best evidence sentence, or abstain.

Direct lookup is extractive on purpose: the answer is a sentence somebody said, so it is never
more than the evidence supports. The sentence is chosen among the top turns by how many of the
question's content words it shares (on crude stems, "painted" ~ "paint"), with a prior for the
turn's rank and for the sentence a sentence index or fact matched.

Graph first: when the question is about one person's one relation ("Who is Nikolai dating?",
"Where does Priya live?") and the graph holds an open edge for that slot, the edge's object is
the answer and its source turn leads the evidence (the classifier may send such a question here
rather than to ``graph_latest``).

It abstains (``NO_INFORMATION``) when nothing was retrieved, when the closest turn is too far
from the question (best cosine below the payload's ``abstain_threshold``), or, with
``abstention = "entity"``, when every name the question uses is unknown: in no retrieved turn
and no entity of the group. One known name is enough to answer: "Would Melanie enjoy Vivaldi?"
asks about Melanie, whom memory knows, and needs an inference, not an abstention.

Example::

    >>> from procedures.lookup import lookup  # doctest: +SKIP
    >>> r = lookup(mem.ctx, "Where did Priya move?", "priya-marco", payload)  # doctest: +SKIP
    >>> r.answer, r.evidence[0].source_ref  # doctest: +SKIP
    ('I moved to Lisbon last month.', 'D2:4')
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from planners.payloads import Payload
from planners.query_text import QueryText, parse_question
from planners.question import Question
from tkg.context import Context
from tkg.models import NO_INFORMATION, Evidence, Fact
from tkg.text import loose_stems, split_sentences, words

from .fusion import Tuning
from .result import ProcedureResult, evidence_from_hits
from .retrieval import Hit, Retrieval, retrieve
from .slots import analyse, current_slot, latest_answer
from .synthesis import dedupe, fact_evidence

ANSWER_FROM = 3  # the answer sentence comes from the first N turns


def lookup(
    ctx: Context, q: Question, group: str, payload: Payload, *, as_of: datetime | None = None,
    tuning: Tuning | None = None,
) -> ProcedureResult:
    """Retrieve for the question and answer with the best-supported sentence (or abstain)."""
    r = retrieve(ctx, q.query, group, payload, as_of=as_of, tuning=tuning)
    trace: dict[str, Any] = {
        "procedure": "lookup", "indexes": list(payload.indexes), "fusion": payload.fusion,
        "depth": payload.depth, "neighbours": payload.neighbours, "counts": r.counts,
        "timings_ms": r.timings_ms, "as_of": as_of.isoformat() if as_of else None, **r.trace,
    }
    evidence = evidence_from_hits(r.hits, group)
    graph = _slot_answer(ctx, q, group, as_of, trace)
    if graph is not None:  # an open edge grounds the question by itself
        answer, facts, support = graph
        return ProcedureResult(
            answer=answer, evidence=dedupe(support + evidence), facts=facts, abstained=False, trace=trace
        )
    reason = _abstain_reason(ctx, q, group, payload, r)
    if reason:
        trace["abstained_because"] = reason
        return ProcedureResult(
            answer=NO_INFORMATION, evidence=evidence, facts=r.facts, abstained=True, trace=trace
        )
    answer, source = best_sentence(q.query, r.hits[:ANSWER_FROM])
    trace["answer_from"] = source
    return ProcedureResult(answer=answer, evidence=evidence, facts=r.facts, abstained=False, trace=trace)


def _slot_answer(
    ctx: Context, q: Question, group: str, as_of: datetime | None, trace: dict[str, Any]
) -> tuple[str, list[Fact], list[Evidence]] | None:
    """Graph first: a question about one person's one relation ("Who is Nikolai dating?") that
    the classifier sent here is answered from that slot's open edge when the graph has one.

    Only a one-hop plan of the hop planner counts (subject and relation both recognised), so a
    question merely mentioning a relation word keeps its extractive answer.
    """
    slot = analyse(ctx, q, group)
    if slot.plan is None or len(slot.plan.hops) != 1 or slot.subject is None or not slot.predicate:
        return None
    current = [f for f in current_slot(ctx, group, slot, as_of) if not f.unnamed_object]
    if not current:
        return None  # (an edge to a partner never named says that there is one, not who)
    trace["answer_from"] = "graph"
    trace["from_graph"] = True  # the answer rests on an edge (the abstention gate reads this)
    trace["slot"] = {
        "subject": slot.subject.name,
        "predicate": slot.predicate,
        "current": [f.object for f in current],
    }
    return latest_answer(q.text, slot, current), current, fact_evidence(ctx, group, current)


def best_sentence(q: QueryText, hits: list[Hit]) -> tuple[str, str | None]:
    """The sentence of the first hits that best covers the question's words, and its source_ref.

    >>> h = Hit("e1", "D1:2", "Hi! I moved to Lisbon in May. It rains.", "Priya", None, 1.0, ("chunk_text",))
    >>> best_sentence(parse_question("Where did Priya move to?"), [h])
    ('I moved to Lisbon in May.', 'D1:2')
    """
    wanted = loose_stems(q.words)
    named = {n.casefold() for n in q.names}
    best: tuple[float, str, str | None] = (-1.0, "", None)
    for rank, hit in enumerate(hits):
        prior = 1.0 / (rank + 1) + (0.5 if hit.speaker.casefold() in named else 0.0)  # their own words
        for sentence in split_sentences(hit.text) or [hit.text]:
            said = loose_stems(parse_question(sentence).words)
            have = said | loose_stems(words(hit.speaker))
            # Covering the question matters most; then a sentence that adds something (an answer
            # says more than the question did) and is not itself a question.
            score = (
                len(wanted & have)
                + 0.5 * prior
                + (0.5 if hit.matched and hit.matched in sentence else 0.0)
                + 0.1 * min(len(said - wanted), 5)
                - (1.0 if sentence.rstrip().endswith("?") else 0.0)
            )
            if score > best[0]:
                best = (score, sentence, hit.source_ref)
    return best[1], best[2]


def _abstain_reason(ctx: Context, q: Question, group: str, payload: Payload, r: Retrieval) -> str | None:
    if not r.hits:
        return "nothing retrieved"
    cosine = r.trace.get("best_cosine")
    if cosine is not None and cosine < payload.abstain_threshold:
        return f"closest evidence too far (cosine {cosine:.2f} < {payload.abstain_threshold})"
    if payload.abstention == "entity":
        missing = _ungrounded_names(ctx, q, group, r.hits)
        if missing:
            return f"not in memory: {', '.join(missing)}"
    return None


def _ungrounded_names(ctx: Context, q: Question, group: str, hits: list[Hit]) -> list[str]:
    """The question's names when none of them is known (in a retrieved turn or an entity), else [].

    The question's first word is not taken as a name: it is capitalised by position.
    """
    first = q.text.strip().split(" ", 1)[0].strip("\"'?!.,")
    names = [n for n in q.named if n != first]
    if not names:
        return []
    seen = set().union(*(set(words(f"{h.speaker} {h.text}")) for h in hits))
    if any(set(words(n)) <= seen for n in names):
        return []
    entities = ctx.entities(group)
    return [] if any(entities.find(n) is not None for n in names) else names
