"""Importing spaCy without its command line, which the reader never uses.

``import spacy`` runs ``from .cli.info import info``, and ``spacy.cli`` imports every spaCy command
with what they need (weasel, requests, jinja2, the project and download code): a large part of the
import, paid by every cold `tkg ask`. `import_spacy` imports spaCy with a stand-in ``spacy.cli.info``
in ``sys.modules`` for that one line, then takes the stand-in out again, so a later
``import spacy.cli`` (or ``spacy.info()``) loads the real one. Nothing else of spaCy changes: the
pipeline is loaded from the same files by the same code. If spaCy's own import fails with the
stand-in (another spaCy that needs more of its command line), it is imported the ordinary way.
"""

from __future__ import annotations

import sys
import threading
import types
from importlib import import_module
from typing import Any

_CLI = ("spacy.cli", "spacy.cli.info")
_lock = threading.Lock()


def _info(*args: Any, **kwargs: Any) -> Any:
    """``spacy.info``, loading spaCy's command line on first use."""
    return import_module("spacy.cli.info").info(*args, **kwargs)


def import_spacy() -> Any:
    """The ``spacy`` module, imported without its command line when it is not imported yet."""
    with _lock:
        if "spacy" in sys.modules:
            return import_module("spacy")
        cli = types.ModuleType("spacy.cli")
        cli.__path__ = []  # a package, so ``spacy.cli.info`` resolves under it
        info = types.ModuleType("spacy.cli.info")
        info.info = _info  # type: ignore[attr-defined]
        cli.info = info  # type: ignore[attr-defined]
        stand_ins = dict(zip(_CLI, (cli, info), strict=True))
        sys.modules.update(stand_ins)
        try:
            spacy = import_module("spacy")
        except ImportError:
            spacy = None
        finally:
            for name, module in stand_ins.items():
                if sys.modules.get(name) is module:
                    del sys.modules[name]
        if spacy is None:  # drop what the failed import left behind, then import it whole
            for name in [n for n in sys.modules if n == "spacy" or n.startswith("spacy.")]:
                del sys.modules[name]
            return import_module("spacy")
        if getattr(spacy, "cli", None) is cli:
            del spacy.cli
        return spacy
