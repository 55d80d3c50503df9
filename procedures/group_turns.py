"""A group's turns, read once per write stamp and looked up in memory by uuid, position or word.

A question reads turns of its group four or five times: the turns behind its hits
(``retrieval.turns``), their neighbours and the turns just before (``retrieval.turns_by_seq``),
the turns that contain the subject's or the question's words (``graph.turns_with_terms``,
``graph.turns_containing``) and
the group's first and last times (``temporal.group_span``). Each is a statement, and on an
embedded Kuzu each costs more than the lookup it does. A group of up to `TURNS_MAX` turns is
instead read whole once per write stamp (tkg/group_cache.py, as `procedures.group_vectors`) and
those reads answered here with the rows the statements return; larger groups and groups with
no stamp keep the statements. Only the row order of a statement without ``ORDER BY`` may
differ, and every caller orders or keys the rows itself.

Example::

    >>> turns = GroupTurns([{"uuid": "a", "text": "Moved to Porto", "speaker": "Ana", "seq": 1},
    ...                     {"uuid": "b", "text": "nice!", "speaker": "Ben", "seq": 2}])
    >>> [[r["uuid"] for r in turns.with_terms([word], 10)] for word in ("porto", "ben")]
    [['a'], ['b']]
    >>> [r["text"] for r in turns.by_seqs([2, 5])]
    ['nice!']
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from tkg.models import Evidence
from tkg.nlp import offer_parses
from tkg.stores.base import Row

from .group_vectors import time_from_text

if TYPE_CHECKING:
    from tkg.context import Context

TURNS_MAX = 20_000  # turns of one group kept in memory; beyond, the statements read the store
_APART = "\x00"  # between two turns' texts in `GroupTurns._joined`


@dataclass(frozen=True)
class GroupTurns:
    """Every turn of one group, as ``group.turns`` returns them (seq order)."""

    rows: list[Row]

    def __len__(self) -> int:  # what the group cache weighs it by
        return len(self.rows)

    @cached_property
    def _by_uuid(self) -> dict[str, Row]:
        return {str(r["uuid"]): r for r in self.rows}

    @cached_property
    def _lowered(self) -> list[tuple[str, str, Row]]:
        return [((r.get("text") or "").lower(), (r.get("speaker") or "").lower(), r) for r in self.rows]

    @cached_property
    def _sessionless(self) -> dict[int, Row]:
        """Each row without its session (what ``graph.turns_with_terms`` returns), by row identity."""
        return {id(r): {k: v for k, v in r.items() if k != "session"} for r in self.rows}

    def by_uuids(self, uuids: Iterable[str]) -> list[Row]:
        """``retrieval.turns``: the turns of those uuids."""
        return [dict(row) for u in dict.fromkeys(uuids) if (row := self._by_uuid.get(u)) is not None]

    def by_seqs(self, seqs: Iterable[int]) -> list[Row]:
        """``retrieval.turns_by_seq``: the turns at those positions."""
        wanted = set(seqs)
        return [dict(r) for r in self.rows if r.get("seq") in wanted]

    def with_terms(self, terms: Iterable[str], limit: int) -> list[Row]:
        """``graph.turns_with_terms``: the turns whose text or speaker contains any of ``terms``
        (lower-case words), at most ``limit``. One pattern scans all texts joined (then all speakers),
        jumping to the next turn after a hit, instead of a search per turn."""
        needles = list(terms)
        if not needles:
            return []
        anywhere = re.compile("|".join(re.escape(t) for t in needles))
        if any(_APART in t for t in needles):  # a term that could run over from one turn into the next
            hits = [i for i, (text, speaker, _) in enumerate(self._lowered)
                    if anywhere.search(text) or anywhere.search(speaker)]
        else:
            hits = sorted({i for joined, starts in self._joined
                           for i in _turns_hit(anywhere, joined, starts, limit)})
        return [dict(self._sessionless[id(self._lowered[i][2])]) for i in hits[: max(limit, 0)]]

    @cached_property
    def _joined(self) -> tuple[tuple[str, list[int]], tuple[str, list[int]]]:
        """The lowered texts joined by a character no term holds, and the speakers so, with where each
        turn starts in them."""
        texts = [text for text, _, _ in self._lowered]
        speakers = [speaker for _, speaker, _ in self._lowered]
        return (_APART.join(texts), _starts(texts)), (_APART.join(speakers), _starts(speakers))

    def containing(self, needles: Iterable[str]) -> list[Row]:
        """``graph.turns_containing``: a row per turn and (lower-case) needle its text contains."""
        wanted = list(needles)
        return [
            {"needle": n, "uuid": r["uuid"], "episode_uuid": r["uuid"], "text": r.get("text"),
             "speaker": r.get("speaker"), "source_ref": r.get("source_ref"), "valid_at": r.get("valid_at")}
            for text, _, r in self._lowered for n in wanted if n in text
        ]

    def span(self) -> list[Row]:
        """``temporal.group_span``: the first and last turn times and the number of turns."""
        times = [r["valid_at"] for r in self.rows if r.get("valid_at") is not None]
        first, last = min(times, default=None), max(times, default=None)
        return [{"first": first, "last": last, "turns": len(self.rows)}]


def group_turns(ctx: Context, group: str) -> GroupTurns | None:
    """The group's turns, kept while its stamp stays; None when the statements should read the store
    (no stamp, or more than `TURNS_MAX` turns)."""
    stamp = ctx.stamp(group)
    if stamp is None or sum(ctx.speakers(group).values()) > TURNS_MAX:
        return None
    return ctx.cache.get(group, "turns", stamp, lambda: GroupTurns(_read(ctx, group)))


def _read(ctx: Context, group: str) -> list[Row]:
    """The group's turns, with their times back as datetimes (``group.turns`` sends ISO text); their
    stored parses go to the reader (`tkg.nlp.offer_parses`), not into the kept rows."""
    rows = ctx.store.named("group.turns", {"group_id": group})
    offer_parses([(str(r.get("text") or ""), r.pop("parse", None)) for r in rows])
    for r in rows:
        r["valid_at"] = time_from_text(r.get("valid_at"))
    return rows


def _kept_or_read(
    ctx: Context, group: str, kept: Callable[[GroupTurns], list[Row]], statement: str, **params: Any
) -> list[Row]:
    """``kept`` asked of the group's turns when they are kept, else ``statement`` read from the store."""
    turns = group_turns(ctx, group)
    return kept(turns) if turns is not None else ctx.store.named(statement, {"group_id": group, **params})


