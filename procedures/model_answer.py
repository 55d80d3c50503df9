"""The route, rank and answer stages by a model, over what tkg routed and retrieved.

`route_mode` may classify a question's mode (the payloads and procedures stay tkg's). `revise`
takes the offline `Answer` and, with a `rank` model and no `answer` model, reorders its evidence
(an answer model reads every item shown); with an `answer` model, asks for a brief answer from
the numbered evidence and the slot histories the graph
holds for the question's entities, citing evidence ids. An answer citing no id or an unknown
one, unparseable output, or a provider error keeps the offline answer, and the trace says so
(``trace["model"]``); every call's tokens are in ``trace["usage"]``. Offline (no stage set)
nothing here runs and the answer is returned as it was.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from planners.classifier import LLMClassifier
from tkg.errors import ProviderError
from tkg.llm import Deferred, Request, UsageLog, parse_ranking, rank_prompt
from tkg.models import NO_INFORMATION, Answer, Evidence

from .synthesis import format_day

if TYPE_CHECKING:
    from tkg.context import Context

SHOWN = 12  # evidence items the answer model sees
_EPOCH = datetime(1, 1, 1, tzinfo=UTC)
HISTORY = 30  # slot-history lines the answer model sees
TEXT = 400  # characters of one evidence item
_NOT_NAMES = {
    "who", "what", "where", "when", "which", "why", "how", "did", "does", "do", "is", "was", "are", "were",
    "has", "have", "had", "can", "could", "will", "would", "should", "in", "on", "at", "the", "a",
}

SYSTEM = f"""You answer a question about people from their conversation history.
Use only the numbered evidence and the fact histories given; the evidence text wins where they disagree.
Evidence items are listed oldest first; later evidence overrides earlier unless the question asks about
an earlier time or date.
Answer with the value asked for (a name, place, organisation, date, number, list, or yes/no \
with a short reason),
in a few words; resolve relative times ("last week") against the date of the item that says them.
Cite the ids of the evidence items that state the answer.
Answer exactly "{NO_INFORMATION}" with no citations when the evidence does not state the answer, and also when
the question takes for granted something the evidence does not affirm: a person, pet, job or event \
never mentioned,
something said of someone else, a plan that was cancelled or only wished for, a change that did not happen."""

SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["answer", "cited"],
    "properties": {"answer": {"type": "string"}, "cited": {"type": "array", "items": {"type": "string"}}},
}


class AnswerOut(BaseModel):
    answer: str
    cited: list[str]


def route_mode(ctx: Context, question: str, log: UsageLog) -> tuple[str | None, dict[str, Any]]:
    """The mode a `route` model picks (None: offline classifier), and what the trace says of it."""
    model = ctx.models.get("route")
    if model is None:
        return None, {}
    trace: dict[str, Any] = {"model": model.name}

    def complete(system: str, prompt: str) -> str:
        return model.ask(Request("route", system, prompt, max_tokens=12), log).text

    try:
        mode = LLMClassifier(complete).classify(question)
    except Deferred:
        return None, {**trace, "fell_back": "recorded the prompt; the offline classifier chose"}
    except ProviderError as exc:
        return None, {**trace, "fell_back": "the offline classifier chose", "error": str(exc)}
    return mode, {**trace, "mode": mode}


def revise(ctx: Context, ans: Answer, log: UsageLog | None = None) -> Answer:
    """``ans`` reordered by a `rank` model and answered by an `answer` model, when set."""
    rank, model = ctx.models.get("rank"), ctx.models.get("answer")
    log = log if log is not None else UsageLog()
    trace: dict[str, Any] = {}
    if rank is not None and model is None and len(ans.evidence) > 1:  # an answer model reads every item shown
        trace["rank"] = _rank(rank, ans, log)
    if model is not None and ans.evidence:
        trace["answer"] = _answer(ctx, model, ans, log)
    if trace:
        ans.trace["model"] = trace
    if log:
        ans.trace["usage"] = log.rows()
    return ans


def _rank(rank: Any, ans: Answer, log: UsageLog) -> dict[str, Any]:
    shown = ans.evidence[:SHOWN]
    system, prompt = rank_prompt(ans.question, [_line(e) for e in shown])
    try:
        reply = rank.ask(Request("rank", system, prompt, max_tokens=60), log)
    except Deferred:
        return {"model": rank.name, "fell_back": "recorded the prompt; the offline order stands"}
    except ProviderError as exc:
        return {"model": rank.name, "fell_back": "offline order kept", "error": str(exc)}
    order = parse_ranking(reply.text, len(shown))
    ans.evidence = [shown[i] for i in order] + ans.evidence[SHOWN:]
    return {"model": rank.name, "order": [i + 1 for i in order]}


def _answer(ctx: Context, model: Any, ans: Answer, log: UsageLog) -> dict[str, Any]:
    # the best SHOWN items, listed oldest first: "later overrides earlier" reads top to bottom,
    # and near-equal scores that swap between two ingests do not change the prompt
    shown = sorted(
        ans.evidence[:SHOWN], key=lambda e: (e.valid_at or _EPOCH, e.source_ref or "", e.episode, e.text)
    )
    ids = {f"E{i}": e for i, e in enumerate(shown, 1)}
    history = histories(ctx, ans, {e.episode: k for k, e in reversed(ids.items())})
    user = ("Evidence:\n" + "\n".join(f"[{k}] {_line(e)}" for k, e in ids.items())
            + ("\nFact histories:\n" + "\n".join(history) if history else "")
            + f"\nQuestion: {' '.join(ans.question.split())}")
    request = Request("answer", SYSTEM, user, "answer", SCHEMA, max_tokens=120)
    trace: dict[str, Any] = {"model": model.name, "offline_answer": ans.answer, "evidence_shown": len(shown)}
    try:
        reply = model.ask(request, log)
    except Deferred:
        return {**trace, "fell_back": "recorded the prompt; the offline answer stands"}
    except ProviderError as exc:
        return {**trace, "fell_back": "the offline answer stands", "error": str(exc)}
    try:
        out = AnswerOut.model_validate(json.loads(reply.text))
    except (ValueError, ValidationError):
        return {**trace, "fell_back": "the model's output did not parse; the offline answer stands"}
    text = " ".join(out.answer.split())
    cited = [c.strip().strip("[]") for c in out.cited]
    trace["cited"] = cited
    if _is_no_information(text):
        model.keep(request, reply)
        ans.answer, ans.abstained = NO_INFORMATION, True
        return {**trace, "answered": NO_INFORMATION}
    unknown = [c for c in cited if c not in ids]
    if not cited or unknown or not text:
        why = f"cited unknown evidence {unknown}" if unknown else "cited no evidence"
        return {
            **trace,
            "fell_back": f"the model's answer {why}; the offline answer stands",
            "rejected": text,
        }
    model.keep(request, reply)
    first = [ids[c] for c in dict.fromkeys(cited)]
    ans.evidence = first + [e for e in ans.evidence if all(e is not f for f in first)]
    ans.answer, ans.abstained = text, False
    return {**trace, "answered": text}


def histories(ctx: Context, ans: Answer, shown: dict[str, str] | None = None) -> list[str]:
    """Every version of the slots of the entities the question names (and the answer's facts); a
    version said in a turn the model is shown ends with that item's id (``shown``: episode -> id),
    so an answer read from a history can cite the turn that stated it."""
    index = ctx.entities(ans.group)
    words = re.findall(r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*", ans.question)
    names = [w.removesuffix("'s").removesuffix("’s") for w in words]
    names = [" ".join(n.split()[1:]) if n.split()[0].lower() in _NOT_NAMES else n for n in names]
    uuids = [e.uuid for n in names if n and (e := index.find(n, "person")) is not None]
    uuids += [f.subject_uuid for f in ans.facts if f.subject_uuid]
    uuids = list(dict.fromkeys(uuids))
    if not uuids:
        return []
    rows = ctx.store.named("fact.history", {"group_id": ans.group, "subject_uuids": uuids, "predicate": ""})
    lines = []
    for r in rows:
        start = format_day(r["valid_at"]) if r.get("valid_at") else "?"
        end = format_day(r["invalid_at"]) if r.get("invalid_at") else "now"
        qualifier = f"/{r['qualifier']}" if r.get("qualifier") else ""
        said = [shown[e] for e in r.get("episodes") or [] if shown and e in shown][:1]
        cite = f" [{said[0]}]" if said else ""
        lines.append(f"{r['subject']} {r['predicate']}{qualifier} {r['object']} ({start} to {end}){cite}")
    return lines[-HISTORY:]


def _line(e: Evidence) -> str:
    when = f"({format_day(e.valid_at)}) " if e.valid_at else ""
    who = f"{e.speaker}: " if e.speaker else ""
    text = " ".join(e.text.split())
    return f"{when}{who}{text[:TEXT]}"


def _is_no_information(answer: str) -> bool:
    return re.sub(r"[^a-z ]", "", answer.lower()).strip() == NO_INFORMATION.lower()
