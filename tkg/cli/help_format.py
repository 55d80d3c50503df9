"""How `tkg … --help` names things: ``FILE`` and ``[QUESTION]`` in usage lines as click writes them,
and flags without a ``<bool>`` type (a flag takes no value), instead of typer's ``{path}``.

Every command and group of the CLI uses these classes (tkg/cli/app.py sets them), and
tests/test_cli.py checks every help text for the placeholders.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand, TyperGroup


class PlainHelp:
    """Mixin for typer's command classes: plain argument names in the usage line, no type shown for
    flags. (Typed loosely: typer's classes derive from its own copy of click.)"""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if (
                param.param_type_name == "option"
                and getattr(param, "is_flag", False)
                and param.metavar is None
            ):
                param.metavar = ""  # typer would show <bool>
        return params

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        options = getattr(self, "options_metavar", None)
        pieces = [options] if options else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = param.metavar or (param.name or "ARG").upper()
                name += "..." if param.nargs != 1 else ""
                pieces.append(name if param.required else f"[{name}]")
        if hasattr(self, "subcommand_metavar"):
            pieces.append(getattr(self, "subcommand_metavar", None) or "COMMAND [ARGS]...")
        return pieces


class TkgCommand(PlainHelp, TyperCommand):
    """A tkg command (see the module docstring)."""


class PlainGroup(PlainHelp, TyperGroup):
    """A tkg command group such as `tkg bench` (see the module docstring)."""


def plain_help_everywhere(app: Any) -> None:
    """Give every command registered on a typer app (and its sub-apps) the plain help."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = TkgCommand
    for group in app.registered_groups:
        plain_help_everywhere(group.typer_instance)
