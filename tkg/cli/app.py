"""The `tkg` Typer app: a global ``--store`` option, the commands, and error handling in one place.

Every :class:`~tkg.errors.TkgError` raised by any command (or sub-command) ends here as one red
line on stderr and exit status 1, with no traceback (any other exception too, named in one line);
`tkg --debug …` shows the traceback. Typer's own usage errors keep status 2.

Example::

    $ tkg --store kuzu:///tmp/tkg.kuzu ingest examples/priya_marco.json
    $ tkg ask "Where does Priya live now?" --group priya-marco
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import threading
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from ..errors import TkgError
from . import commands_cypher, commands_data, commands_demo, commands_doctor, commands_query, render
from .bench_cmd import bench_app
from .commands_serve import serve_app
from .common import State, store_option
from .help_format import PlainHelp, plain_help_everywhere


class TkgGroup(PlainHelp, TyperGroup):
    """The root command group; turns TkgError into a one-line message and exit status 1, and any
    other failure into one line naming it; ``--debug`` (or ``TKG_DEBUG=1``) shows the traceback."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, TyperException):
            raise  # typer's own exits and usage errors (status 2) stay typer's
        except TkgError as exc:
            if _debug(ctx):
                raise
            render.error(str(exc))
            raise typer.Exit(1) from None
        except Exception as exc:
            if _debug(ctx):
                raise
            render.error(
                f"unexpected {type(exc).__name__}: {str(exc)[:300]} (run with --debug for the traceback)"
            )
            raise typer.Exit(1) from None


def _debug(ctx: Any) -> bool:
    return bool(ctx.params.get("debug")) or os.environ.get("TKG_DEBUG", "") not in ("", "0")


app = typer.Typer(
    name="tkg",
    cls=TkgGroup,
    help="tkg — temporal knowledge-graph memory: versioned facts, routed questions, evidence.\n\nExample: "
         "tkg demo",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # a traceback must never print a password from a local
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"tkg {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    store: Annotated[
        str | None,
        store_option(
            "Where the graph lives: a path or kuzu:///path (embedded Kuzu), or "
            "bolt://user:pass@host:port?database=NAME (Neo4j; user, password and database are optional, "
            "or come from TKG_NEO4J_USER / TKG_NEO4J_PASSWORD). "
            "Default: a Kuzu database in your user data directory.",
            envvar="TKG_STORE",
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print tkg's version and exit."),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option("--debug", help="On an error, print the traceback as well as the one-line message."),
    ] = False,
) -> None:
    """tkg — temporal knowledge-graph memory: versioned facts, routed questions, evidence.

    Example: tkg demo
    """
    # The Neo4j driver logs each retry to stderr; tkg reports the outcome itself, in one line.
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    source = ctx.get_parameter_source("store")
    ctx.obj = State(store=store, store_on_command_line=getattr(source, "name", "") == "COMMANDLINE")


commands_demo.register(app)
commands_data.register(app)  # ingest, forget, groups
commands_query.register(app)  # ask, explain, state, history
commands_cypher.register(app)
commands_doctor.register(app)
app.add_typer(bench_app, name="bench")
app.add_typer(serve_app, name="serve")
plain_help_everywhere(app)


def main() -> None:
    """Console-script entry point (``tkg = "tkg.cli:main"``), ending as `finish` says."""
    try:
        app(prog_name="tkg")
    except SystemExit as exc:
        finish(exc.code)
    finish(0)


def finish(code: Any) -> NoReturn:
    """End the process with status ``code`` once a command is done. Python would then free every
    module and object one by one (spaCy's vocabulary and weights, the store driver), a large part
    of a short command's time; instead the exit handlers run (temporary directories, logging),
    output is flushed and the process ends. While another thread still works, Python ends as usual."""
    if any(t.is_alive() and not t.daemon and t is not threading.main_thread() for t in threading.enumerate()):
        raise SystemExit(code)
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # what sys.exit("message") prints
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # a closed pipe (`tkg … | head`) or stream: nothing more to write there
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))
