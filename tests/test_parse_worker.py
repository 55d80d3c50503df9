"""The parse worker process: a batch shared with it comes back whole, in order, and as parsed here.

A real worker (``python -m tkg.parse_serve``) parses part of each batch; its docs must read as
the docs this process makes of the same texts (every attribute the reader reads). A worker that
cannot start, dies, or answers nonsense is given up and the batch is parsed here; ``stop`` ends the
process; ``TKG_PARSE_WORKER=0`` turns it off. The framing reads back what it writes.
"""

from __future__ import annotations

import io
import sys
import threading
import time
from typing import Any

import pytest

from tkg import nlp, parse_worker
from tkg.parse_worker import ParseWorker, read_frame, split_at, write_frame

TEXTS = [
    "We finally moved to Porto last May, and my sister Odette came along.",
    "omg the blue bianchi got stolen 😭 cut the lock clean through",
    "I'm a senior cartographer now at Lumen Studio.",
    "My dog Biscuit is nine years old!!",
    "She didn't get the job at Orbis, sadly.",
    "we're gonna bake sourdough w/ the kids this weekend",
    "Ran the Rotterdam marathon in 3:41:07 — new PB",
]


def shape(doc: Any) -> list[Any]:
    toks = [(t.text, t.whitespace_, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i, t.ent_type_, t.ent_iob_,
             t.is_sent_start, str(t.morph), t.norm_, t.is_stop, t.like_num) for t in doc]
    return [toks, [(s.start, s.end) for s in doc.sents], [(c.start, c.end) for c in doc.noun_chunks],
            [(e.start, e.end, e.label_) for e in doc.ents]]


