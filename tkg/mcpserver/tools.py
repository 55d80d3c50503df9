"""The MCP tools and resources of `tkg serve mcp`: each a thin call of one `Memory` method.

`MemoryTools` holds the one `Memory` of the server process and what every call shares: the group
it is pinned to (``--group``), whether ``forget_group`` is offered, a fixed pool of worker threads
(the Kuzu adapter keeps one connection per thread, so a fixed pool keeps a fixed set of them;
the SDK runs a sync tool on anyio's worker threads, which come and go, each new one opening a
connection) and a
lock that lets one write run at a time (Kuzu has a single writer; reads run side by side on their
own connections). A TkgError becomes an MCP tool error carrying the message a CLI user would
read; the SDK answers anything else with a generic error naming only the tool.

Example::

    >>> server = build_server(MemoryTools(mem, pinned="priya-marco"))  # doctest: +SKIP
    >>> server.run("stdio")  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from ..cli.common import parse_as_of
from ..errors import InputError, NotFound, TkgError
from ..memory import Memory
from ..models import Evidence, Fact

T = TypeVar("T")
WORKERS = 4
ModeArg = Literal[
    "single_fact", "relation_chain", "latest_version", "time_anchored", "long_form", "aggregation"
]
GroupArg = Annotated[
    str | None,
    Field(description="The group (tenant) to use; required unless the server was started with --group."),
]
AsOfArg = Annotated[
    str | None,
    Field(
        description="Answer as of this date (valid time): ISO 8601 or English, e.g. 2023-07-01 or 'July "
                    "2023'."
    ),
]
PredicateArg = Annotated[
    str | None, Field(description="Only this predicate, e.g. lives_in (default: every predicate).")
]
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


class EpisodeArg(BaseModel):
    """One turn to remember."""

    text: str = Field(description="What was said.")
    speaker: str = Field(description="Who said it, e.g. Priya.")
    time: str | None = Field(
        None, description="When it was said, ISO 8601 (e.g. 2024-03-05T14:30:00Z); default: now."
    )
    source_ref: str | None = Field(
        None, description="Your id for the turn (evidence points back to it), unique per group."
    )
    listeners: list[str] | None = Field(
        None, description="Who the speaker talks to, for facts said in the second person."
    )


class MemoryTools:
    """The server's state and the body of every tool; see the module docstring."""

    def __init__(
        self, mem: Memory, pinned: str | None = None, allow_forget: bool = False, workers: int = WORKERS
    ) -> None:
        if pinned is not None and not pinned.strip():
            raise InputError("--group must be a non-empty name")
        self.mem = mem
        self.pinned = pinned
        self.allow_forget = allow_forget
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tkg-mcp")
        self._write = threading.Lock()

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    # -- what every call shares ---------------------------------------------------------------
    def group(self, given: str | None) -> str:
        """The group a call works in: the pinned one (another is refused), else the one it names."""
        if self.pinned is not None:
            if given not in (None, "", self.pinned):
                raise InputError(
                    f"this server is pinned to group {self.pinned!r}; group {given!r} is refused"
                )
            return self.pinned
        if given is None or not given.strip():
            raise InputError(
                "a group is required: this server is not pinned to one (start it with --group G to pin it)"
            )
        return given

    def existing(self, group: str) -> str:
        """``group`` when it holds anything (or is the pinned one, which may start empty); else NotFound."""
        if group != self.pinned:
            counts = self.mem.counts(group)
            if not counts.get("episodes") and not counts.get("entities"):
                raise NotFound(f"no group named {group!r} in {self.mem.url}; read tkg://groups for the list")
        return group

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T:
        """Run ``fn`` on the pool, writes one at a time."""

        def run() -> T:
            if not write:
                return fn()
            with self._write:
                return fn()

        return await asyncio.wrap_future(self._pool.submit(run))

    async def call(self, fn: Callable[[], T], *, write: bool = False) -> T:
        """`run` for a tool: a TkgError becomes a tool error with its message."""
        try:
            return await self.run(fn, write=write)
        except TkgError as exc:
            raise ToolError(str(exc)) from None

    # -- tools --------------------------------------------------------------------------------
    async def add_episode(
        self,
        text: Annotated[str, Field(description="What was said.")],
        speaker: Annotated[str, Field(description="Who said it, e.g. Priya.")],
        time: Annotated[
            str | None, Field(description="When, ISO 8601 (e.g. 2024-03-05T14:30:00Z); default: now.")
        ] = None,
        group: GroupArg = None,
        source_ref: Annotated[
            str | None, Field(description="Your id for the turn, unique per group.")
        ] = None,
        listeners: Annotated[list[str] | None, Field(description="Who the speaker talks to.")] = None,
    ) -> dict[str, Any]:
        """Remember one turn of a conversation: extracts entities and versioned facts (a new value of a single-valued fact supersedes the old). Idempotent: the same turn again writes nothing. Returns what was written."""  # noqa: E501
        return await self.add_episodes(
            [EpisodeArg(text=text, speaker=speaker, time=time, source_ref=source_ref, listeners=listeners)],
            group,
        )

    async def add_episodes(
        self,
        episodes: Annotated[list[EpisodeArg], Field(description="The turns, in the order they were said.")],
        group: GroupArg = None,
    ) -> dict[str, Any]:
        """Remember several turns at once, validated whole before anything is written (one bad turn writes nothing). Idempotent. Returns what was written: episodes, facts, superseded."""  # noqa: E501
        now = datetime.now(UTC).isoformat()
        records = [
            {
                "speaker": e.speaker,
                "text": e.text,
                "timestamp": e.time or now,
                "source_ref": e.source_ref,
                "listeners": e.listeners or [],
            }
            for e in episodes
        ]

        def run() -> dict[str, Any]:
            target = self.group(group)
            report = self.mem.ingest_records(records, group=target).to_dict()
            keys = (
                "episodes", "skipped_existing", "chunks", "entities", "facts", "superseded", "retracted",
                "reasserted",
            )
            return {"group": target, **{k: report[k] for k in keys}, "warnings": report["warnings"]}

        return await self.call(run, write=True)

    async def ask(
        self,
        question: Annotated[str, Field(description="The question, e.g. 'Where does Priya live now?'")],
        group: GroupArg = None,
        mode: Annotated[
            ModeArg | None, Field(description="Force a retrieval mode instead of the classifier's choice.")
        ] = None,
        as_of: AsOfArg = None,
    ) -> dict[str, Any]:
        """Answer a question from the group's memory: the answer (or an abstention), the mode and procedure that produced it, and the evidence turns (source ref, time, speaker, text). server_ms is the time the server spent on it."""  # noqa: E501

        def run() -> dict[str, Any]:
            started = time.perf_counter()
            target = self.existing(self.group(group))
            when = parse_as_of(as_of)
            a = self.mem.ask(question, group=target, mode=mode, as_of=when)
            return {"question": question, "group": target, "as_of": _iso(when), "answer": a.answer,
                    "abstained": a.abstained, "mode": a.mode, "procedure": a.procedure,
                    "evidence": [evidence(e) for e in a.evidence], "facts": [fact(f) for f in a.facts],
                    "server_ms": round((time.perf_counter() - started) * 1000, 2)}

        return await self.call(run)

    async def state(
        self, subject: Annotated[str, Field(description="The entity the facts are about, e.g. Priya.")],
        predicate: PredicateArg = None, group: GroupArg = None, as_of: AsOfArg = None,
    ) -> dict[str, Any]:
        """What is true of a subject now (or at as_of): one current fact per slot, with its version, validity interval and source turn."""  # noqa: E501

        def run() -> dict[str, Any]:
            target = self.existing(self.group(group))
            when = parse_as_of(as_of)
            facts = self.mem.state(subject, predicate, group=target, as_of=when)
            return {"group": target, "subject": subject, "predicate": predicate, "as_of": _iso(when),
                    "facts": [fact(f) for f in facts]}

        return await self.call(run)

    async def history(
        self, subject: Annotated[str, Field(description="The entity the facts are about, e.g. Priya.")],
        predicate: PredicateArg = None, group: GroupArg = None,
    ) -> dict[str, Any]:
        """Every version of a subject's facts in valid-time order: values, versions, validity intervals (from, until), record times and source turns."""  # noqa: E501

        def run() -> dict[str, Any]:
            target = self.existing(self.group(group))
            facts = self.mem.history(subject, predicate, group=target)
            return {
                "group": target,
                "subject": subject,
                "predicate": predicate,
                "facts": [fact(f) for f in facts],
            }

        return await self.call(run)

    async def search(
        self, query: Annotated[str, Field(description="Words or a question to match against what was said.")],
        group: GroupArg = None,
        k: Annotated[int, Field(ge=1, le=100, description="How many turns to return.")] = 10,
    ) -> dict[str, Any]:
        """The turns that best match a query (full-text and vector search, fused), best first, with no answering step: for reading the evidence yourself."""  # noqa: E501

        def run() -> dict[str, Any]:
            target = self.existing(self.group(group))
            return {
                "group": target,
                "query": query,
                "turns": [evidence(e) for e in self.mem.search(query, target, k)],
            }

        return await self.call(run)

    async def forget_group(
        self, group: Annotated[str, Field(description="The group to delete, with everything in it.")]
    ) -> dict[str, Any]:
        """Delete a group completely (episodes, chunks, entities, facts) and report what it held. Cannot be undone."""  # noqa: E501

        def run() -> dict[str, Any]:
            result = self.mem.forget(self.group(group))
            keys = ("group", "episodes", "chunks", "entities", "facts", "current_facts")
            return {k: result.get(k) for k in keys}

        return await self.call(run, write=True)

    # -- resources ----------------------------------------------------------------------------
    async def groups_resource(self) -> str:
        """The groups this server serves (only the pinned one when pinned), with counts and time span."""

        def run() -> str:
            rows = [r for r in self.mem.groups() if self.pinned is None or r["group_id"] == self.pinned]
            if self.pinned is not None and not rows:
                rows = [
                    {"group_id": self.pinned, "first": None, "last": None, **self.mem.counts(self.pinned)}
                ]
            keys = ("episodes", "chunks", "entities", "facts", "current_facts")
            out = [{"group": r["group_id"], **{k: r.get(k, 0) for k in keys}, "first": _iso(r.get("first")),
                    "last": _iso(r.get("last"))} for r in rows]
            return _json({"store": self.mem.url, "pinned": self.pinned, "groups": out})

        return await self._resource(run)

    async def summary_resource(self, id: str) -> str:
        """One group at a glance: counts, speakers, time span and its most recent facts."""

        def run() -> str:
            target = self.existing(self.group(id))
            s = self.mem.summary(target, recent=10)
            return _json({**s, "first": _iso(s["first"]), "last": _iso(s["last"]),
                          "recent_facts": [fact(f) for f in s["recent_facts"]]})

        return await self._resource(run)

    async def _resource(self, fn: Callable[[], str]) -> str:
        """`run` for a resource: NotFound becomes "not found", any other TkgError a resource error."""
        try:
            return await self.run(fn)
        except NotFound as exc:
            raise ResourceNotFoundError(str(exc)) from None
        except TkgError as exc:
            raise ResourceError(str(exc)) from None


