"""From evidence to an answer: extractive offline, phrased by a provider when one is set.

Offline, an answer is a fact's object (with its interval when the question is about time)
or the evidence sentence that best matches the question. With `ctx.llm` set, the model gets
the numbered evidence and may only rank or phrase it: the reply must cite the items it used,
and a reply that cites nothing falls back to the extractive answer — a model never adds a
fact. "No information available" from the model is an abstention.

Example::

    >>> best_sentence("Which band does Priya like?", "Long day. Fleetwood Mac is my favourite band.")
    'Fleetwood Mac is my favourite band.'
    >>> format_day(datetime(2023, 5, 7, 14, 0, tzinfo=UTC))
    '7 May 2023'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from planners.question import Question
from tkg.errors import ProviderError
from tkg.llm import parse_synthesis, synthesis_prompt
from tkg.models import NO_INFORMATION, Evidence, Fact
from tkg.text import content_terms, split_sentences
from tkg.time_spans import part_name
from tkg.timeparse import TimeRef

if TYPE_CHECKING:
    from tkg.context import Context

_NAMED = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+")  # a capitalised word mid-sentence

LONG_FORM_SYSTEM = f"""You write a short overview of what a conversation history says, for the person asking.
Use ONLY the numbered evidence below, in chronological order where it helps. Never add facts the evidence
does not state. If the evidence does not mention the person or topic asked about, answer exactly:
{NO_INFORMATION}
Reply in exactly two lines:
ANSWER: <one paragraph of plain prose>
CITED: <the numbers of the evidence items you used, comma-separated>"""


def best_sentence(
    question: str | Question, text: str, *, focus: Iterable[str] = (), informative: bool = False
) -> str:
    """The sentence of `text` sharing the most content words with the question (and, twice as
    much, with `focus` terms); the earliest wins ties. `informative` breaks ties by named things
    and length instead, so "Busy!" never stands for a whole turn."""
    return scored_sentence(question, text, focus=focus, informative=informative)[1]


def scored_sentence(
    question: str | Question | Set[str], text: str, *, focus: Iterable[str] = (), informative: bool = False
) -> tuple[float, str]:
    """`best_sentence` with its score: the question's content words (or these terms) it shares, and
    twice the focus terms (0: it shares none, and was only the first sentence).

    >>> scored_sentence("blood thinner", "Hi. Her doctor put her on a blood thinner last week.")
    (2.0, 'Her doctor put her on a blood thinner last week.')
    >>> scored_sentence("blood thinner", "Hi. I'm not sure where to start.")
    (0.0, 'Hi.')
    """
    sentences = split_sentences(text) or [text]
    if isinstance(question, Question):
        wanted: Set[str] = question.terms
    else:
        wanted = content_terms(question) if isinstance(question, str) else question
    focused = content_terms(" ".join(focus))
    best, best_key = sentences[0], (-1.0, 0.0)
    for s in sentences:
        terms = content_terms(s)
        score = len(terms & wanted) + 2.0 * len(terms & focused)
        detail = float(len(_NAMED.findall(s)) * 20 + min(len(s), 200)) if informative else 0.0
        if (score, detail) > best_key:
            best, best_key = s, (score, detail)
    return best_key[0], best.strip()


def format_day(when: datetime | None) -> str:
    """"7 May 2023" (no leading zero), the form LoCoMo answers use."""
    if when is None:
        return "an unknown date"
    return f"{when.day} {when:%B %Y}"


def format_ref(ref: TimeRef) -> str:
    """A resolved time expression at its own granularity: a day, a month, a season, a year."""
    start = ref.start
    if ref.granularity == "day":
        return format_day(start)
    if ref.granularity == "month":
        return f"{start:%B %Y}"
    if ref.granularity == "year":
        return str(start.year)
    if ref.granularity == "season":
        season = {3: "spring", 6: "summer", 9: "autumn", 12: "winter"}.get(start.month, "season")
        return f"{season} {start.year}"
    if ref.granularity in ("week", "weekend"):
        return f"the {ref.granularity} of {format_day(start)}"
    if ref.granularity == "part" and (part := part_name(start, ref.end)):
        return part
    return f"{format_day(start)} – {format_day(ref.end)}"


def interval_text(fact: Fact) -> str:
    """"since 4 June 2023" or "4 June 2023 – 19 May 2024" (valid time)."""
    if fact.invalid_at is None:
        return f"since {format_day(fact.valid_at)}"
    return f"{format_day(fact.valid_at)} – {format_day(fact.invalid_at)}"


def fact_evidence(ctx: Context, group: str, facts: Sequence[Fact], *, score: float = 1.0) -> list[Evidence]:
    """One evidence item per source turn of `facts` (a fact's first source episode), in fact order.

    Each turn is read by its key, one query per distinct turn: a graph answer names a few.
    """
    out: list[Evidence] = []
    seen: set[str] = set()
    read: dict[tuple[str, str], dict[str, Any]] = {}  # facts of one turn (a history list) share a read
    for f in facts:
        turn = _source_turn(ctx, group, f, read)
        ep = str(turn.get("uuid") or (f.episodes or [""])[0])
        if ep and ep in seen:
            continue  # one item per turn: the first fact it supports names it
        seen.add(ep)
        out.append(
            Evidence(
                source_ref=f.source_ref or turn.get("source_ref"), episode=ep,
                text=turn.get("text") or f.fact,
                valid_at=turn.get("valid_at") or f.valid_at, score=score, group=group,
                speaker=turn.get("speaker") or "", kind="fact", fact=f.uuid,
            )
        )  # fmt: skip
    return out


def _source_turn(
    ctx: Context, group: str, fact: Fact, read: dict[tuple[str, str], dict[str, Any]]
) -> dict[str, Any]:
    if fact.episodes:
        op, key, param = "graph.turn", fact.episodes[0], "episode_uuid"
    elif fact.source_chunk:
        op, key, param = "graph.turn_of_chunk", fact.source_chunk, "chunk_uuid"
    else:
        return {}
    if (op, key) not in read:
        rows = ctx.store.named(op, {"group_id": group, param: key})
        read[(op, key)] = rows[0] if rows else {}
    return read[(op, key)]


def dedupe(evidence: Iterable[Evidence]) -> list[Evidence]:
    """Evidence without repeats of the same turn text (first occurrence kept)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for e in evidence:
        key = (e.episode, e.text)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


@dataclass
class Synthesis:
    answer: str
    evidence: list[Evidence]
    abstained: bool
    trace: dict[str, Any] = field(default_factory=dict)


def evidence_line(e: Evidence) -> str:
    when = format_day(e.valid_at) if e.valid_at else ""
    who = f"{e.speaker}: " if e.speaker else ""
    return f"({when}) {who}{e.text}" if when else f"{who}{e.text}"


def synthesize(
    ctx: Context,
    question: str,
    evidence: list[Evidence],
    extractive: str,
    *,
    long_form: bool = False,
    limit: int = 12,
) -> Synthesis:
    """The final answer: `extractive` offline, else the provider's phrasing of `evidence`.

    The provider sees at most `limit` items; items it cites move to the front. An answer that
    cites nothing, or a provider error, keeps the extractive answer (the trace says why).
    """
    if ctx.llm is None:
        return Synthesis(extractive, evidence, extractive == NO_INFORMATION, {"synthesis": "extractive"})
    shown = evidence[:limit]
    lines = [evidence_line(e) for e in shown]
    if long_form:
        system = LONG_FORM_SYSTEM
        prompt = (
            "Evidence:\n"
            + "\n".join(f"[{i}] {t}" for i, t in enumerate(lines, 1))
            + f"\n\nQuestion: {question}"
        )
    else:
        system, prompt = synthesis_prompt(question, lines)
    trace: dict[str, Any] = {"synthesis": "provider", "provider": ctx.llm.name, "evidence_shown": len(shown)}
    try:
        reply = ctx.llm.complete(system, prompt, max_tokens=700 if long_form else 200)
    except ProviderError as exc:
        trace.update(synthesis="extractive", provider_error=str(exc))
        return Synthesis(extractive, evidence, extractive == NO_INFORMATION, trace)
    answer, cited = parse_synthesis(reply, n=len(shown))
    trace["cited"] = [i + 1 for i in cited]
    if answer == NO_INFORMATION:
        trace["provider_abstained"] = True
        return Synthesis(NO_INFORMATION, evidence, True, trace)
    if not cited:
        trace.update(synthesis="extractive", rejected="the provider's answer cited no evidence")
        return Synthesis(extractive, evidence, extractive == NO_INFORMATION, trace)
    ordered = [shown[i] for i in cited] + [e for i, e in enumerate(evidence) if i not in cited]
    return Synthesis(answer, ordered, False, trace)


def newest_first(evidence: Iterable[Evidence]) -> list[Evidence]:
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    return sorted(evidence, key=lambda e: e.valid_at or epoch, reverse=True)
