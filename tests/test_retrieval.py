"""Direct retrieval and lookup on each store: every index contributes, fusion orders turns,
neighbours join, user syntax never reaches an engine, groups stay apart, over-fetch adapts.

`harbour.jsonl` (ours: Ines and Tomasz, 30 turns in three sessions) is ingested once per
backend under fresh groups: ``main``; ``other`` (the same conversation plus one turn about a
zeppelin, for isolation); ``noise`` (60 short turns that all say "kayaking", so a shared index
fills up with another tenant's rows before it reaches ``main``'s one kayaking turn). Queries
use words as written: Neo4j's default full-text analyzer does not stem, Kuzu's does.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from reliability.common import track

from planners.payloads import Payload, default_payloads
from planners.query_text import declarative, names_in, parse_question, plain_query
from procedures.fusion import Candidate, Tuning, best_per_turn, calibrate, fuse
from procedures.lookup import best_sentence, lookup
from procedures.result import ProcedureResult, evidence_from_hits
from procedures.retrieval import Hit, Retrieval, retrieve
from procedures.search import forget_shares
from procedures.slots import question_in
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, EpisodeInput

DATA = Path(__file__).parent / "data" / "retrieval"
NOISE_TURNS = 60


@dataclass
class World:
    mem: Memory
    main: str
    other: str
    noise: str


@pytest.fixture(scope="module")
def w(mem: Memory) -> World:
    tag = uuid.uuid4().hex[:10]
    world = World(mem, f"retr-main-{tag}", f"retr-other-{tag}", f"retr-noise-{tag}")
    track(mem, world.main, world.other, world.noise)
    start = datetime(2023, 1, 1, tzinfo=UTC)
    noise = [EpisodeInput(world.noise, "Rui", "Kayaking, kayaking.", start + timedelta(minutes=i), f"k{i}")
             for i in range(NOISE_TURNS)]
    zeppelin = EpisodeInput(world.other, "Ines", "I saw a zeppelin over the river today.",
                            datetime(2023, 7, 3, 9, 0, tzinfo=UTC), "z1", session="s4")
    mem.ingest(DATA / "harbour.jsonl", group=world.main)
    mem.ingest(DATA / "harbour.jsonl", group=world.other)
    mem.ingest_episodes([zeppelin, *noise])
    if mem.ctx.store.shared:  # a server's full-text indexes refresh asynchronously
        mem.ctx.store.run("CALL db.awaitIndexes(60)")
    return world


def lookup_payload(**changes: object) -> Payload:
    return replace(default_payloads().for_mode("single_fact"), **changes)  # type: ignore[arg-type]


def only(index: str, fusion: str, **changes: object) -> Payload:
    """A payload searching one index one way, e.g. only("sentence", "bm25")."""
    return lookup_payload(
        **{"indexes": (index,), "weights": ((index, 1.0),), "fusion": fusion, "neighbours": 0, **changes}
    )


def refs(r: Retrieval) -> list[str | None]:
    return [h.source_ref for h in r.hits]


# --- each index ------------------------------------------------------------------------------------


def test_turn_full_text_finds_the_turn_with_the_rare_words(w: World) -> None:
    r = retrieve(w.mem.ctx, "Where is the pottery studio?", w.main, only("chunk", "bm25"))
    assert refs(r)[0] == "h3" and r.hits[0].via == ("chunk_text",)
    assert r.hits[0].text.startswith("Good. I spent the weekend") and r.hits[0].speaker == "Ines"
    assert r.counts["chunk_text"] >= 1 and "chunk_vector" not in r.counts


def test_sentence_full_text_matches_the_sentence_not_the_whole_turn(w: World) -> None:
    r = retrieve(w.mem.ctx, "What colour is the glaze?", w.main, only("sentence", "bm25"))
    assert refs(r)[0] == "h3"
    assert r.hits[0].matched == "The glaze is a deep sea green."
    # every sentence the index returned really contains a query word (the index is per sentence)
    for hit in r.hits:
        assert {"glaze", "colour"} & set(re.findall(r"\w+", hit.matched.lower()))


def test_vector_lists_find_a_paraphrase_with_no_shared_word(w: World) -> None:
    r = retrieve(w.mem.ctx, "Which musical instrument is Tomasz learning?", w.main, only("chunk", "dense"))
    assert "h8" in refs(r)[:3] and all(h.via == ("chunk_vector",) for h in r.hits)
    s = retrieve(w.mem.ctx, "Which musical instrument is Tomasz learning?", w.main, only("sentence", "dense"))
    assert all(h.via == ("sentence_vector",) and h.matched for h in s.hits)


def test_fact_lists_map_each_fact_back_to_the_turn_that_said_it(w: World) -> None:
    facts = retrieve(w.mem.ctx, "Ines work Maré Design", w.main, only("fact", "bm25")).facts
    assert facts, "the extractor should have found where Ines works"
    for fusion in ("bm25", "dense"):
        r = retrieve(w.mem.ctx, facts[0].fact, w.main, only("fact", fusion))
        hit = next(h for h in r.hits if h.fact_uuid == facts[0].uuid)
        assert hit.episode_uuid in facts[0].episodes and hit.matched == facts[0].fact
        assert hit.via == (f"fact_{'text' if fusion == 'bm25' else 'vector'}",)


def test_the_default_payload_queries_all_six_lists(w: World) -> None:
    r = retrieve(w.mem.ctx, "Where does Ines work now?", w.main, lookup_payload())
    assert {
        "chunk_text", "chunk_vector", "sentence_text", "sentence_vector", "fact_text", "fact_vector",
    } <= set(r.counts)
    assert all(r.counts[n] > 0 for n in ("chunk_text", "chunk_vector", "sentence_vector", "fact_vector"))
    assert "h16" in refs(r)[:3]
    assert len(r.hits) <= lookup_payload().depth and len({h.episode_uuid for h in r.hits}) == len(r.hits)
    assert set(r.timings_ms) >= {"embed", "text", "vector", "fusion", "turns", "total"}


# --- fusion ----------------------------------------------------------------------------------------


def test_rrf_puts_a_turn_both_lists_found_above_turns_one_list_found() -> None:
    text = [Candidate("a", 9.0), Candidate("b", 8.0), Candidate("c", 7.0)]
    vector = [Candidate("d", 0.9), Candidate("c", 0.5)]
    fused = fuse({"t": text, "v": vector}, {"t": 1.0, "v": 1.0}, "rrf")
    assert [f.episode_uuid for f in fused] == ["c", "a", "d", "b"]
    assert fused[0].via == ["v", "t"] and fused[0].score == pytest.approx(
        1 / 63 + 1 / 62
    )  # heavier part first
    heavy = fuse({"t": text, "v": vector}, {"t": 1.0, "v": 3.0}, "rrf")
    assert [f.episode_uuid for f in heavy][:2] == ["c", "d"]  # d's 3x weight now beats a and b


def test_score_fusion_keeps_the_margin_rrf_throws_away() -> None:
    # "a" leads the text list by a mile and is close behind in the vector list.
    text = [
        Candidate("a", 30.0),
        Candidate("b", 5.0),
        Candidate("c", 4.9),
        Candidate("d", 4.8),
        Candidate("e", 4.7),
    ]
    vector = [
        Candidate("c", 0.62),
        Candidate("b", 0.61),
        Candidate("d", 0.605),
        Candidate("a", 0.60),
        Candidate("e", 0.39),
    ]
    lists, weights = {"t": text, "v": vector}, {"t": 1.0, "v": 1.0}
    assert fuse(lists, weights, "score")[0].episode_uuid == "a"
    assert fuse(lists, weights, "rrf")[0].episode_uuid != "a"
    for normaliser in ("z", "minmax"):
        fused = fuse(lists, weights, "score", normaliser=normaliser)
        assert all(f.score >= 0 for f in fused)


def test_calibration_and_best_entry_per_turn() -> None:
    assert calibrate([3.0, 2.0, 1.0]) == pytest.approx([1.5 * 2**0.5 * 3**0.5 / 1.5, 1.224745, 0.0], rel=1e-5)
    assert calibrate([3.0, 2.0, 1.0], "minmax") == [1.0, 0.5, 0.0]
    assert calibrate([0.4]) == [1.0] and calibrate([]) == []
    ranked = best_per_turn([Candidate("a", 1.0, "s1"), Candidate("b", 3.0), Candidate("a", 2.0, "s2")])
    assert [(c.episode_uuid, c.matched) for c in ranked] == [("b", ""), ("a", "s2")]


def test_fusion_names_what_matched_from_the_heaviest_list() -> None:
    lists = {"sentence_text": [Candidate("a", 2.0, "It rains.")],
             "fact_text": [Candidate("a", 5.0, "Ines lives in Porto", "f1"), Candidate("b", 1.0, "x", "f2")]}
    fused = fuse(lists, {"sentence_text": 1.0, "fact_text": 2.0}, "rrf")
    assert fused[0].matched == "Ines lives in Porto" and fused[0].fact_uuid == "f1"


# --- neighbours ------------------------------------------------------------------------------------


def test_neighbours_bring_in_the_reply_with_a_decayed_score(w: World) -> None:
    question = "What did Tomasz ask about baking for the harbour fair?"
    alone = retrieve(w.mem.ctx, question, w.main, only("chunk", "bm25"))
    assert refs(alone)[0] == "h6" and "h7" not in refs(alone)  # the reply shares no word
    tune = Tuning(neighbour_decay=0.5)
    r = retrieve(w.mem.ctx, question, w.main, only("chunk", "bm25", neighbours=1), tuning=tune)
    reply = next(h for h in r.hits if h.source_ref == "h7")
    assert reply.via == ("neighbour",) and reply.score == pytest.approx(r.hits[0].score * 0.5)
    assert r.counts["neighbour"] >= 1


def test_neighbours_stay_inside_the_session(w: World) -> None:
    r = retrieve(w.mem.ctx, "Bach partita sight-reading", w.main, only("chunk", "bm25", neighbours=1))
    assert refs(r)[0] == "h10" and "h9" in refs(r)
    assert "h11" not in refs(r)  # the next turn, but in the next session


# --- sanitising ------------------------------------------------------------------------------------

NASTY = [
    'pottery" AND {vase} OR (glaze~2)',
    "title:pottery^3 [a TO z] +vase -storm",
    "pottery\\ vase/ * ? ! && || studio:",
    "((((pottery))))))",
    "'pottery' `vase` <studio> ;DROP TABLE x; --",
    "Ines’s pottery studio\u00a0\u200b🎨?",
]


@pytest.mark.parametrize("question", NASTY)
def test_query_syntax_never_reaches_the_engine(w: World, question: str) -> None:
    assert re.fullmatch(r"[^\W_]+( [^\W_]+)*", plain_query(question))
    r = retrieve(w.mem.ctx, question, w.main, lookup_payload(fusion="bm25"))
    assert "h3" in refs(r)


@pytest.mark.parametrize("question", ['"', "AND OR NOT", "*", "?", "((", "", "   ", "\\", "What is it?"])
def test_questions_without_content_words_search_dense_only(w: World, question: str) -> None:
    assert plain_query(question) == "" and parse_question(question).fts == ""
    r = retrieve(w.mem.ctx, question, w.main, lookup_payload())
    assert "no words for full text: dense lists only" in r.trace["fallbacks"]
    assert "chunk_text" not in r.counts and all("_text" not in v for h in r.hits for v in h.via)
    assert retrieve(w.mem.ctx, question, w.main, lookup_payload(fusion="bm25")).hits == []


def test_question_parsing() -> None:
    q = parse_question("When did Caroline's sister go to the LGBTQ support group?")
    assert q.words == ("caroline", "sister", "go", "lgbtq", "support", "group")
    assert q.dense.startswith("Caroline's sister go to") and q.names == ("Caroline", "LGBTQ")
    assert declarative("What kind of car does Jon drive?") == "car does Jon drive"
    assert names_in("Did Melanie meet Jon?") == ("Melanie", "Jon")


# --- groups and over-fetch ---------------------------------------------------------------------------


def test_groups_never_see_each_others_turns(w: World) -> None:
    theirs = retrieve(w.mem.ctx, "zeppelin over the river", w.other, lookup_payload())
    assert "z1" in refs(theirs)[:3]
    mine = retrieve(w.mem.ctx, "zeppelin over the river", w.main, lookup_payload())
    assert "z1" not in refs(mine) and all("zeppelin" not in h.text for h in mine.hits)
    other_uuids = {h.episode_uuid for h in theirs.hits}
    assert not other_uuids & {h.episode_uuid for h in mine.hits}  # same text, different turns


def test_over_fetch_grows_until_the_group_has_rows(w: World) -> None:
    payload = only("chunk", "bm25")  # the store's index (a small group's full text is scored in memory)
    tight = Tuning(per_list=2, k_fetch_factor=1, learn_share=False, exact_text=False)
    r = retrieve(w.mem.ctx, "kayaking", w.main, payload, tuning=tight)
    assert refs(r)[:1] == ["h21"]
    assert r.trace["retries"]["retrieval.text"]["retries"] >= 1
    assert r.trace["retries"]["retrieval.text"]["k_fetch"] > 2
    no_retry = retrieve(w.mem.ctx, "kayaking", w.main, payload, tuning=replace(tight, max_retries=0))
    assert no_retry.hits == []  # the other tenant's rows filled the first fetch
    capped = retrieve(w.mem.ctx, "kayaking", w.main, payload, tuning=replace(tight, k_fetch_max=8))
    assert capped.hits == [] and capped.trace["retries"]["retrieval.text"]["k_fetch"] == 8


def test_the_first_fetch_learns_the_groups_share(w: World) -> None:
    payload = only("chunk", "bm25")
    learn = Tuning(per_list=2, k_fetch_factor=1, learn_share=True, exact_text=False)
    forget_shares()  # what earlier tests' searches in this group taught it
    first = retrieve(w.mem.ctx, "kayaking", w.main, payload, tuning=learn)
    second = retrieve(w.mem.ctx, "kayaking", w.main, payload, tuning=learn)
    assert refs(first)[:1] == refs(second)[:1] == ["h21"]
    assert first.trace["retries"]["retrieval.text"]["retries"] >= 1
    assert "retrieval.text" not in second.trace["retries"]  # started big enough


def test_no_retry_when_the_index_has_nothing_more(w: World) -> None:
    tune = Tuning(per_list=5, k_fetch_factor=8, exact_text=False)
    r = retrieve(w.mem.ctx, "octopus", w.main, only("chunk", "bm25"), tuning=tune)
    assert refs(r) == ["h23"] and r.trace["retries"] == {}


def test_a_small_group_is_scored_exactly_in_memory(w: World) -> None:
    """The exact per-group path (procedures/group_vectors.py) ranks every row of the group, best
    first; another tenant's rows never come back. (On this shared store Kuzu's approximate index
    returned none of ``main``'s rows for this question: the reason the path exists.)"""
    payload = only("chunk", "dense")
    exact = retrieve(w.mem.ctx, "a boat trip on the sea", w.main, payload)
    assert exact.trace["exact"]["retrieval.vector"] >= 30  # every turn and sentence of the group
    assert exact.hits and all(a.score >= b.score for a, b in zip(exact.hits, exact.hits[1:], strict=False))
    noise = retrieve(w.mem.ctx, "kayaking", w.noise, payload)
    assert noise.hits and {h.source_ref for h in noise.hits} <= {f"k{i}" for i in range(NOISE_TURNS)}


