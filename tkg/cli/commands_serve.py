"""`tkg serve …`: long-lived servers over one warm `Memory` (today: the MCP server for assistants)."""

from __future__ import annotations

from typing import Annotated

import typer

from . import render
from .common import group_option, state, store_option
from .help_format import PlainGroup

serve_app = typer.Typer(
    name="serve",
    help="Serve tkg to other programs: an MCP server for assistants.\n\nExample: tkg serve mcp --group "
         "priya-marco",
    no_args_is_help=True,
    cls=PlainGroup,
)


# `tkg serve mcp`'s options, one alias each as the other command modules declare theirs
ServedStore = Annotated[
    str | None,
    store_option(
        "The store to serve (default: the global --store / TKG_STORE, else the default Kuzu database)."
    ),
]
PinnedGroup = Annotated[
    str | None,
    group_option(
        "Pin the server to this group: every tool works in it and a call naming another group is "
        "refused. Without it, every call names its group."
    ),
]
Http = Annotated[
    str | None,
    typer.Option(
        "--http",
        metavar="HOST:PORT",
        show_default=False,
        help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (e.g. 127.0.0.1:8765). Any "
             "address but loopback needs a bearer token in TKG_MCP_TOKEN.",
    ),
]
AllowForget = Annotated[
    bool, typer.Option("--allow-forget", help="Offer the forget_group tool, which deletes a group for good.")
]


@serve_app.command("mcp")
def mcp(
    ctx: typer.Context,
    store: ServedStore = None,
    group: PinnedGroup = None,
    http: Http = None,
    allow_forget: AllowForget = False,
) -> None:
    """Serve the memory to MCP clients (Claude Desktop, Cursor, …): tools add_episode(s), ask, state, history, search.

    Speaks stdio by default, the transport MCP clients start a server with; --http serves streamable HTTP. The store is opened once and the embedding model loaded and warmed before the first request. Resources: tkg://groups and tkg://group/{id}/summary.

    Example: tkg serve mcp --store ~/.local/share/tkg/tkg.kuzu --group priya-marco
    """  # noqa: E501
    from ..mcpserver.run import ServeOptions, serve  # the MCP SDK and its web stack load only here

    serve(
        ServeOptions(url=store or state(ctx).store, group=group, http=http, allow_forget=allow_forget),
        status=render.status,
    )
