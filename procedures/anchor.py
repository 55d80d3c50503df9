"""The time a question's relative words are read against: the group's latest turn, and the window
or point a time anchor ("July 2023", "before 2022", "last summer") denotes.

The graph, temporal and reading procedures all anchor a question this way.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from tkg.models import utcnow
from tkg.timeparse import find_times

if TYPE_CHECKING:
    from tkg.context import Context

Window = tuple[datetime, datetime]
FAR_PAST = datetime(1900, 1, 1, tzinfo=UTC)
FAR_FUTURE = datetime(2200, 1, 1, tzinfo=UTC)


def group_time(ctx: Context, group: str) -> datetime:
    """The time of the group's latest turn (what "now" means for its relative words), else now."""
    rows = ctx.store.named("temporal.group_span", {"group_id": group})
    last = rows[0]["last"] if rows else None
    return last if isinstance(last, datetime) else utcnow()


def resolve_window(text: str, anchor: datetime) -> Window | None:
    """The interval a time anchor denotes; "before"/"after"/"since"/"until" open one side.

    >>> from datetime import UTC
    >>> [d.date().isoformat() for d in resolve_window("July 2023", datetime(2024, 1, 1, tzinfo=UTC))]
    ['2023-07-01', '2023-08-01']
    """
    words = text.strip()
    lead = words.split(" ", 1)[0].lower()
    core = words.split(" ", 1)[1] if lead in ("before", "after", "since", "until", "till") and " " in words else words
    refs = find_times(core, anchor)
    if not refs and core[:1].isdigit():  # a bare "2019" reads as a year only after "in"
        refs = find_times(f"in {core}", anchor)
    if not refs:
        return None
    start, end = refs[0].start, refs[0].end
    if lead in ("before", "until", "till"):
        return (FAR_PAST, start)
    if lead == "after":
        return (end, FAR_FUTURE)
    if lead == "since":
        return (start, FAR_FUTURE)
    return (start, end)


def resolve_anchor(ctx: Context, group: str, text: str | None) -> datetime | None:
    """A point for a time anchor: the middle of its window (or the open side's edge)."""
    if not text:
        return None
    window = resolve_window(text, group_time(ctx, group))
    if window is None:
        return None
    lo, hi = window
    if lo == FAR_PAST:
        return hi - timedelta(seconds=1)
    if hi == FAR_FUTURE:
        return lo
    return lo + (hi - lo) / 2
