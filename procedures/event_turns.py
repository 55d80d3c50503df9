"""The subject's turns and the events they tell, for the reading step (`procedures.reading`).

`subject_turns` widens a procedure's evidence with the turns naming the subject or said by them;
`event_window` dates the event clause a question is anchored to ("when he started at Fjordbyte");
`read_event` says what happened to a thing the question names ("stolen", "sold").
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from planners import cues
from planners.asked import Asked
from planners.query_text import names_in
from tkg.models import Evidence
from tkg.nlp import parse, parse_many
from tkg.text import content_terms
from tkg.words import is_common_word

from .about import Subject
from .backfill import turn_evidence
from .group_turns import rows_after, turns_with_terms
from .reader import FAR_FUTURE
from .slots import FAR_PAST, resolve_window

if TYPE_CHECKING:
    from tkg.context import Context

_EVENT_CLAUSE = re.compile(
    r"(?<!look )(?<!looks )(?<!looked )(?<!looking )(?<!named )(?<!take )(?<!took )"
    r"\b(when|while|before|after|since)\s+(?!(?:the\s+)?(?:latest|most recent)\b)(.+?)[?,]?$",
    re.I,
)
EVENTS: dict[str, str] = {w: v for v, ws in (
    ("stolen", "stolen stole nicked robbed theft"), ("sold", "sold selling"),
    ("cancelled", "cancelled canceled cancel"), ("postponed", "postponed"), ("crashed", "crashed"),
    ("written off", "totalled totaled"), ("broken", "broke broken"), ("died", "died"), ("lost", "lost"),
    ("closed", "closed"), ("scrapped", "scrapped"), ("returned", "returned"), ("repaired", "repaired fixed"),
    ("quit", "quit"), ("left", "left"), ("retired", "retired"), ("towed", "towed"), ("finished", "finished"),
    ("rescheduled", "rescheduled")) for w in ws.split()}
_EVENT_PHRASES = (("called off", "cancelled"), ("fell through", "fell through"), ("gave away", "given away"),
                  ("given away", "given away"), ("passed away", "died"), ("no longer", "no longer"),
                  ("moved on", "left"), ("gave up", "gave up"), ("dropped out", "dropped out"))
_ENDING = frozenset({"quit", "left", "retired", "no longer", "gave up", "dropped out", "cancelled", "sold",
                     "fell through"})


def subject_turns(
    ctx: Context, group: str, subject: Subject | None, cues_: set[str], *, k: int = 24, own: bool = False
) -> list[Evidence]:
    """The group's turns naming the subject or said by them that share the most cue words; with
    ``own`` (a list gathers from all of them) the subject's turns that share none follow."""
    terms = sorted({*(subject.aliases if subject else ()), *(c for c in cues_ if len(c) >= 4)})
    if not terms:
        return []
    rows = turns_with_terms(ctx, group, terms, 2000)
    scored = []
    for r in rows:
        text = r["text"] or ""
        overlap = len(content_terms(text) & cues_)
        if not overlap and cues_ and not own:
            continue  # kept only for a shared cue word: whose turn it is cannot keep it
        mine = subject is not None and (
            (r["speaker"] or "").lower() in subject.aliases or subject.named_in(text)
        )
        if overlap or (mine and (own or not cues_)):
            scored.append((overlap + (1 if mine else 0), r))
    scored.sort(key=lambda x: (-x[0], str(x[1]["uuid"])))
    return [turn_evidence(r, float(s), group) for s, r in scored[:k]]


def newest_own(ctx: Context, group: str, subject: Subject | None, read: list[Evidence], k: int = 40
               ) -> list[Evidence]:
    """A speaker's own newest ``k`` turns not in ``read``, newest first (none for a third person)."""
    if subject is None or not subject.speaker:
        return []
    seen = {e.episode for e in read}
    rows = [r for r in turns_with_terms(ctx, group, sorted(subject.aliases), 2000)
            if (r["speaker"] or "").lower() in subject.aliases and r["uuid"] not in seen]
    rows.sort(key=lambda r: (r["valid_at"] or FAR_PAST, str(r["uuid"])), reverse=True)
    return [turn_evidence(r, 0.0, group) for r in rows[:k]]


