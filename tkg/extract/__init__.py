"""Deterministic, speaker-aware fact extraction over the closed predicate vocabulary.

No model: regex/rule patterns built from `predicates.toml`, fast enough for ingest
(thousands of turns per second). See `engine.extract` for the entry point.

    >>> from datetime import UTC, datetime
    >>> from tkg.predicates import PredicateRegistry
    >>> [(c.subject, c.predicate, c.object) for c in extract(
    ...     "My sister Megan moved to Leeds.", speaker="Priya", listeners=["Marco"],
    ...     when=datetime(2023, 5, 8, tzinfo=UTC), registry=PredicateRegistry.load())]
    [('Priya', 'sibling_of', 'Megan'), ('Megan', 'lives_in', 'Leeds')]
"""

from tkg.extract.candidate import Candidate
from tkg.extract.engine import extract
from tkg.extract.mentions import mentions

__all__ = ["Candidate", "extract", "mentions"]
