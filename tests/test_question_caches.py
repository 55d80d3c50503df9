"""What a question keeps between questions answers as the store would, and never hides a write.

A group's turns (procedures/group_turns.py) are read once per write stamp and stand in for five
statements: on both stores the kept rows must be the statements' rows (for that group only), a
new turn, a raw Cypher write and `forget` must show at the next question, and a group over the
cap must read the store. A sentence's spans are kept with its parsed doc (procedures/spans.py),
and a group's exact vector scores run on one BLAS thread (procedures/group_vectors.py): neither
may change what is found. The reader's word lists are kept on disk and read back whole.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_bulk_load import WordHashEmbedder
from test_group_cache import turn

from procedures import group_turns as gt
from procedures import group_vectors as gv
from procedures.group_vectors import GroupVectors
from procedures.spans import spans_of
from tkg import nlp, words
from tkg.group_cache import anchor
from tkg.memory import Memory
from tkg.nlp import parse

LINES = """Ines: I moved to Porto last spring, the flat is tiny.
Tomas: Porto suits you! My sister lives in Valencia now.
Ines: Valencia? I thought she was in Lyon.
Tomas: She left Lyon in May. Her new job is at a bakery."""
TURNS = [(who, text) for who, text in (line.split(": ", 1) for line in LINES.splitlines())]


@pytest.fixture(params=["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def mem(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    if request.param == "neo4j":
        url = os.environ.get("TKG_TEST_NEO4J_URI")
        if not url:
            pytest.skip("TKG_TEST_NEO4J_URI is not set")
    else:
        url = f"kuzu://{tmp_path}/q.kuzu"
    m = Memory.open(url, embedder=WordHashEmbedder())  # type: ignore[arg-type]
    m.made = []  # type: ignore[attr-defined]
    try:
        yield m
    finally:
        for g in m.made:  # type: ignore[attr-defined]
            if m.counts(g).get("episodes"):
                m.forget(g)
        m.close()


def new_group(mem: Memory, turns: list[tuple[str, str]]) -> str:
    g = f"test-qc-{uuid.uuid4().hex[:10]}"
    mem.made.append(g)  # type: ignore[attr-defined]
    mem.ingest_episodes([turn(g, i, who, text) for i, (who, text) in enumerate(turns)])
    return g


def by_uuid(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (str(r.get("needle")), str(r["uuid"])))


def test_kept_turns_are_the_rows_the_statements_return(mem: Memory) -> None:
    g = new_group(mem, TURNS)
    other = new_group(mem, [("Ines", "Porto and Valencia and Lyon, said someone else.")])
    ctx = mem.ctx.asking()
    kept = gt.group_turns(ctx, g)
    assert kept is not None and len(kept) == len(TURNS)
    store = mem.ctx.store
    read = store.named("group.turns", {"group_id": g})  # what the cache holds, in seq order (times as text)
    assert [r["uuid"] for r in kept.rows] == [r["uuid"] for r in read]
    every = store.named("retrieval.turns", {"group_id": g, "uuids": [r["uuid"] for r in read]})
    assert by_uuid(kept.rows) == by_uuid(every)  # times back as the same datetimes
    uuids = [str(r["uuid"]) for r in kept.rows]
    assert [r["seq"] for r in kept.rows] == sorted(r["seq"] for r in kept.rows)
    assert by_uuid(kept.by_uuids(uuids[1:3])) == by_uuid(
        store.named("retrieval.turns", {"group_id": g, "uuids": uuids[1:3]}))
    seqs = [int(kept.rows[0]["seq"]), int(kept.rows[-1]["seq"]), 999]
    assert by_uuid(kept.by_seqs(seqs)) == by_uuid(
        store.named("retrieval.turns_by_seq", {"group_id": g, "seqs": seqs}))
    for terms in (["porto"], ["tomas"], ["lyon", "bakery"], ["nowhere"]):
        want = store.named("graph.turns_with_terms", {"group_id": g, "terms": terms, "limit": 2000})
        assert by_uuid(kept.with_terms(terms, 2000)) == by_uuid(want), terms
    assert len(kept.with_terms(["porto", "lyon"], 2)) == 2
    needles = ["lyon", "porto", "valencia"]
    assert by_uuid(kept.containing(needles)) == by_uuid(
        store.named("graph.turns_containing", {"group_id": g, "needles": needles}))
    assert kept.span() == store.named("temporal.group_span", {"group_id": g})
    mine = set(uuids)
    assert all(r["uuid"] in mine for r in gt.turns_with_terms(ctx, g, ["porto", "lyon", "valencia"], 2000))
    assert [r["turns"] for r in gt.group_span(ctx, other)] == [1]


def test_a_write_shows_at_the_next_question(mem: Memory) -> None:
    g = new_group(mem, TURNS[:2])
    assert gt.turns_with_terms(mem.ctx.asking(), g, ["bakery"], 2000) == []
    mem.ingest_episodes([turn(g, 5, *TURNS[3])])  # a new stamp
    found = gt.turns_with_terms(mem.ctx.asking(), g, ["bakery"], 2000)
    assert [r["text"] for r in found] == [TURNS[3][1]]
    assert gt.group_span(mem.ctx.asking(), g)[0]["turns"] == 3
    mem.cypher("MATCH (e:Episodic) WHERE e.group_id = $g AND e.content CONTAINS 'bakery' "
               "SET e.content = 'She left Lyon in May. Her new job is at a florist.'", {"g": g}, write=True)
    assert gt.turns_with_terms(mem.ctx.asking(), g, ["bakery"], 2000) == []
    assert len(gt.turns_containing(mem.ctx.asking(), g, ["florist"])) == 1
    mem.forget(g)
    assert gt.turns_with_terms(mem.ctx.asking(), g, ["porto"], 2000) == []
    assert gt.group_span(mem.ctx.asking(), g)[0]["turns"] == 0


def test_a_group_over_the_cap_reads_the_store(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    g = new_group(mem, TURNS)
    ctx = mem.ctx.asking()
    kept = gt.group_turns(ctx, g)
    assert kept is not None
    monkeypatch.setattr(gt, "TURNS_MAX", len(TURNS) - 1)
    assert gt.group_turns(ctx, g) is None
    assert by_uuid(gt.turns_with_terms(ctx, g, ["porto"], 2000)) == by_uuid(kept.with_terms(["porto"], 2000))
    assert gt.group_span(ctx, g) == kept.span()


def test_kept_spans_are_the_spans_found_afresh() -> None:
    doc = parse("My sister Marta moved to Valencia in May. She works as a junior designer at Lumen Studio.")
    kinds = ("place", "person", "organisation", "role", "date")

    def all_spans() -> dict[tuple[int, str], list[Any]]:
        return {(i, kind): spans_of(sent, kind, "") for i, sent in enumerate(doc.sents) for kind in kinds}

    for spans in all_spans().values():
        spans.clear()  # a caller changing its list changes nothing kept
    kept = all_spans()
    assert any(key[0] == "tkg.spans" for key in doc.user_data)
    doc.user_data.clear()
    assert kept == all_spans()
    assert "Valencia" in [s.text for s in kept[(0, "place")]]


def test_exact_scores_on_one_blas_thread_are_the_plain_product() -> None:
    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((3000, 384)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    rows = [{"uuid": f"u{i:05d}", "kind": "turn"} for i in range(len(matrix))]
    query = rng.standard_normal(384).astype(np.float32)
    scores = GroupVectors(rows, matrix).scores(query.tolist())
    assert np.array_equal(scores, matrix @ (query / np.float32(np.linalg.norm(query))))


def test_word_lists_kept_on_disk_are_the_lists_made_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TKG_CACHE_DIR", str(tmp_path))
    made: list[str] = []

    def make_places() -> frozenset[str]:
        made.append("places")
        return words._read_places()

    def make_english() -> frozenset[str]:
        made.append("english")
        return words._read_english_words()

    places = nlp.kept_words("places-test", make_places)  # made, then written
    english = nlp.kept_words("english-test", make_english)
    assert nlp.kept_words("places-test", make_places) == places and "porto" in places  # read back
    assert nlp.kept_words("english-test", make_english) == english and "deal" in english
    assert made == ["places", "english"]
    kept = sorted(p.name.rsplit("-", 1)[0] for p in (tmp_path / "nlp").iterdir())
    assert kept == ["english-test", "places-test"]

    def other_rule() -> frozenset[str]:  # a changed rule under the same name never reads the old list
        return frozenset({"elsewhere"})

    assert nlp.kept_words("places-test", other_rule) == {"elsewhere"}
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache directory would be")
    monkeypatch.setenv("TKG_CACHE_DIR", str(blocked))
    assert nlp.kept_words("places-test", lambda: frozenset({"porto"})) == {"porto"}  # unwritable: made


def _reads(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the statements the store runs from now on."""
    seen: list[str] = []
    named = mem.ctx.store.named

    def counted(name: str, params: Any = None) -> Any:
        seen.append(name)
        return named(name, params)

    monkeypatch.setattr(mem.ctx.store, "named", counted)
    return seen


