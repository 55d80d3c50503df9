"""A second process that parses part of a large batch, so one question's parsing runs on two cores.

spaCy holds the GIL while it parses, so threads do not help; a worker process (``python -m
tkg.parse_serve``, the same pinned pipeline) parses part of a batch while this process parses the
rest, and sends its docs back as a spaCy ``DocBin``, which keeps every attribute the reader reads
(the text and its spacing, tags, morphology, lemmas, the parse, sentence starts, entities).

The worker is started by the first batch large enough to split and loads its pipeline in the
background: until it says it is ready, and while the machine has no idle core (`idle_core`), batches
are parsed here alone. A worker that fails or
stops answering is stopped and never restarted; its part is parsed here, so a batch always comes
back whole and in order. It stops with this process (``atexit``) or by `ParseWorker.stop`.
``TKG_PARSE_WORKER=0`` turns it off; so does a machine with one core, or one without POSIX pipes.

Frames on the pipes are a 4-byte big-endian length and the payload: the worker is sent a JSON
list of texts (an empty frame ends it) and answers with the ``DocBin`` bytes of their docs, after
one ready byte when its pipeline has loaded.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

READY = b"R"
SPLIT_MIN = 4  # fewer texts than this are parsed here alone: a round trip costs about a short text's parse
ANSWER_TIMEOUT = 30.0  # seconds a started batch may take before the worker is given up
_HEADER = struct.Struct(">I")
_ROOT = Path(__file__).resolve().parent.parent  # what holds the ``tkg`` package this process runs


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def enabled() -> bool:
    """Whether a worker may be started here: not turned off, two cores or more, POSIX pipes."""
    if os.environ.get("TKG_PARSE_WORKER", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return cores() >= 2 and os.name == "posix"


def idle_core() -> bool:
    """Whether another core is likely free: the one-minute load is below the number of cores. On a
    busier machine the worker's part would wait for a core, and the question with it."""
    try:
        return os.getloadavg()[0] < cores()
    except OSError:
        return False


def write_frame(out: IO[bytes], payload: bytes) -> None:
    data = memoryview(_HEADER.pack(len(payload)) + payload)
    while data:
        data = data[out.write(data) or 0:]
    out.flush()


def read_frame(inp: IO[bytes]) -> bytes | None:
    """The next frame's payload, or None at the end of the stream."""
    head = _read_exact(inp, _HEADER.size)
    return None if head is None else _read_exact(inp, _HEADER.unpack(head)[0])


def _read_exact(inp: IO[bytes], n: int) -> bytes | None:
    parts, left = [], n
    while left:
        part = inp.read(left)
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


