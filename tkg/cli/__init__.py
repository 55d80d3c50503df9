"""The `tkg` command line: a thin layer over :class:`tkg.Memory` (see ``tkg --help``).

Example::

    >>> from typer.testing import CliRunner
    >>> CliRunner().invoke(app, ["--version"]).output.startswith("tkg ")
    True
"""

from .app import app, main

__all__ = ["app", "main"]