def turns_by_uuid(ctx: Context, group: str, uuids: list[str]) -> list[Row]:
    """The rows of ``retrieval.turns``."""
    return _kept_or_read(ctx, group, lambda t: t.by_uuids(uuids), "retrieval.turns", uuids=uuids)


def turns_by_seq(ctx: Context, group: str, seqs: list[int]) -> list[Row]:
    """The rows of ``retrieval.turns_by_seq``."""
    return _kept_or_read(ctx, group, lambda t: t.by_seqs(seqs), "retrieval.turns_by_seq", seqs=seqs)


def turns_with_terms(ctx: Context, group: str, terms: list[str], limit: int) -> list[Row]:
    """The rows of ``graph.turns_with_terms``."""
    return _kept_or_read(
        ctx, group, lambda t: t.with_terms(terms, limit), "graph.turns_with_terms", terms=terms, limit=limit
    )


def turns_containing(ctx: Context, group: str, needles: list[str]) -> list[Row]:
    """The rows of ``graph.turns_containing``."""
    return _kept_or_read(
        ctx, group, lambda t: t.containing(needles), "graph.turns_containing", needles=needles
    )


def group_span(ctx: Context, group: str) -> list[Row]:
    """The row of ``temporal.group_span``."""
    return _kept_or_read(ctx, group, GroupTurns.span, "temporal.group_span")


