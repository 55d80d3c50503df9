"""What every command shares: the global state, opening the memory, and parsing user input.

Parsing lives here (not in the commands) so that every command reports a bad date or a
malformed ``--param`` the same way: a :class:`~tkg.errors.InputError`, which the app turns into
one red line and exit status 1.

Example::

    >>> parse_as_of("2023-03-01").isoformat()
    '2023-03-01T00:00:00+00:00'
    >>> parse_params(["n=3", "name=Priya"])
    {'n': 3, 'name': 'Priya'}
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, overload

import typer

from ..errors import InputError, NotFound

if TYPE_CHECKING:
    from ..memory import Memory


@dataclass
class State:
    """What the root callback learned: the store URL and whether the user typed ``--store``."""

    store: str | None = None
    store_on_command_line: bool = False


def state(ctx: typer.Context) -> State:
    obj = ctx.find_root().obj
    return obj if isinstance(obj, State) else State()


LLM_HELP = (
    "A model for every stage (openai:MODEL, openai:MODEL@http://127.0.0.1:11434/v1, anthropic:MODEL, "
    "record:DIR, replay:DIR, none), or STAGE=SPEC,... for some (stages: extract, route, answer, rank). "
    "Default: TKG_LLM and TKG_LLM_<STAGE>; unset: offline."
)
LLMOption = Annotated[str | None, typer.Option("--llm", metavar="SPEC", help=LLM_HELP, show_default=False)]


def llm_spec(value: str | None) -> str | dict[str, str] | None:
    """``--llm``: one spec for every stage, or ``extract=SPEC,answer=SPEC`` per stage."""
    if value is None or "=" not in value:
        return value
    pairs = [part.split("=", 1) for part in value.split(",") if part.strip()]
    return {k.strip(): v.strip() for k, v in pairs}


@contextmanager
def open_memory(ctx: typer.Context, url: str | None = None, llm: str | None = None) -> Iterator[Memory]:
    """Open the memory the global ``--store`` names (or ``url``) and close it afterwards.

    Imported lazily so ``tkg --help`` does not load drivers and models.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from ..memory import Memory

    mem = Memory.open(url if url is not None else state(ctx).store, llm=llm_spec(llm))
    try:
        yield mem
    finally:
        mem.close()


def require_group(mem: Memory, group: str) -> dict[str, Any]:
    """The group's counts; NotFound when the store holds nothing for it."""
    if not group.strip():
        raise InputError("the group must be a non-empty name")
    counts = mem.counts(group)
    if not counts.get("episodes") and not counts.get("entities"):
        raise NotFound(f"no group named {group!r} in {mem.url}; see `tkg groups`")
    return counts


# --- dates ---------------------------------------------------------------------------------------

# languages=["en"] skips dateparser's language detection; nothing here touches the network.
_DATEPARSER_SETTINGS: dict[str, Any] = {
    "RETURN_AS_TIMEZONE_AWARE": True,
    "TIMEZONE": "UTC",
    "TO_TIMEZONE": "UTC",
    "PREFER_DAY_OF_MONTH": "first",
    "PREFER_MONTH_OF_YEAR": "first",
    "PREFER_DATES_FROM": "past",
}


@overload
def parse_as_of(text: str) -> datetime: ...
@overload
def parse_as_of(text: None) -> None: ...
def parse_as_of(text: str | None) -> datetime | None:
    """An ``--as-of`` value as aware UTC: ISO 8601 first, then natural language in English.

    A month or a year means its first moment ("March 2023" → 2023-03-01T00:00Z); naive times
    are UTC.

    >>> parse_as_of("March 2023").isoformat()
    '2023-03-01T00:00:00+00:00'
    """
    if text is None:
        return None
    raw = text.strip()
    if not raw:
        raise InputError("empty date; give e.g. 2023-03-01 or 'March 2023'")
    try:
        parsed: datetime | None = datetime.fromisoformat(raw)
    except ValueError:
        import dateparser

        parsed = dateparser.parse(raw, languages=["en"], settings=_DATEPARSER_SETTINGS)
    if parsed is None:
        raise InputError(
            f"cannot read {text!r} as a date; give e.g. 2023-03-01, 2023-03-01T12:00Z or 'March 2023'"
        )
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