@pytest.fixture
def idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine has a free core (the shared test machine often has none)."""
    monkeypatch.setattr(parse_worker.os, "getloadavg", lambda: (0.0, 0.0, 0.0))


def test_a_shared_batch_reads_as_one_parsed_here(idle: None, monkeypatch: pytest.MonkeyPatch) -> None:
    worker = ParseWorker()
    try:
        assert worker.wait_ready(120), "the worker did not load its pipeline"
        used: list[list[str]] = []

        def local(texts: list[str]) -> list[Any]:
            used.append(texts)
            return nlp._pipe(texts)

        docs = worker.parse(TEXTS, local, nlp._decode)
        assert used and 0 < len(used[0]) < len(TEXTS)  # this process parsed only its part
        assert [d.text for d in docs] == TEXTS
        assert [shape(d) for d in docs] == [shape(nlp.pipeline()(t)) for t in TEXTS]
        assert worker.parse(TEXTS[:2], local, nlp._decode) and used[-1] == TEXTS[:2]  # too few to share
        worker._owner = -1  # as a forked child sees it: the pipes are its parent's
        assert len(worker.parse(TEXTS, local, nlp._decode)) == len(TEXTS) and used[-1] == TEXTS
        worker._owner = parse_worker.os.getpid()
        monkeypatch.setattr(parse_worker.os, "getloadavg", lambda: (float(parse_worker.cores()), 0.0, 0.0))
        assert len(worker.parse(TEXTS, local, nlp._decode)) == len(TEXTS) and used[-1] == TEXTS  # busy
    finally:
        worker.stop()
    assert not worker.ready
    worker.stop()  # twice is harmless


def test_a_text_sent_ahead_is_taken_by_its_thread_and_the_pipes_wait_for_it(idle: None) -> None:
    worker = ParseWorker()
    try:
        assert worker.wait_ready(120), "the worker did not load its pipeline"
        question = "What is the name of Odette's dog?"
        assert worker.send_ahead([question])
        assert worker.ahead_for(question) and not worker.ahead_for(TEXTS[0])
        other: list[bool] = []
        thread = threading.Thread(target=lambda: other.append(worker.ahead_for(question)))
        thread.start()
        thread.join()
        assert other == [False]  # another thread's question is not this one's
        used: list[list[str]] = []

        def local(texts: list[str]) -> list[Any]:
            used.append(texts)
            return nlp._pipe(texts)

        assert len(worker.parse(TEXTS, local, nlp._decode)) == len(TEXTS) and used[-1] == TEXTS  # pipes busy
        docs = worker.take_ahead(nlp._decode)
        assert list(docs) == [question] and shape(docs[question]) == shape(nlp.pipeline()(question))
        assert worker.take_ahead(nlp._decode) == {} and not worker.ahead_for(question)
        worker.parse(TEXTS, local, nlp._decode)
        assert len(used[-1]) < len(TEXTS)  # the pipes are free again: the batch is shared
    finally:
        worker.stop()


def test_parsing_ahead_gives_the_reader_the_workers_doc(idle: None, monkeypatch: pytest.MonkeyPatch) -> None:
    worker = ParseWorker()
    monkeypatch.setattr(nlp, "_worker", lambda: worker)
    monkeypatch.setattr(nlp, "_docs", type(nlp._docs)())
    try:
        assert worker.wait_ready(120), "the worker did not load its pipeline"
        first, second = "Where did Odette move in May?", "Who stole the blue Bianchi?"
        with nlp.parsing_ahead(first):
            assert worker.ahead_for(first)
            doc = nlp.parse(first)  # taken from the worker
            assert not worker.ahead_for(first)
        assert shape(doc) == shape(nlp.pipeline()(first)) and nlp.parse(first) is doc
        with nlp.parsing_ahead(second):
            pass  # nothing read it: the block's end keeps it
        assert second in nlp._docs and not worker.ahead_for(second)
        with nlp.parsing_ahead(first):
            assert not worker.ahead_for(first)  # parsed already: nothing sent
    finally:
        worker.stop()


def test_a_worker_that_fails_is_given_up_and_the_batch_parsed_here(idle: None) -> None:
    dies = ParseWorker([sys.executable, "-c", "import sys; sys.exit(3)"])
    garbage = ParseWorker([sys.executable, "-c",
                           "import sys,time; sys.stdout.buffer.write(b'R'); sys.stdout.flush(); "
                           "sys.stdin.buffer.read(8); sys.stdout.buffer.write(b'\\x00\\x00\\x00\\x02no'); "
                           "sys.stdout.flush(); time.sleep(1)"])
    missing = ParseWorker(["/nonexistent/python-for-tkg"])
    try:
        assert not dies.wait_ready(30) and not missing.wait_ready(1)
        assert garbage.wait_ready(30)
        for worker in (dies, garbage, missing):
            docs = worker.parse(TEXTS, nlp._pipe, nlp._decode)
            assert [shape(d) for d in docs] == [shape(nlp.pipeline()(t)) for t in TEXTS]
            assert not worker.ready
            worker.start()  # a failed worker is never started again
            assert worker._proc is None
    finally:
        for worker in (dies, garbage, missing):
            worker.stop()


def test_a_worker_stopped_while_it_loads_ends_at_once() -> None:
    worker = ParseWorker()
    worker.start()
    proc = worker._proc
    assert proc is not None and not worker.ready
    started = time.monotonic()
    worker.stop()
    assert proc.returncode is not None and time.monotonic() - started < 2


def test_turned_off_or_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TKG_PARSE_WORKER", "0")
    assert not parse_worker.enabled()
    monkeypatch.setenv("TKG_PARSE_WORKER", "1")
    assert parse_worker.enabled() == (len(parse_worker.os.sched_getaffinity(0)) >= 2)


def test_frames_and_the_cut() -> None:
    buf = io.BytesIO()
    write_frame(buf, b"hello")
    write_frame(buf, b"")
    buf.seek(0)
    assert read_frame(buf) == b"hello" and read_frame(buf) == b"" and read_frame(buf) is None
    assert read_frame(io.BytesIO(b"\x00\x00\x00\x09short")) is None  # cut off: the end
    assert split_at(["a" * 10] * 4) == 2
    assert split_at(["a" * 100, "b", "c", "d"]) == 1  # the worker takes at least one text
    assert split_at(["a", "b", "c", "d" * 100]) == 3  # and leaves this process at least one