# a turn that opens on "she", "he" or "they", after a few words at most ("calm down 😂 she's a vet…")
_OPENS_THIRD = re.compile(r"^\W*(?:\S+\s+){0,7}?(?:she|he|they)(?:['\u2019]\w+)?\b", re.I)


def continuing_turns(ctx: Context, group: str, subject: Subject | None,
                     turns: list[Evidence]) -> list[Evidence]:
    """The turns going on about a third person named just before: the one or two turns after a turn
    naming them that open on "she", "he" or "they" and do not name them ("meera. we met for coffee" –
    "the biodata WORKED???" – "she's a paediatrician"). A search for the name cannot find these; the
    reader weighs them by the same rule (`about.about`)."""
    if subject is None or subject.speaker:
        return []
    naming = [e for e in turns if subject.named_in(e.text)][:12]
    out = []
    for step in (1, 2):
        for row in rows_after(ctx, group, naming, step).values():
            text = row.get("text") or ""
            if _OPENS_THIRD.search(text) and not subject.named_in(text):
                out.append(turn_evidence(row, 0.5, group))
    return out


def event_window(ctx: Context, question: str, group: str, turns: list[Evidence],
                 anchor_now: datetime) -> tuple[tuple[datetime, datetime] | None, str]:
    """The time window the question is anchored to: a date ("in March 2021"), or an event
    ("when he started at Fjordbyte", "before her promotion"), dated by the turn that tells it."""
    anchor = cues.find_time_anchor(question)
    if anchor is not None:
        window = resolve_window(anchor.text, anchor_now)
        if window is not None:
            return window, f"date {anchor.text!r}"
    m = _EVENT_CLAUSE.search(question)
    if not m or question.strip().lower().startswith(("when", "since when")):
        return None, ""
    link, clause = m.group(1).lower(), m.group(2)
    words = content_terms(clause, drop=[n for n in names_in(clause) if len(n) < 3])
    named = {w for w in words if w in content_terms(" ".join(names_in(clause)))}
    rare = {w for w in named if not is_common_word(w)}  # "Narra" of "Studio Narra": no other studio's
    # a turn naming the event's own names ("Fjordbyte") tells it before one sharing only a verb
    scored = [((len(rare & t), len(named & t), len(t & words)), e) for e in turns if e.valid_at
              for t in [content_terms(e.text)] if len(t & words) >= max(1, len(words) // 2)]
    top = max((n for n, _ in scored), default=(0, 0, 0))  # the first that tells it best: later ones look back
    best = min(((n, e) for n, e in scored if n == top), key=lambda x: x[1].valid_at or FAR_PAST,
               default=((0, 0, 0), None))
    if best[1] is None or best[1].valid_at is None:
        return None, ""
    when = best[1].valid_at
    if link == "before":
        return (FAR_PAST, when - timedelta(seconds=1)), f"before {clause!r} ({best[1].source_ref})"
    if link in ("after", "since"):
        return (when, FAR_FUTURE), f"after {clause!r} ({best[1].source_ref})"
    return (FAR_PAST, when + timedelta(hours=1)), f"at {clause!r} ({best[1].source_ref})"


def read_event(
    asked: Asked, question: str, subject: Subject | None, turns: list[Evidence]
) -> tuple[str, Evidence] | None:
    """What happened to the thing a question names: the latest event word said next to it
    ("the blue bianchi 😭 cut the lock clean through… stolen"), or for a yes/no question whether
    something ended ("quit the band")."""
    focus = [n.lower() for n in names_in(question) if subject is None or n.lower() not in subject.aliases]
    if asked.head:
        focus.append(asked.head)
    found: list[tuple[datetime, str, Evidence]] = []
    named = [ev for ev in turns if any(f in ev.text.lower() for f in focus)]
    parse_many([ev.text for ev in named])
    for ev in named:
        low = ev.text.lower()
        words = {t.lower_ for t in parse(ev.text)}
        hits = [v for w, v in EVENTS.items() if w in words] + [v for p, v in _EVENT_PHRASES if p in low]
        if asked.yesno:
            hits = [h for h in hits if h in _ENDING]
        for h in hits:
            found.append((ev.valid_at or FAR_PAST, h, ev))
    if not found:
        return None
    when, word, ev = max(found, key=lambda x: x[0])
    return word, ev
