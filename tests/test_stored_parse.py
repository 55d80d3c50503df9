"""Ingest keeps each turn's parse (``Episodic.parse``); a question reads it back instead of parsing.

On both stores: every ingested turn holds its parse, which reads back as the doc a fresh parse makes;
reading a group's turns offers those parses, and the reader then parses none of them; a turn without
one (a store written before the column, a few turns ingested by a process without the parser loaded,
or ``TKG_KEEP_PARSES=0``) is parsed as before.
The conversation is our own.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from procedures.group_turns import group_turns
from tkg import nlp, stored_parse
from tkg.errors import ConfigError
from tkg.ingest import pipeline as pipeline_module
from tkg.memory import Memory
from tkg.spacy_import import import_spacy

TURNS = [
    ("Ines", "I finally moved to Porto last week, the flat near Bolhão is tiny but bright."),
    ("Tomas", "Nice! Are you still at Lumen Studio or did the Aveiro offer come through?"),
    ("Ines", "I took the Aveiro job in the end. My manager there is Carla Reis."),
    ("Tomas", "Our dog Pimenta hates the new car, we sold the old Corolla in May."),
]


def shape(doc: Any) -> list[tuple[Any, ...]]:
    """What the reader reads of a doc: tokens, tags, lemmas, the parse, sentences and entities."""
    return [(t.text, t.whitespace_, t.tag_, t.pos_, t.lemma_, t.dep_, t.head.i, t.ent_type_, t.ent_iob_,
             t.is_sent_start, str(t.morph)) for t in doc]


@pytest.fixture
def group(mem: Memory) -> Iterator[str]:
    name = f"parse-{uuid.uuid4().hex[:8]}"
    nlp.pipeline()  # loaded: a process that has the parser keeps the parses of however few turns
    mem.ingest_records([{"speaker": s, "text": t, "timestamp": f"2025-03-0{i + 1}T10:00:00Z"}
                        for i, (s, t) in enumerate(TURNS)], group=name)
    yield name
    mem.forget(name)


def _stored(mem: Memory, group: str) -> dict[str, Any]:
    rows = mem.ctx.store.read("MATCH (e:Episodic) WHERE e.group_id = $g RETURN e.content AS text, "
                              "e.parse AS parse", {"g": group})
    return {r["text"]: r["parse"] for r in rows}


def test_ingest_keeps_every_turns_parse_as_a_fresh_parse_makes_it(mem: Memory, group: str) -> None:
    stored = _stored(mem, group)
    assert set(stored) == {t for _, t in TURNS}
    for text, kept in stored.items():
        assert kept.startswith(f"tkgparse/{nlp.PIPELINE_ID}\n")
        stored_parse.forget_offers()
        assert stored_parse.offer([(text, kept)], nlp.PIPELINE_ID) == 1
        data = stored_parse.offered(text)
        assert data is not None
        assert shape(nlp._decode(data)[0]) == shape(nlp.pipeline()(text))


def test_a_question_reads_the_kept_parses_and_parses_no_turn(
    mem: Memory, group: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [t for _, t in TURNS]
    stored_parse.forget_offers()
    monkeypatch.setattr(nlp, "_docs", type(nlp._docs)())  # nothing parsed yet in this process
    batches: list[list[str]] = []
    real = nlp._parse_batch
    monkeypatch.setattr(nlp, "_parse_batch", lambda batch: batches.append(list(batch)) or real(batch))
    mem.ctx.cache.forget(group)
    assert group_turns(mem.ctx, group) is not None  # reading the group's turns offers their parses
    assert all(stored_parse.offered(t) is not None for t in texts)
    answer = mem.ask("Where does Ines live now?", group=group)
    assert "Porto" in answer.answer
    docs = nlp.parse_many(texts)
    assert not {t for batch in batches for t in batch} & set(texts)
    assert [shape(d) for d in docs] == [shape(nlp.pipeline()(t)) for t in texts]


def test_a_turn_kept_without_a_parse_is_parsed_when_read(
    mem: Memory, group: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with mem.ctx.store.transaction() as tx:
        tx.run("MATCH (e:Episodic) WHERE e.group_id = $g SET e.parse = ''", {"g": group})
    stored_parse.forget_offers()
    monkeypatch.setattr(nlp, "_docs", type(nlp._docs)())
    mem.ctx.cache.forget(group)
    assert group_turns(mem.ctx, group) is not None
    assert all(stored_parse.offered(t) is None for _, t in TURNS)
    assert "Porto" in mem.ask("Where does Ines live now?", group=group).answer


def test_without_the_offline_reader_ingest_keeps_no_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(texts: list[str]) -> list[Any]:
        raise ConfigError("the offline reader needs spaCy")

    monkeypatch.setattr(nlp, "_parse_batch", missing)
    assert nlp.stored_parses(["Moved to Porto.", "lol"]) == [None, None]
    assert nlp.stored_parses([]) == []


def test_a_process_without_the_parser_loads_it_only_for_a_large_ingest(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline_module, "reader_loaded", lambda: False)
    turns = [{"speaker": s, "text": t, "timestamp": f"2025-03-0{i + 1}T10:00:00Z"}
             for i, (s, t) in enumerate(TURNS)]
    few, many = f"few-{uuid.uuid4().hex[:8]}", f"many-{uuid.uuid4().hex[:8]}"
    try:
        mem.ingest_records(turns, group=few)  # fewer than PARSE_LOAD_MIN: parsed when a question reads them
        assert set(_stored(mem, few).values()) <= {None, ""}
        monkeypatch.setattr(pipeline_module, "PARSE_LOAD_MIN", len(turns))
        mem.ingest_records(turns, group=many)
        assert all(p and p.startswith("tkgparse/") for p in _stored(mem, many).values())
    finally:
        mem.forget(few)
        mem.forget(many)


def test_keep_parses_off_ingests_turns_without_one(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TKG_KEEP_PARSES", "0")
    name = f"noparse-{uuid.uuid4().hex[:8]}"
    turn = {"speaker": "Ines", "text": TURNS[0][1], "timestamp": "2025-03-01T10:00:00Z"}
    mem.ingest_records([turn], group=name)
    try:
        assert set(_stored(mem, name).values()) <= {None, ""}
        assert "Porto" in mem.ask("Where does Ines live now?", group=name).answer
    finally:
        mem.forget(name)


def test_the_codec_writes_and_reads_what_spacys_docbin_does() -> None:
    doc_bin = import_spacy().tokens.DocBin
    vocab = nlp.pipeline().vocab
    texts = [t for _, t in TURNS] + ["", "👍 lol!!", "Dr. A.J. Burke met Lena in São Paulo on 3/4/2023."]
    docs = [nlp.pipeline()(t) for t in texts]
    for doc in docs:
        ours = stored_parse.doc_bytes(doc_bin, doc)
        assert ours == doc_bin(docs=[doc]).to_bytes()  # the same bytes, so spaCy reads them too
        assert shape(stored_parse.doc_from_bytes(doc_bin, vocab, ours)[0]) == shape(doc)
    several = stored_parse.doc_from_bytes(doc_bin, vocab, doc_bin(docs=docs).to_bytes())  # the worker's
    assert [shape(d) for d in several] == [shape(d) for d in docs]
