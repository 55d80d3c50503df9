"""What the extractor carries from one turn to later ones, and the text it is stored as.

``extract(..., history=...)`` reads the candidate facts of a conversation's earlier turns (oldest
first) to resolve corrections ("it's Vienna, not York"), "we" partners and back-references, and
reads only their subject, predicate, object, qualifier, polarity and confidence. Ingest stores
what each turn hands on beside the turn (``Episodic.extract_context``) and reads the last ones
back when it starts, so a conversation ingested whole, in parts, one turn per call or after a
crash is extracted alike.

    >>> turn = [Candidate("Priya", "lives_in", "York", sentence="I moved to York.")]
    >>> text = dumps(handed_on(turn))
    >>> recent([text]) == handed_on(turn)
    True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from tkg.extract.candidate import Candidate

HISTORY = 40  # earlier candidates the extractor may refer back to


def handed_on(candidates: Iterable[Candidate]) -> list[Candidate]:
    """A turn's candidates that later turns may read, reduced to the fields ``extract`` reads back."""
    return [Candidate(c.subject, c.predicate, c.object, c.qualifier, c.polarity, c.confidence)
            for c in candidates if c.polarity == "assert"]


def dumps(candidates: Sequence[Candidate]) -> str:
    """The stored form of what one turn hands on ("" when nothing)."""
    if not candidates:
        return ""
    rows = [[c.subject, c.predicate, c.object, c.qualifier, c.polarity, c.confidence] for c in candidates]
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


def loads(text: str | None) -> list[Candidate]:
    """What one turn handed on, from its stored form (an unreadable one hands on nothing)."""
    if not text:
        return []
    try:
        rows = json.loads(text)
        return [
            Candidate(str(s), str(p), str(o), str(q), str(pol), float(conf)) for s, p, o, q, pol, conf in rows
        ]
    except (ValueError, TypeError):
        return []


def recent(stored: Iterable[str | None], limit: int = HISTORY) -> list[Candidate]:
    """The history for the next turn: the last ``limit`` candidates the stored turns (oldest
    first) handed on."""
    out = [c for text in stored for c in loads(text)]
    return out[-limit:] if limit else []
