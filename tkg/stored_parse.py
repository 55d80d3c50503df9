"""A turn's spaCy parse, made once at ingest and kept with the turn (``Episodic.parse``).

The offline reader parses the turns a question reads; reading a turn's parse back from a ``DocBin``
costs a small part of parsing it again (BENCHMARKS.md, session 18). Ingest parses every turn in batches
and stores the result as text (Kuzu 0.11.3 binds no ``bytes`` parameter): a header naming the
pipeline, then the base64 of the ``DocBin``. When a group's turns are read (`procedures.group_turns`)
their stored parses are offered here, and `tkg.nlp.parse` reads an offered parse back instead of
parsing the text again. A parse made by another pipeline, or none (a store written before the column,
without the offline reader installed, a few turns ingested by a process that has not loaded the
parser (`tkg.ingest.pipeline.PARSE_LOAD_MIN`), or ``TKG_KEEP_PARSES=0``, which trades question time
for a faster bulk import), is parsed as before.

Example::

    >>> stored = encode(b"x", "pipeline-a")
    >>> stored
    'tkgparse/pipeline-a\\neA=='
    >>> offer([("Moved to Porto.", stored)], "pipeline-b")  # another pipeline's parse: not read
    0
    >>> offer([("Moved to Porto.", stored)], "pipeline-a"), offered("Moved to Porto.")
    (1, b'x')
    >>> forget_offers()
"""

from __future__ import annotations

import base64
import binascii
import os
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import msgpack
import numpy as np

HEADER_PREFIX = "tkgparse/"
OFFERS_MAX = 50_000  # offered parses kept (about 2 KB each); the oldest go first
_lock = threading.Lock()
_offers: OrderedDict[str, bytes] = OrderedDict()


def kept_at_ingest() -> bool:
    """Whether ingest keeps turns' parses (``TKG_KEEP_PARSES``, on unless 0/false/no/off)."""
    return os.environ.get("TKG_KEEP_PARSES", "1").strip().lower() not in ("0", "false", "no", "off")


def header(pipeline_id: str) -> str:
    """The first line of a stored parse made by the pipeline ``pipeline_id``."""
    return f"{HEADER_PREFIX}{pipeline_id}\n"


def encode(doc_bin: bytes, pipeline_id: str) -> str:
    """A ``DocBin``'s bytes, made by ``pipeline_id``, as the text kept in ``Episodic.parse``."""
    return header(pipeline_id) + base64.b64encode(doc_bin).decode("ascii")


def doc_bytes(doc_bin: Any, doc: Any) -> bytes:
    """``doc`` as the bytes of a one-doc ``DocBin`` (``doc_bin`` is spaCy's class): the message
    ``DocBin.to_bytes`` writes, packed by msgpack itself. spaCy's own call looks up srsly's msgpack
    extensions through every installed package's entry points each time, which costs more than the
    doc; the bytes are the same format, and ``DocBin().from_bytes`` reads them."""
    one = doc_bin(docs=[doc])
    tokens, spaces = one.tokens[0], one.spaces[0]
    msg = {"version": one.version, "attrs": one.attrs, "tokens": tokens.tobytes("C"),
           "spaces": spaces.tobytes("C"), "lengths": np.asarray([len(tokens)], dtype="int32").tobytes("C"),
           "strings": sorted(one.strings), "cats": one.cats, "flags": one.flags,
           "span_groups": one.span_groups}
    return zlib.compress(msgpack.packb(msg, use_bin_type=True))


def doc_from_bytes(doc_bin: Any, vocab: Any, data: bytes) -> Any:
    """The docs of a ``DocBin``'s bytes (``doc_bin`` is spaCy's class), read as ``DocBin.from_bytes``
    reads them but unpacked by msgpack itself (see `doc_bytes`): a list of ``Doc``."""
    msg = msgpack.unpackb(zlib.decompress(data), raw=False, use_list=True)
    out = doc_bin()
    out.attrs = msg["attrs"]
    out.strings = set(msg["strings"])
    lengths = np.frombuffer(msg["lengths"], dtype="int32")
    flat = np.frombuffer(msg["tokens"], dtype="uint64").reshape((-1, len(out.attrs)))
    flat_spaces = np.frombuffer(msg["spaces"], dtype=bool).reshape((-1, 1))
    cuts = np.cumsum(lengths)[:-1]
    out.tokens = np.split(flat, cuts)
    out.spaces = np.split(flat_spaces, cuts)
    out.cats = msg["cats"]
    out.span_groups = msg.get("span_groups", [b"" for _ in lengths])
    out.flags = msg.get("flags", [{} for _ in lengths])
    out.user_data = [None] * len(lengths)
    return list(out.get_docs(vocab))


def offer(pairs: Iterable[tuple[str, str | None]], pipeline_id: str) -> int:
    """Keep the stored parses of these (text, stored parse) pairs for `offered`; those made by a
    pipeline other than ``pipeline_id``, empty or unreadable are left out. Returns how many were kept."""
    mine = header(pipeline_id)
    kept: list[tuple[str, bytes]] = []
    for text, stored in pairs:
        if not text or not stored or not stored.startswith(mine):
            continue
        try:
            kept.append((text, base64.b64decode(stored[len(mine):], validate=True)))
        except (binascii.Error, ValueError):
            continue
    with _lock:
        for text, data in kept:
            _offers[text] = data
            _offers.move_to_end(text)
        while len(_offers) > OFFERS_MAX:
            _offers.popitem(last=False)
    return len(kept)


def offered(text: str) -> bytes | None:
    """The ``DocBin`` bytes offered for ``text``, or None."""
    with _lock:
        return _offers.get(text)


def forget_offers() -> None:
    """Drop every offered parse (tests, and a process that wants to parse afresh)."""
    with _lock:
        _offers.clear()