def before_history(ctx: Context, group: str, window: tuple[datetime, datetime] | None) -> bool:
    """The window closes before the group's first turn: nothing was said in it, only said of it
    later ("what state did she visit in summer 2021?" of a chat begun in 2022)."""
    rows = group_span(ctx, group)
    first = rows[0]["first"] if rows else None
    return window is not None and isinstance(first, datetime) and window[1] <= first


def turns_before(
    ctx: Context, group: str, turns: list[Evidence], back: int = 1
) -> dict[str, tuple[str, ...]]:
    """The texts of the ``back`` turns said just before each of ``turns``, the nearest first ("she's in
    Oslo now" after "How is Maren?"), read by position from the group's anchor."""
    said: dict[str, list[str]] = {}
    for step in range(1, back + 1):
        for u, r in _beside(ctx, group, turns, -step).items():
            said.setdefault(u, []).append(r.get("text") or "")
    return {u: tuple(texts) for u, texts in said.items()}


def replies_to(ctx: Context, group: str, turns: list[Evidence]) -> dict[str, str]:
    """The text of the turn after each of ``turns`` when another speaker said it: the reply."""
    return {u: r.get("text") or "" for u, r in reply_rows(ctx, group, turns).items()}


def reply_rows(ctx: Context, group: str, turns: list[Evidence]) -> dict[str, Row]:
    """The row of the turn after each of ``turns`` when another speaker said it (`replies_to`)."""
    said = {e.episode: e.speaker for e in turns}
    return {u: r for u, r in _beside(ctx, group, turns, 1).items()
            if r.get("speaker") and r.get("speaker") != said.get(u)}


def prior_rows(ctx: Context, group: str, turns: list[Evidence]) -> dict[str, Row]:
    """The row of the turn before each of ``turns`` when another speaker said it: what it answers."""
    said = {e.episode: e.speaker for e in turns}
    return {u: r for u, r in _beside(ctx, group, turns, -1).items()
            if r.get("speaker") and r.get("speaker") != said.get(u)}


def rows_after(ctx: Context, group: str, turns: list[Evidence], step: int) -> dict[str, Row]:
    """The row of the turn ``step`` places after each of ``turns``, whoever said it."""
    return {u: r for u, r in _beside(ctx, group, turns, step).items() if r}


def _beside(ctx: Context, group: str, turns: list[Evidence], step: int) -> dict[str, Row]:
    """The turn ``step`` places from each of ``turns`` (-1: the one before, 1: the next), by position."""
    uuids = [e.episode for e in turns if e.episode]
    if not uuids:
        return {}
    seq_of = {r["uuid"]: r["seq"] for r in turns_by_uuid(ctx, group, uuids) if r.get("seq") is not None}
    wanted = sorted({s + step for s in seq_of.values() if s + step >= 0})
    at = {r["seq"]: r for r in (turns_by_seq(ctx, group, wanted) if wanted else [])}
    return {u: at.get(s + step, {}) for u, s in seq_of.items()}


def _turns_hit(pattern: re.Pattern[str], joined: str, starts: list[int], limit: int) -> list[int]:
    """The first ``limit`` turns (indexes) whose part of ``joined`` the pattern matches, in order."""
    hits: list[int] = []
    at = 0
    while len(hits) < limit and (m := pattern.search(joined, at)) is not None:
        turn = bisect_right(starts, m.start()) - 1
        hits.append(turn)
        if turn + 1 >= len(starts):
            break
        at = starts[turn + 1]
    return hits


def _starts(parts: list[str]) -> list[int]:
    """Where each part starts in ``_APART.join(parts)``."""
    out, at = [], 0
    for part in parts:
        out.append(at)
        at += len(part) + 1
    return out
