"""Starting `tkg serve mcp`: the address and token checks, one warm `Memory`, then stdio or HTTP.

The checks come first, so a refused start costs nothing: streamable HTTP binds to loopback unless
told otherwise, and any other address needs a bearer token in ``TKG_MCP_TOKEN`` (when the variable
is set, every address requires it). Then the store is opened once and warmed — the embedding model
loads and one question runs — so the first client question is as fast as the rest; what it loaded is
then frozen out of the garbage collector's full passes (`gc.freeze`).

Example (serves stdio until the client closes it)::

    >>> serve(ServeOptions(url=None, group="priya-marco"))  # doctest: +SKIP
"""

from __future__ import annotations

import gc
import hmac
import ipaddress
import os
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import anyio

from ..errors import ConfigError, InputError
from ..memory import Memory
from .tools import MemoryTools, build_server

TOKEN_ENV = "TKG_MCP_TOKEN"
MIN_TOKEN_CHARS = 16
DEFAULT_HOST = "127.0.0.1"
MCP_PATH = "/mcp"
Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


@dataclass(frozen=True)
class ServeOptions:
    url: str | None  # the store
    group: str | None = None  # pin every call to this group
    http: str | None = None  # HOST:PORT for streamable HTTP; None: stdio
    allow_forget: bool = False


@dataclass(frozen=True)
class HttpBind:
    host: str
    port: int
    token: str | None  # None only on loopback with TKG_MCP_TOKEN unset

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{MCP_PATH}"


def parse_bind(text: str, env: MutableMapping[str, str] | None = None) -> HttpBind:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6, ``:PORT`` or ``PORT`` for loopback) with its token rule.

    >>> parse_bind(":8765", {}).host, parse_bind("localhost:8765", {}).port
    ('127.0.0.1', 8765)
    """
    env = os.environ if env is None else env
    raw = text.strip()
    host, sep, port_text = raw.rpartition(":")
    if not sep:
        host, port_text = "", raw
    host = host.strip("[]") or DEFAULT_HOST
    try:
        port = int(port_text)
    except ValueError:
        raise ConfigError(f"--http takes HOST:PORT, e.g. 127.0.0.1:8765; got {text!r}") from None
    if not 0 <= port <= 65535:
        raise ConfigError(f"--http port must be 0-65535, not {port}")
    token = env.get(TOKEN_ENV) or None
    if token is None and not is_loopback(host):
        raise ConfigError(
            f"refusing to serve MCP on {host}:{port} without a bearer token: {host} is not a loopback "
            f"address, so set {TOKEN_ENV} (at least {MIN_TOKEN_CHARS} characters) or bind to 127.0.0.1"
        )
    if token is not None and len(token) < MIN_TOKEN_CHARS:
        raise ConfigError(
            f"{TOKEN_ENV} is too short to guard a server: use at least {MIN_TOKEN_CHARS} characters"
        )
    return HttpBind(host, port, token)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name other than localhost may resolve anywhere


def open_warm(url: str | None, group: str | None) -> Memory:
    """Open the store once and warm it: load the embedding model and answer one question (read only).
    Without ``--group`` the question goes to a group this embedder can read: one embedded with another
    model still gets its clear error when asked, but does not keep the server from starting."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    mem = Memory.open(url)
    try:
        mem.ctx.embedder.embed_one("warm-up: load the model before the first question")
        readable = (str(g["group_id"]) for g in mem.groups())
        target = group or next(
            (g for g in readable if mem.embedding_model(g) in (None, mem.ctx.embedder.name)), "tkg-warm-up"
        )
        mem.ask("What happened?", group=target)
    except BaseException:
        mem.close()
        raise
    # What the warm-up loaded lives as long as the server: out of the collector's full passes, which
    # otherwise stop a question every few seconds to scan it all again (BENCHMARKS.md, session 19).
    gc.collect()
    gc.freeze()
    return mem


def serve(opts: ServeOptions, status: Callable[[str], None] | None = None) -> None:
    """Serve until the client hangs up (stdio) or the process is stopped (HTTP)."""
    say = status or (lambda line: print(line, file=sys.stderr, flush=True))
    bind = parse_bind(opts.http) if opts.http is not None else None
    if opts.group is not None and not opts.group.strip():
        raise InputError("--group must be a non-empty name")
    mem = open_warm(opts.url, opts.group)
    tools = MemoryTools(mem, pinned=opts.group, allow_forget=opts.allow_forget)
    server = build_server(tools)
    where = f"store {mem.url}" + (f", pinned to group {opts.group!r}" if opts.group else "")
    try:
        if bind is None:
            say(f"tkg MCP server on stdio ({where})")
            anyio.run(server.run_stdio_async)
        else:
            say(f"tkg MCP server at {bind.url} ({where}{', bearer token required' if bind.token else ''})")
            anyio.run(_serve_http, server.streamable_http_app(host=bind.host), bind)
    finally:
        tools.close()
        mem.close()


async def _serve_http(app: ASGIApp, bind: HttpBind) -> None:
    import uvicorn

    guarded = app if bind.token is None else BearerToken(app, bind.token)
    config = uvicorn.Config(guarded, host=bind.host, port=bind.port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve()


class BearerToken:
    """ASGI middleware: every HTTP request needs ``Authorization: Bearer <token>`` (401 otherwise)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(
        self, scope: Scope, receive: Callable[[], Awaitable[Any]], send: Callable[[Any], Awaitable[None]]
    ) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = b'{"error": "unauthorized: send Authorization: Bearer <TKG_MCP_TOKEN>"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