class ParseWorker:
    """One worker process and the split of a batch between it and this process (see the module doc)."""

    def __init__(self, command: list[str] | None = None) -> None:
        self._command = command or [sys.executable, "-m", "tkg.parse_serve"]
        self._proc: subprocess.Popen[bytes] | None = None
        self._ready = False
        self._failed = False
        self._lock = threading.Lock()  # one batch at a time on the pipes; another thread parses alone
        self._owner = os.getpid()  # a forked child shares the pipes: it parses alone and leaves them be
        self._ahead: tuple[list[str], int] | None = None  # texts sent by `send_ahead`, and by which thread

    @property
    def ready(self) -> bool:
        return self._ready

    def start(self) -> None:
        """Start the process (once); it loads its pipeline while this process goes on."""
        if self._proc is not None or self._failed:
            return
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_ROOT), env.get("PYTHONPATH", "")) if p)
        env["TKG_PARSE_WORKER"] = "0"  # a worker starts no worker of its own
        try:
            self._proc = subprocess.Popen(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, env=env, bufsize=0)
        except OSError:
            self._failed = True
            return
        atexit.register(self.stop)

    def _poll_ready(self) -> bool:
        """Whether the worker has said it is ready, without waiting for it."""
        if self._ready or self._proc is None or self._failed:
            return self._ready
        out = self._proc.stdout
        assert out is not None
        if select.select([out], [], [], 0)[0]:
            if out.read(1) == READY:
                self._ready = True
            else:
                self.stop(failed=True)
        elif self._proc.poll() is not None:
            self.stop(failed=True)
        return self._ready

    def parse(self, texts: list[str], local: Callable[[list[str]], list[Any]],
              decode: Callable[[bytes], list[Any]]) -> list[Any]:
        """The docs of ``texts`` in order: a share parsed by the worker when it is ready and free,
        the rest by ``local`` meanwhile; ``decode`` turns the worker's bytes into docs."""
        if len(texts) < SPLIT_MIN or not self._claim():
            return local(texts)
        try:
            cut = split_at(texts)
            theirs = texts[cut:]
            sent = self._send(theirs)
            mine = local(texts[:cut])
            docs = self._receive(len(theirs), decode) if sent else None
            return mine + (docs if docs is not None else local(theirs))
        finally:
            self._lock.release()

    def send_ahead(self, texts: list[str]) -> bool:
        """Send ``texts`` to the worker now, to be taken by `take_ahead` on this thread (a question, sent
        while this process retrieves its evidence): whether they went. The pipes stay this thread's
        until then, so a batch meanwhile is parsed here alone."""
        if not texts or not self._claim():
            return False
        if self._send(texts):
            self._ahead = (list(texts), threading.get_ident())
            return True
        self._lock.release()
        return False

    def _claim(self) -> bool:
        """Take the pipes for this thread when the worker may parse now: this process owns them, no
        other thread holds them, the worker is ready (started here if not yet) and a core is idle.
        True holds the lock, which the caller releases; False leaves it free."""
        if os.getpid() != self._owner or not self._lock.acquire(blocking=False):
            return False
        self.start()
        if self._poll_ready() and idle_core():
            return True
        self._lock.release()
        return False

    def ahead_for(self, text: str) -> bool:
        """Whether ``text`` was sent ahead by this thread and not taken yet."""
        ahead = self._ahead
        return ahead is not None and ahead[1] == threading.get_ident() and text in ahead[0]

    def take_ahead(self, decode: Callable[[bytes], list[Any]]) -> dict[str, Any]:
        """The docs of the texts this thread sent ahead, by text (waiting for them); empty when it sent
        none or the worker failed (then they are parsed when read, as any text)."""
        ahead = self._ahead
        if ahead is None or ahead[1] != threading.get_ident():
            return {}
        self._ahead = None
        try:
            docs = self._receive(len(ahead[0]), decode)
        finally:
            self._lock.release()
        return dict(zip(ahead[0], docs, strict=True)) if docs is not None else {}

    def _send(self, texts: list[str]) -> bool:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            write_frame(self._proc.stdin, json.dumps(texts).encode())
            return True
        except (OSError, ValueError):
            self.stop(failed=True)
            return False

    def _receive(self, n: int, decode: Callable[[bytes], list[Any]]) -> list[Any] | None:
        assert self._proc is not None and self._proc.stdout is not None
        out = self._proc.stdout
        try:
            payload = read_frame(out) if select.select([out], [], [], ANSWER_TIMEOUT)[0] else None
        except (OSError, ValueError):
            payload = None
        try:
            docs = decode(payload) if payload is not None else None
        except Exception:  # bytes that are no DocBin of these texts, whatever spaCy calls it
            docs = None
        if docs is None or len(docs) != n:
            self.stop(failed=True)
            return None
        return docs

    def wait_ready(self, timeout: float) -> bool:
        """Start the worker and wait up to ``timeout`` seconds for its pipeline to load (a warm-up)."""
        self.start()
        deadline = time.monotonic() + timeout
        while not self._poll_ready():
            if self._proc is None or time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def stop(self, *, failed: bool = False) -> None:
        """End the worker: an empty frame asks it to, closing its pipes makes sure; killed if it lingers,
        or at once while it still loads (a short command does not wait for a pipeline it never used)."""
        self._failed = self._failed or failed
        proc, ready, self._proc, self._ready = self._proc, self._ready, None, False
        if proc is None or os.getpid() != self._owner:
            return
        atexit.unregister(self.stop)
        try:
            if not ready and proc.poll() is None:
                proc.kill()
            elif proc.stdin is not None and proc.poll() is None:
                write_frame(proc.stdin, b"")
        except (OSError, ValueError):
            pass
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                pipe.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def split_at(texts: list[str]) -> int:
    """Where a batch is cut: the worker takes the texts after the cut, about half the characters
    (a parse costs about its length; the worker's part also pays for its trip back)."""
    total = sum(len(t) for t in texts) or 1
    run = 0
    for i, t in enumerate(texts):
        run += len(t)
        if run * 2 >= total:
            return max(1, min(i + 1, len(texts) - 1))
    return len(texts) - 1
