"""Turn and sentence chunks for one episode, with their resolved times.

A turn becomes one ``turn`` chunk (or several windows when it is huge — huge texts are chunked,
not rejected) plus one ``sentence`` chunk per sentence when the turn has more than one. Each
chunk keeps the relative time expressions it contains, resolved against the time the turn was
said (``find_times``), so time-anchored retrieval can filter on them.

Example::

    >>> from datetime import datetime, UTC
    >>> from tkg.models import EpisodeInput
    >>> ep = EpisodeInput("g", "Priya", "I moved to Leeds. It rains a lot.", datetime(2023, 5, 8, tzinfo=UTC))
    >>> [c.kind for c in chunk_episode(ep, "e1")]
    ['turn', 'sentence', 'sentence']
"""

from __future__ import annotations

from ..models import Chunk, EpisodeInput, stable_uuid
from ..text import split_sentences
from ..timeparse import find_times

TURN_WINDOW = 2000  # characters per turn chunk; longer turns become several windows
SENTENCE_WINDOW = 600


def _windows(text: str, size: int) -> list[str]:
    if len(text) <= size:
        return [text]
    out, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):  # cut at the last space so words stay whole
            space = text.rfind(" ", start + size // 2, end)
            end = space if space > start else end
        out.append(text[start:end].strip())
        start = end
    return [w for w in out if w]


def chunk_episode(ep: EpisodeInput, episode_uuid: str) -> list[Chunk]:
    """The chunks of one episode, turn windows first, then sentences, in reading order."""
    chunks: list[Chunk] = []
    seq = 0

    def add(kind: str, text: str) -> None:
        nonlocal seq
        times = find_times(text, ep.timestamp) if kind == "sentence" or len(text) <= TURN_WINDOW else []
        first = times[0] if times else None
        chunks.append(
            Chunk(
                uuid=stable_uuid("chunk", episode_uuid, kind, str(seq)),
                group_id=ep.group,
                episode_uuid=episode_uuid,
                kind=kind,  # type: ignore[arg-type]
                text=text,
                seq=seq,
                valid_at=ep.timestamp,
                speaker=ep.speaker,
                source_ref=ep.source_ref,
                time_text=first.text if first else None,
                time_start=first.start if first else None,
                time_end=first.end if first else None,
            )
        )
        seq += 1

    for window in _windows(ep.text, TURN_WINDOW):
        add("turn", window)
    sentences = split_sentences(ep.text)
    if len(sentences) > 1 or len(chunks) > 1:
        for sentence in sentences:
            for piece in _windows(sentence, SENTENCE_WINDOW):
                add("sentence", piece)
    return chunks
