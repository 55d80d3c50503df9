"""The closed sets the router speaks in: query modes and answer procedures.

Modes come from `tkg.models.MODES` (the shared contract); this module adds the
one-line meaning of each (used by the LLM classifier prompt and the docs) and
validation that raises `ConfigError` with the allowed values, so a typo in a
TOML file or a CLI flag names what would have been accepted.
"""

from __future__ import annotations

from tkg.errors import ConfigError
from tkg.models import MODES

PROCEDURES: tuple[str, ...] = (
    "lookup", "graph_chain", "graph_latest", "temporal", "long_form", "aggregation",
)

MODE_DESCRIPTIONS: dict[str, str] = {
    "single_fact": "one fact about one named person or thing (where X works, who X's manager is)",
    "relation_chain": "a fact reached through two or more relations (where X's sister lives)",
    "latest_version": "the current value of something that changes (where X lives now, is X still ...)",
    "time_anchored": "a value at a past time, or when something happened (in 2022, before, when did ...)",
    "long_form": "a summary or overview (summarize, tell me everything, what has X been up to)",
    "aggregation": "a count or a list (how many, list all, which ... has X ...)",
}

# The order in which query gates outrank each other when several fire on one question:
# an explicit summary request beats a count, a count beats a chain, a chain carries its
# own time anchor (the walker reads `as_of_text`), and an explicit date beats "still".
GATE_PRECEDENCE: tuple[str, ...] = (
    "long_form", "aggregation", "relation_chain", "time_anchored", "latest_version",
)


def check_mode(mode: str, *, where: str = "mode") -> str:
    """Return `mode` if it is one of `MODES`, else raise `ConfigError`.

    >>> check_mode("latest_version")
    'latest_version'
    """
    if mode not in MODES:
        raise ConfigError(f"{where}: unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    return mode


def check_procedure(procedure: str, *, where: str = "procedure") -> str:
    """Return `procedure` if it is one of `PROCEDURES`, else raise `ConfigError`."""
    if procedure not in PROCEDURES:
        raise ConfigError(
            f"{where}: unknown procedure {procedure!r}; expected one of {', '.join(PROCEDURES)}"
        )
    return procedure
