"""A small group's full text scored in memory (procedures/group_text.py) against the store's index.

On a Kuzu store that holds one group, BM25 in memory must give Kuzu's own scores, row for row: the
analysis (tkg/fts.py: ignore pattern, stop words, Snowball stems) and the formula are checked
together against ``QUERY_FTS_INDEX`` through the real ``retrieval.text`` op. Turns here are ours.
On Neo4j the same in-memory path serves small groups, so both stores rank a group's full text alike.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from reliability.common import track
from spacy.lang.en.stop_words import STOP_WORDS as SPACY_STOP_WORDS

from planners.payloads import default_payloads
from procedures.fusion import Tuning
from procedures.group_text import group_text, text_scores
from procedures.group_vectors import group_vectors
from procedures.retrieval import retrieve
from tkg.fts import doc_terms, query_terms, stop_words
from tkg.memory import Memory
from tkg.models import EpisodeInput

START = datetime(2024, 2, 1, 9, 0, tzinfo=UTC)
CONVERSATION = """
Ines: We painted the garden shed a pale green on Saturday.
Tomasz: Painting sheds is my least favourite chore, honestly.
Ines: Our neighbour's dog barked at the painters all morning!!
Tomasz: I'm learning the cello; lesson #3 was on 12/02 at 5pm.
Ines: The café on Rua Augusta does the best pastéis de nata.
Tomasz: My sister-in-law moved to Gdańsk: she loves the shipyards.
Ines: Gardening, painting, cooking: weekends go so fast.
Tomasz: The cello teacher says I should practise scales daily.
"""
TURNS = [(who, text) for who, text in (line.split(": ", 1) for line in CONVERSATION.strip().splitlines())]
QUERIES = ["painting shed", "cello lesson scales", "sister law gdańsk", "café nata", "dog painters garden",
           "tomasz cello", "weekends fast cooking", "zeppelin"]


def one_group_store(tmp: Path, turns: list[tuple[str, str]]) -> Memory:
    mem = Memory.open(f"kuzu://{tmp}/one.kuzu")
    mem.ingest_episodes([EpisodeInput("solo", who, text, START + timedelta(minutes=i), f"t{i}")
                         for i, (who, text) in enumerate(turns)])
    return mem


def store_scores(mem: Memory, query: str, k1: float, b: float) -> dict[str, float]:
    rows = mem.ctx.store.named("retrieval.text", {"group_id": "solo", "text": query, "bm25_k1": k1,
                                                  "bm25_b": b, "k_fetch": 1000, "efs": 1000})
    return {str(r["uuid"]): float(r["score"]) for r in (rows[0]["hits"] or [])}


def memory_scores(mem: Memory, query: str, k1: float, b: float) -> dict[str, float]:
    index = group_text(mem.ctx, "solo")
    kept = mem.ctx.cache.latest("solo", "vectors")
    assert index is not None and kept is not None
    scores = text_scores(index, query, k1=k1, b=b)
    return {str(r["uuid"]): float(s) for r, s in zip(kept.rows, scores, strict=True) if s > 0}


@pytest.mark.parametrize(("k1", "b"), [(1.2, 0.2), (1.2, 0.75), (2.0, 1.0)])
def test_scores_in_memory_are_kuzus_on_a_store_of_one_group(tmp_path: Path, k1: float, b: float) -> None:
    with one_group_store(tmp_path, TURNS) as mem:
        for query in QUERIES:
            kuzu, ours = store_scores(mem, query, k1, b), memory_scores(mem, query, k1, b)
            assert kuzu.keys() == ours.keys(), query
            assert all(ours[u] == pytest.approx(s, rel=1e-6) for u, s in kuzu.items()), query
        assert not memory_scores(mem, "zeppelin", k1, b)  # no row has the word: no hit at all


def test_the_stop_words_are_the_ones_kuzu_drops(tmp_path: Path) -> None:
    """A turn per initial letter holds a rare word and every stop word of that letter, ours and
    spaCy's (words Kuzu might drop that the list left out): with b = 1 a row's score falls with its
    length, so a word dropped on one side only shows."""
    by_letter: dict[str, list[str]] = defaultdict(list)
    for word in sorted(stop_words() | {w for w in SPACY_STOP_WORDS if w.isalpha() and w.isascii()}):
        by_letter[word[0]].append(word)
    turns = [("Ines", f"quokka {' '.join(words)} {letter}xylophone") for letter, words in by_letter.items()]
    turns.append(("Tomasz", "A quokka smiled near the xylophone shop."))
    with one_group_store(tmp_path, turns) as mem:
        kuzu, ours = store_scores(mem, "quokka", 1.2, 1.0), memory_scores(mem, "quokka", 1.2, 1.0)
    assert len(kuzu) >= len(turns) and kuzu.keys() == ours.keys()
    assert all(ours[u] == pytest.approx(s, rel=1e-6) for u, s in kuzu.items())


def test_the_analysis_of_a_text() -> None:
    assert doc_terms("Ines: I'm re-painting 3 sheds (12/02)!") == ["ine", "paint", "shed"]
    assert doc_terms("moved to\nPorto\tyesterday") == ["move", "porto", "yesterday"]  # any white space
    assert doc_terms("the and of it") == []
    assert query_terms("sheds shed SHED 2024 the") == ["shed", "the"]  # a query keeps its stop words
    assert doc_terms("Zoë’s café") == query_terms("zoë’s café")  # curly quotes and accents kept alike


def test_the_retrieval_ranks_alike_in_memory_and_through_the_index(tmp_path: Path) -> None:
    """The whole full-text path of `retrieve` (lists, filters, fusion) gives the same turns either way."""
    payload = replace(default_payloads().for_mode("single_fact"), fusion="bm25", neighbours=0)
    with one_group_store(tmp_path, TURNS) as mem:
        for question in ["Who painted the shed?", "When was the cello lesson?", "Where is the sister?"]:
            kept = retrieve(mem.ctx, question, "solo", payload)
            index = retrieve(mem.ctx, question, "solo", payload, tuning=Tuning(exact_text=False))
            assert kept.trace["exact"]["retrieval.text"] >= len(TURNS)
            assert "retrieval.text" not in index.trace.get("exact", {})
            assert [h.source_ref for h in kept.hits] == [h.source_ref for h in index.hits], question
            assert [round(h.score, 6) for h in kept.hits] == [round(h.score, 6) for h in index.hits]


def test_the_group_text_follows_writes_and_reuses_what_it_analysed(mem: Memory) -> None:
    """On each store: stemmed words find a small group's turns in memory; after a write the index
    holds the new turn and reuses the terms of the rows it had."""
    group = f"gtext-{uuid.uuid4().hex[:8]}"
    track(mem, group)
    mem.ingest_episodes([EpisodeInput(group, "Ines", "We painted the shed green.", START, "g1")])
    payload = replace(default_payloads().for_mode("single_fact"), fusion="bm25", neighbours=0)
    first = retrieve(mem.ctx, "Who was painting?", group, payload)
    assert first.trace["exact"]["retrieval.text"] >= 1 and [h.source_ref for h in first.hits] == ["g1"]
    held = mem.ctx.cache.latest(group, "text")
    mem.ingest_episodes([EpisodeInput(group, "Tomasz", "The cellist paints too.", START + timedelta(days=1),
                                      "g2")])
    after = retrieve(mem.ctx, "Who was painting?", group, payload)
    assert {h.source_ref for h in after.hits} == {"g1", "g2"}
    now = mem.ctx.cache.latest(group, "text")
    assert len(now) > len(held) and all(now.terms[u] is terms for u, terms in held.terms.items())


def test_the_text_index_scores_the_rows_the_question_holds(tmp_path: Path) -> None:
    """Two questions that read a group's vectors across a write (the group cache builds outside its
    lock, so each may hold its own rows under one stamp) each get a text index over their own rows,
    position for position, so the text and vector scores of a row never come apart."""
    with one_group_store(tmp_path, TURNS) as mem:
        held = group_vectors(mem.ctx, "solo")
        assert held is not None and group_text(mem.ctx, "solo", held) is not None
        fewer = replace(held, rows=held.rows[2:], matrix=held.matrix[2:])  # what a racing reader held
        index = group_text(mem.ctx, "solo", fewer)
        assert index is not None and index.source is fewer.rows and len(index) == len(fewer.rows)
        scores = text_scores(index, "cello lesson", k1=1.2, b=0.75)
        assert scores.shape == (len(fewer.rows),) and scores.max() > 0
        again = group_text(mem.ctx, "solo", held)
        assert again is not None and again.source is held.rows  # the kept index still serves the kept rows


def test_kept_rows_carry_the_turns_times_to_the_microsecond(mem: Memory) -> None:
    """The group's rows come from the store with times as ISO text (a string reads far faster than a
    datetime over Bolt) and are kept as the same aware UTC datetimes on both stores."""
    group = f"gtime-{uuid.uuid4().hex[:8]}"
    track(mem, group)
    said = datetime(1969, 7, 20, 20, 17, 40, 123456, tzinfo=UTC)
    mem.ingest_episodes([EpisodeInput(group, "Ines", "We saw the landing. Tomorrow we fly home.", said, "m1"),
                         EpisodeInput(group, "Tomasz", "Fine by me.", START, "m2")])
    kept = group_vectors(mem.ctx, group)
    assert kept is not None and {r["kind"] for r in kept.rows} >= {"turn", "sentence"}
    assert {r["valid_at"] for r in kept.rows if r["source_ref"] == "m1"} == {said}
    assert {r["valid_at"] for r in kept.rows if r["source_ref"] == "m2"} == {START}
    spans = [(r["time_start"], r["time_end"]) for r in kept.rows if r["time_start"] is not None]
    assert spans and all(a.tzinfo == UTC and b.tzinfo == UTC and a < b for a, b in spans)  # "tomorrow"