def test_a_first_vector_read_is_one_statement_and_a_later_one_fetches_the_new_rows(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group's first read of its vectors is `retrieval.group_vectors` alone (no list of ids,
    a table scan of its own on Kuzu); after a write only the new rows come; both give the rows
    and the matrix a read from nothing gives."""
    g = new_group(mem, TURNS[:2])
    mem.ctx.cache.forget(g)  # as in a process that did not write the group (tests/test_written_vectors.py)
    seen = _reads(mem, monkeypatch)
    first = gv.group_vectors(mem.ctx.asking(), g)
    assert first is not None and len(first) >= 2
    assert "retrieval.group_vectors" in seen and "retrieval.group_vector_ids" not in seen
    mem.ingest_episodes([turn(g, 5, *TURNS[3])])  # a new stamp
    anchor(mem.ctx.store, g, [])  # and another, by someone else: what this process wrote must be read
    seen.clear()
    later = gv.group_vectors(mem.ctx.asking(), g)
    assert later is not None and len(later) > len(first)
    assert "retrieval.group_vector_ids" in seen and "retrieval.group_vectors" not in seen
    mem.ctx.cache.forget(g)
    afresh = gv.group_vectors(mem.ctx.asking(), g)
    assert afresh is not None and [r["uuid"] for r in afresh.rows] == [r["uuid"] for r in later.rows]
    assert afresh.rows == later.rows and np.array_equal(afresh.matrix, later.matrix)


def test_a_group_with_more_turns_than_the_vector_cap_is_not_read(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = new_group(mem, TURNS)
    monkeypatch.setattr(gv, "EXACT_MAX", len(TURNS) - 1)
    seen = _reads(mem, monkeypatch)
    assert gv.group_vectors(mem.ctx.asking(), g) is None  # the index serves it
    assert not {"retrieval.group_vectors", "retrieval.group_vector_ids"} & set(seen)
