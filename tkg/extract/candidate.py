"""What the extractor hands to ingest: candidate facts, and the per-sentence context rules share.

A `Candidate` is a claim read off one sentence, with the subject already resolved
from the speaker's point of view ("I" -> the speaker, "you" -> the listener).
Ingest turns candidates into versioned fact edges; nothing here touches a store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from tkg.extract.lexicon import NOT_NAMES
from tkg.predicates import PredicateRegistry
from tkg.timeparse import TimeRef

# How sure each kind of evidence makes us (explicit first-person > second person > inferred).
CONF_FIRST = 0.9  # "I moved to Bristol", "my sister Megan"
CONF_THIRD = 0.8  # "Megan moved to Leeds", "Dana is my manager"
CONF_SECOND = 0.75  # "congrats on starting at St. Anne's", "your new place in Leeds"
CONF_LOOSE = 0.7  # likes/owns read off loose verbs, plans, unnamed relatives
CONF_CONTEXT = 0.6  # the object came from context ("we got engaged" -> the partner named earlier)


@dataclass(frozen=True)
class Candidate:
    """One fact read off a sentence, not yet resolved to entities.

    >>> Candidate("Priya", "lives_in", "Bristol").polarity
    'assert'
    """

    subject: str  # surface name; first person resolved to the speaker, second person to the (single) listener
    predicate: str  # registry name
    object: str  # surface name or literal
    qualifier: str = ""  # e.g. favorite category "band"
    polarity: str = "assert"  # "assert" | "retract"
    confidence: float = 0.8  # reflects how the pattern matched (explicit first-person statement > inferred)
    valid_at: datetime | None = (
        None  # when the text says it became true (resolved time), else None (= turn time)
    )
    time_text: str | None = None
    correction: bool = (
        False  # "actually ...", "I meant ...": replaces the subject's current value said earlier
    )
    sentence: str = ""
    sentence_index: int = 0
    subject_type: str = "person"
    object_type: str = "thing"


@dataclass
class Hit:
    """A rule's raw finding inside one sentence; the engine adds time, types and dedupes."""

    subject: str
    predicate: str
    object: str
    qualifier: str = ""
    polarity: str = "assert"
    confidence: float = CONF_FIRST
    anchor: int = -1  # character offset the claim's time expression is looked for from; -1: timeless
    correction: bool = False
    object_type: str = ""  # "" = the predicate's object type
    subject_type: str = "person"
    indirect: bool = False  # read off a shape that implies the fact ("got the keys to a flat in X")


@dataclass
class Sentence:
    """One sentence with everything the rules need to read it from the speaker's side."""

    text: str  # apostrophes normalised to '
    index: int
    speaker: str
    listeners: Sequence[str]
    when: datetime
    registry: PredicateRegistry
    times: list[TimeRef] = field(default_factory=list)
    question: bool = False
    hypothetical: bool = False
    iffy: list[tuple[int, int]] = field(
        default_factory=list
    )  # spans of hypothetical clauses in a stated sentence
    correction: bool = False
    before: str = ""  # the turn's text before this sentence
    turn: str = ""  # the whole turn
    people_before: tuple[
        str, ...
    ] = ()  # people named in the turn before this sentence ("he"/"she" may be one)

    @property
    def listener(self) -> str | None:
        """The one person "you" can mean, if there is exactly one."""
        return self.listeners[0] if len(self.listeners) == 1 else None

    def owner(self, word: str) -> str | None:
        """Who "my"/"our"/"your"/"Megan's" refers to."""
        w = word.lower()
        if w in ("my", "our", "i", "we", "me", "us"):
            return self.speaker
        if w in ("your", "you"):
            return self.listener
        if w.endswith("'s"):
            return None if w[:-2] in NOT_NAMES else word[:-2]  # "How's work at ...?" has no owner
        return word
