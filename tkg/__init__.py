"""tkg — temporal knowledge-graph memory for LLM assistants.

Example::

    >>> from tkg import Memory
    >>> with Memory.open() as mem:  # doctest: +SKIP
    ...     mem.ingest("examples/priya_marco.json")
    ...     print(mem.ask("Where does Priya live now?", group="priya-marco").answer)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

# graphiti-core phones home unless told not to; respect a user's explicit choice.
os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")

from .errors import TkgError  # noqa: E402
from .models import Answer, Evidence, Fact  # noqa: E402

if TYPE_CHECKING:
    from .memory import Memory

__all__ = ["Answer", "Evidence", "Fact", "Memory", "TkgError", "__version__"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # Memory pulls in the store drivers; load it on first use so `import tkg` stays fast.
    if name == "Memory":
        from .memory import Memory

        return Memory
    raise AttributeError(name)
