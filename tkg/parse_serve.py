"""The parse worker's own loop (``python -m tkg.parse_serve``): `tkg.parse_worker` starts it.

It loads the pinned pipeline (`tkg.nlp.pipeline`, hash checked as in any process), says it is
ready, then parses each batch of texts it is sent and answers with their docs as ``DocBin`` bytes,
until it is sent an empty frame or its input ends. The protocol's pipe is a copy of its standard
output made at start; standard output itself then goes to standard error, so nothing a library
prints can break a frame.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO

from .nlp import pipeline
from .parse_worker import READY, read_frame, write_frame
from .spacy_import import import_spacy


def serve(inp: IO[bytes], out: IO[bytes]) -> None:
    """Answer batches from ``inp`` on ``out`` until an empty frame or the end of ``inp``."""
    nlp = pipeline()
    doc_bin = import_spacy().tokens.DocBin
    out.write(READY)
    out.flush()
    while True:
        payload = read_frame(inp)
        if not payload:
            return
        texts = json.loads(payload)
        docs = list(nlp.pipe(texts, batch_size=64))
        write_frame(out, doc_bin(docs=docs).to_bytes())


def main() -> None:
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        serve(sys.stdin.buffer, out)
    finally:
        out.close()


if __name__ == "__main__":
    main()
