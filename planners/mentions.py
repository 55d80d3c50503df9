"""Which of a group's entities a question names: the names and aliases worth handing the hop
planner, and the canonical names the question mentions, left to right.

Pure: the caller hands in the group's `EntityIndex` (read by the procedures); nothing here
reads a store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from tkg.text import STOPWORDS

from .hop_planner import find_mentions

if TYPE_CHECKING:
    from tkg.entities import EntityIndex

_STARTERS = frozenset(
    "what who whom whose where when which why how is are was were does do did has have had can could "
    "would will should tell list name give summarize summarise describe count remind".split()
)


def planning_names(question: str, index: EntityIndex) -> tuple[list[str], dict[str, str]]:
    """Entity names and aliases to hand `plan_hops`, minus those that only match a common word.

    Extraction can leave entities named "Still" or "Tell"; matched case-insensitively they would
    turn "is Priya still in Leeds" into a two-entity question. A name counts only where the
    question writes it capitalised and not as its opening question word — unless the whole
    question is lower-case, where only names that are not stop words count.

    >>> from tkg.entities import EntityIndex
    >>> idx = EntityIndex("g", [{"uuid": "1", "name": "Still"}, {"uuid": "2", "name": "Priya"}])
    >>> planning_names("Is Priya still in Leeds?", idx)[0]
    ['Priya']
    """
    lowercase = question == question.lower()
    return (
        [n for n in index.names() if _usable(n, question, lowercase)],
        {a: c for a, c in index.aliases().items() if _usable(a, question, lowercase)},
    )


def _usable(name: str, question: str, lowercase: bool) -> bool:
    if not name.strip():
        return False
    if lowercase:
        return name.lower() not in STOPWORDS and name.lower() not in _STARTERS and len(name) >= 3
    if not _word(name, re.IGNORECASE).search(question):
        return True  # not in the question at all: harmless, and keeps typo matching ("Beatrz")
    for m in _word(name, 0).finditer(question):
        opening = question[: m.start()].strip() == "" and name.lower() in _STARTERS
        if not opening:
            return True
    return False


def mentioned_entities(question: str, index: EntityIndex, names: Sequence[str] | None = None) -> list[str]:
    """Canonical names of the group's entities the question mentions, left to right."""
    usable, aliases = planning_names(question, index)
    found = find_mentions(question, list(names) if names is not None else usable, aliases)
    out: list[str] = []
    for m in found:
        if m.canonical not in out:
            out.append(m.canonical)
    return out


@lru_cache(maxsize=20_000)
def _word(name: str, flags: int) -> re.Pattern[str]:
    """``name`` as a whole word, compiled once per name: every question tries every name of the group,
    more than the ``re`` module's own cache of patterns holds."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", flags)