# --- cypher parameters ---------------------------------------------------------------------------

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$")
_PARAM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_param_value(raw: str) -> Any:
    """A ``--param`` value: JSON when it parses, an ISO date as an aware UTC datetime, else text.

    Dates become datetimes so ``$as_of`` compares with stored timestamps on both stores.

    >>> parse_param_value("[1, 2]"), parse_param_value("Lisbon"), parse_param_value('"42"')
    ([1, 2], 'Lisbon', '42')
    """
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    if isinstance(value, str) and _ISO_DATE.match(value.strip()):
        stamp = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)
    return value


def parse_params(items: Sequence[str] | None) -> dict[str, Any]:
    """``["k=v", ...]`` → ``{k: value}``; an item without ``=`` or a bad name raises InputError."""
    out: dict[str, Any] = {}
    for item in items or []:
        name, sep, raw = item.partition("=")
        name = name.strip().lstrip("$")
        if not sep:
            raise InputError(
                f"malformed --param {item!r}; write it as name=value, e.g. --param group_id=priya-marco"
            )
        if not _PARAM_NAME.match(name):
            raise InputError(f"malformed --param {item!r}: {name!r} is not a parameter name")
        if name in out:
            raise InputError(f"--param {name} given twice")
        out[name] = parse_param_value(raw)
    return out


_STRINGS = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`[^`]*`", re.S)
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def query_params(query: str) -> list[str]:
    """The ``$names`` a query uses (outside strings and comments), in order of first use.

    >>> query_params("MATCH (n) WHERE n.group_id = $group_id AND n.name = '$x' RETURN $group_id")
    ['group_id']
    """
    bare = _STRINGS.sub("''", _COMMENTS.sub(" ", query))
    return list(dict.fromkeys(_DOLLAR.findall(bare)))


def check_params(statements: Sequence[str], params: dict[str, Any]) -> list[dict[str, Any]]:
    """Each statement's own parameters; fails early naming what is missing or not used anywhere.

    >>> check_params(["RETURN $a AS a", "RETURN $b AS b"], {"a": 1, "b": 2})
    [{'a': 1}, {'b': 2}]
    """
    per_statement = [query_params(s) for s in statements]
    used = list(dict.fromkeys(p for names in per_statement for p in names))
    missing = [p for p in used if p not in params]
    if missing:
        hint = " ".join(f"--param {p}=..." for p in missing)
        raise InputError(f"the query needs parameter(s) {', '.join(missing)}; pass {hint}")
    unknown = sorted(set(params) - set(used))
    if unknown:
        takes = ", ".join(used) or "none"
        raise InputError(f"the query has no parameter(s) {', '.join(unknown)} (it takes: {takes})")
    return [{k: params[k] for k in names} for names in per_statement]


# --- options every command spells the same way ---------------------------------------------------

GROUP_HELP = "The group (tenant) to read, e.g. priya-marco; `tkg groups` lists them."
JSON_HELP = "Print one JSON document on stdout (stable keys) and nothing else; status goes to stderr."
AS_OF_HELP = "Answer as of this date (valid time): ISO 8601 or English, e.g. 2023-07-01 or 'July 2023' (UTC)."
Json = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


def group_option(help: str) -> Any:
    """The ``--group``/``-g`` option, spelled once; each command says what the group is for."""
    return typer.Option("--group", "-g", help=help, show_default=False)


def store_option(help: str, **more: Any) -> Any:
    """The ``--store URL`` option (a path, kuzu:///path or bolt://…), spelled once; each command says
    which store it means."""
    return typer.Option("--store", metavar="URL", show_default=False, help=help, **more)


# a command over every group unless one is named (usage, reembed)
SomeGroup = Annotated[str | None, group_option("Only this group (default: every group).")]


class ModeChoice(StrEnum):
    """The retrieval modes as a CLI choice (kept equal to ``tkg.models.MODES`` by a test)."""

    single_fact = "single_fact"
    relation_chain = "relation_chain"
    latest_version = "latest_version"
    time_anchored = "time_anchored"
    long_form = "long_form"
    aggregation = "aggregation"


class FormatChoice(StrEnum):
    """The input formats as a CLI choice (kept equal to ``tkg.ingest.loaders.FORMATS`` by a test)."""

    locomo = "locomo"
    jsonl = "jsonl"
