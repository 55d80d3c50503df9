"""Reading commands: ask, explain, state, history.

Each parses its input first (a bad ``--as-of`` fails before any store is opened), checks the
group exists, then calls one `Memory` method and renders the result.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import typer

from ..models import Answer, Fact
from . import render
from .common import (
    AS_OF_HELP,
    GROUP_HELP,
    Json,
    LLMOption,
    ModeChoice,
    SomeGroup,
    group_option,
    open_memory,
    parse_as_of,
    require_group,
)
from .render_trace import show_trace

Group = Annotated[str, group_option(GROUP_HELP)]
AsOf = Annotated[str | None, typer.Option("--as-of", metavar="DATE", help=AS_OF_HELP, show_default=False)]
Mode = Annotated[
    ModeChoice | None,
    typer.Option(
        "--mode",
        help="Skip the classifier and force a retrieval mode (the gates may still revise it).",
        show_default=False,
    ),
]
Question = Annotated[str, typer.Argument(help="The question, in quotes.", show_default=False)]
Subject = Annotated[
    str, typer.Argument(help="The entity the facts are about, e.g. Priya.", show_default=False)
]
Predicate = Annotated[
    str | None,
    typer.Argument(help="Only this predicate, e.g. lives_in (default: every predicate).", show_default=False),
]


def _answer(
    ctx: typer.Context,
    question: str,
    group: str,
    mode: ModeChoice | None,
    as_of: str | None,
    llm: str | None = None,
) -> tuple[Answer, datetime | None]:
    when = parse_as_of(as_of)
    with open_memory(ctx, llm=llm) as mem:
        require_group(mem, group)
        answer = mem.ask(question, group=group, mode=mode.value if mode else None, as_of=when)
    for stage, step in (answer.trace.get("model") or {}).items():  # never silent: say which stage fell back
        if step.get("fell_back"):
            error = f" ({step['error']})" if step.get("error") else ""
            render.status(
                f"note: the {stage} stage ({step.get('model')}) fell back: {step['fell_back']}{error}"
            )
    return answer, when


def ask(ctx: typer.Context, question: Question, group: Group, mode: Mode = None, as_of: AsOf = None,
        llm: LLMOption = None, as_json: Json = False) -> None:
    """Answer a question from one group's memory, with the evidence behind it.

    Shows the answer (or that tkg abstained), the mode and procedure that produced it, and the evidence: source turn, time, speaker, text and score.

    Example: tkg ask "Where does Priya live now?" --group priya-marco
    """  # noqa: E501
    answer, when = _answer(ctx, question, group, mode, as_of, llm)
    if as_json:
        render.emit_json({**answer.to_dict(), "as_of": when})
        return
    render.show_answer(answer, as_of=when)


def explain(ctx: typer.Context, question: Question, group: Group, mode: Mode = None, as_of: AsOf = None,
            as_json: Json = False) -> None:
    """Show how a question is routed: mode, payloads, gates, procedure, timings, candidates.

    Answers the question like `tkg ask` and prints the routing trace: which mode was chosen and why, every gate with whether it fired and the text that made it fire, the initial and final payload, the procedure, timings per stage and candidate counts.

    Example: tkg explain "Where did Priya live before Leeds?" --group priya-marco
    """  # noqa: E501
    answer, when = _answer(ctx, question, group, mode, as_of)
    if as_json:
        render.emit_json(
            {
                "question": answer.question,
                "group": answer.group,
                "as_of": when,
                "mode": answer.mode,
                "procedure": answer.procedure,
                "answer": answer.answer,
                "abstained": answer.abstained,
                "trace": answer.trace,
            }
        )
        return
    show_trace(answer)


def _facts_json(
    group: str, subject: str, predicate: str | None, facts: list[Fact], **extra: Any
) -> dict[str, Any]:
    return {
        "group": group,
        "subject": subject,
        "predicate": predicate,
        **extra,
        "facts": [f.to_dict() for f in facts],
    }


def _about(subject: str, predicate: str | None) -> str:
    return f"{subject} {predicate}" if predicate else subject


def state(ctx: typer.Context, subject: Subject, group: Group, predicate: Predicate = None, as_of: AsOf = None,
          as_json: Json = False) -> None:
    """What is true of a subject now (or at --as-of): one current fact per slot.

    Example: tkg state Priya --group priya-marco --as-of "July 2023"
    """
    when = parse_as_of(as_of)
    with open_memory(ctx) as mem:
        require_group(mem, group)
        facts = mem.state(subject, predicate, group=group, as_of=when)
    if as_json:
        render.emit_json(_facts_json(group, subject, predicate, facts, as_of=when))
        return
    title = f"{_about(subject, predicate)} — " + (f"as of {render.fmt_time(when)}" if when else "now")
    render.out.print(render.state_table(facts, title=title))


def history(
    ctx: typer.Context, subject: Subject, group: Group, predicate: Predicate = None, as_json: Json = False
) -> None:
    """Every version of a subject's facts as a timeline; closed versions are dimmed.

    Valid time (from → until) says when a value was true in the world; record time (recorded → expired) says when tkg believed it.

    Example: tkg history Priya lives_in --group priya-marco
    """  # noqa: E501
    with open_memory(ctx) as mem:
        require_group(mem, group)
        facts = mem.history(subject, predicate, group=group)
    if as_json:
        render.emit_json(_facts_json(group, subject, predicate, facts))
        return
    render.out.print(render.history_table(facts, title=f"{_about(subject, predicate)} — history"))


def usage(
    ctx: typer.Context,
    group: SomeGroup = None,
    as_json: Json = False,
) -> None:
    """Tokens the models spent ingesting, per group, stage and model, and their cost at list prices.

    Prices are dollars per million tokens (tkg/llm/usage.py; override with TKG_LLM_PRICES=prices.toml). Questions' tokens are in each answer's trace (`tkg ask --json`).

    Example: tkg usage --group priya-marco
    """  # noqa: E501
    with open_memory(ctx) as mem:
        data = mem.usage(group)
    if as_json:
        render.emit_json(data)
        return
    rows: list[tuple[str, Any]] = []
    for name, g in data["groups"].items():
        for r in g["rows"]:
            rows.append((f"{name} · {r['stage']} · {r['model']}",
                         f"{r['calls']} calls ({r['cached']} cached, {r['fallbacks']} fell back) · "
                         f"{r['tokens_in']} in / {r['tokens_out']} out · {r['episodes']} turns"))
    total = data["total"]
    rows.append(("total", f"{total['calls']} calls · {total['tokens_in']} in / {total['tokens_out']} out"))
    rows += [(f"at {m} list prices", f"${c:.4f}") for m, c in data["at_list_prices"].items()]
    render.out.print(render.kv_table(rows, title="model usage"))


def register(app: typer.Typer) -> None:
    app.command("ask")(ask)
    app.command("usage")(usage)
    app.command("explain")(explain)
    app.command("state")(state)
    app.command("history")(history)