def test_exact_scores_are_the_index_cosines(tmp_path: Path) -> None:
    """On a store holding one small group, the index finds every row: both paths agree."""
    start = datetime(2023, 1, 1, tzinfo=UTC)
    texts = ["We sailed to the island at dawn.", "My sister bakes sourdough on Sundays.",
             "The ferry was cancelled because of the storm.", "I started violin lessons last month.",
             "Our boat trip along the coast was lovely.", "The bakery on the corner closed."]
    with Memory.open(f"kuzu://{tmp_path}/one.kuzu") as mem:
        mem.ingest_episodes(
            [
                EpisodeInput("solo", "Ines", t, start + timedelta(hours=i), f"s{i}")
                for i, t in enumerate(texts)
            ]
        )
        payload = only("chunk", "dense")
        exact = retrieve(mem.ctx, "a boat trip on the sea", "solo", payload)
        index = retrieve(
            mem.ctx, "a boat trip on the sea", "solo", payload, tuning=Tuning(exact_vectors=False)
        )
    assert "exact" in exact.trace and "exact" not in index.trace
    assert refs(exact) == refs(index) and refs(exact)[:1] in (["s4"], ["s0"])
    assert [round(h.score, 4) for h in exact.hits] == [round(h.score, 4) for h in index.hits]