def build_server(tools: MemoryTools) -> MCPServer[Any]:
    """The MCP server with tkg's tools and resources (``forget_group`` only when allowed)."""
    pin = f" This server is pinned to group {tools.pinned!r}: leave `group` out." if tools.pinned else ""
    server: MCPServer[Any] = MCPServer(
        "tkg",
        instructions="tkg is a temporal memory of conversations: add turns with add_episode(s), then ask, "
        "read state/history of a subject's facts, or search the turns. Every call works in one group." + pin,
        log_level="WARNING",
    )
    for fn, notes in (
        (tools.add_episode, WRITE),
        (tools.add_episodes, WRITE),
        (tools.ask, READ),
        (tools.state, READ),
        (tools.history, READ),
        (tools.search, READ),
    ):
        server.add_tool(fn, annotations=notes)
    if tools.allow_forget:
        server.add_tool(
            tools.forget_group, annotations=ToolAnnotations(destructive_hint=True, open_world_hint=False)
        )
    for uri, name, description, read in (
        ("tkg://groups", "groups", "The groups this server serves, with counts and time span.",
         tools.groups_resource),
        ("tkg://group/{id}/summary", "group_summary",
         "A group's counts, speakers, time span and most recent facts.", tools.summary_resource),
    ):
        server.resource(uri, name=name, mime_type="application/json", description=description)(read)
    return server


# --- what the tools return ------------------------------------------------------------------------


def evidence(e: Evidence) -> dict[str, Any]:
    return {"source_ref": e.source_ref, "time": _iso(e.valid_at), "speaker": e.speaker, "text": e.text,
            "score": e.score, "kind": e.kind}


def fact(f: Fact) -> dict[str, Any]:
    return {
        "subject": f.subject,
        "predicate": f.predicate,
        "object": f.object,
        "qualifier": f.qualifier or None,
        "fact": f.fact,
        "version": f.version,
        "current": f.current,
        "valid_at": _iso(f.valid_at),
        "invalid_at": _iso(f.invalid_at),
        "created_at": _iso(f.created_at),
        "expired_at": _iso(f.expired_at),
        "source_ref": f.source_ref,
    }


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else None


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)