def test_exact_vectors_are_read_again_after_the_group_is_written(w: World) -> None:
    group = f"retr-fresh-{uuid.uuid4().hex[:8]}"
    when = datetime(2023, 3, 1, tzinfo=UTC)
    w.mem.ingest_episodes([EpisodeInput(group, "Ines", "The lighthouse keeper waved at us.", when, "f1")])
    before = retrieve(w.mem.ctx, "a glacier walk", group, only("chunk", "dense"))
    held = w.mem.ctx.cache.latest(group, "vectors")
    w.mem.ingest_episodes(
        [
            EpisodeInput(
                group, "Ines", "We hiked across the glacier in crampons.", when + timedelta(days=1), "f2"
            )
        ]
    )
    after = retrieve(w.mem.ctx, "a glacier walk", group, only("chunk", "dense"))
    assert refs(before) == ["f1"] and refs(after)[:1] == ["f2"]
    now = w.mem.ctx.cache.latest(group, "vectors")
    fetched = [r for r in now.rows if not any(r is old for old in held.rows)]  # only the new rows were read
    assert len(now) > len(held) and fetched and all("glacier" in r["text"] for r in fetched)
    w.mem.forget(group)


# --- filters ---------------------------------------------------------------------------------------


def test_speaker_time_range_and_as_of_filters(w: World) -> None:
    ctx, p = w.mem.ctx, lookup_payload()
    by_tomasz = retrieve(ctx, "violin orchestra audition", w.main, p, speaker="Tomasz")
    assert by_tomasz.hits and {h.speaker for h in by_tomasz.hits} == {"Tomasz"}
    july = (datetime(2023, 7, 1, tzinfo=UTC), datetime(2023, 7, 3, tzinfo=UTC))
    in_july = retrieve(ctx, "violin orchestra concert", w.main, p, time_range=july)
    assert in_july.hits and all(july[0] <= h.valid_at < july[1] for h in in_july.hits if h.valid_at)
    early = retrieve(ctx, "Where does Ines work?", w.main, p, as_of=datetime(2023, 4, 1, tzinfo=UTC))
    assert early.hits and all(
        h.valid_at and h.valid_at <= datetime(2023, 4, 1, tzinfo=UTC) for h in early.hits
    )
    assert not early.facts or all(
        f.valid_at and f.valid_at <= datetime(2023, 4, 1, tzinfo=UTC) for f in early.facts
    )


# --- lookup ----------------------------------------------------------------------------------------


def looked_up(w: World, question: str) -> ProcedureResult:
    """`lookup` on the question, parsed against the main group as the router parses it."""
    return lookup(w.mem.ctx, question_in(w.mem.ctx, question, w.main), w.main, lookup_payload())


def test_lookup_answers_with_the_sentence_that_covers_the_question(w: World) -> None:
    r = looked_up(w, "What colour is the glaze on Ines's vase?")
    assert not r.abstained and r.answer == "The glaze is a deep sea green."
    assert r.evidence[0].source_ref == "h3" and r.evidence[0].group == w.main
    assert r.trace["procedure"] == "lookup" and r.trace["answer_from"] == "h3"
    assert {"counts", "timings_ms", "fusion", "indexes"} <= set(r.trace)


def test_lookup_abstains_when_the_question_names_a_stranger(w: World) -> None:
    r = looked_up(w, "Where does Bartholomew keep his telescope?")
    assert r.abstained and r.answer == NO_INFORMATION
    assert "Bartholomew" in r.trace["abstained_because"]


def test_best_sentence_and_evidence_kinds() -> None:
    hit = Hit("e1", "D1:2", "Hi! I moved to Lisbon in May. It rains.", "Priya", None, 1.0, ("chunk_text",))
    assert best_sentence(parse_question("Where did Priya move to?"), [hit]) == (
        "I moved to Lisbon in May.",
        "D1:2",
    )
    fact_hit = replace(hit, matched="Priya lives in Lisbon", fact_uuid="f1")
    kinds = [e.kind for e in evidence_from_hits([hit, replace(hit, matched="It rains."), fact_hit], "g")]
    assert kinds == ["turn", "sentence", "fact"]
