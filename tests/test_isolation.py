"""Tenant isolation, property-based, on both stores: nothing of one group ever reaches another.

Each hypothesis example writes two groups that share a speaker's name but nothing else (random
names, cities, employers; group B's name is sometimes group A's plus a suffix). Then, asking on
behalf of A — and handing every query B's own uuids, words and vectors to tempt it — no `ask`,
`state`, `history`, named read query (every `search.*`, `retrieval.*`, `walk.*`, `graph.*`, ...)
or hop walk may return a uuid that is not A's or a word only B said. Entity resolution never
merges across groups, and `forget` removes one group while every other group's nodes, edges and
properties stay exactly as they were.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reliability.common import (
    bounded,
    storable_chars,
    strings_in,
    track,
    unique,
    uuids_in,
)

from planners.hop_planner import plan_hops
from procedures.walker import walk
from tkg.bench.soak import TEMPLATES, Vocab, check_invariants, conversation, group_uuids, leftovers, snapshot
from tkg.cypher import cypher_root, load_query
from tkg.errors import NotFound
from tkg.memory import Memory
from tkg.models import EpisodeInput, group_name
from tkg.stores.read_guard import write_clause

# Per property; each example ingests two or three small groups and costs 2-7 s (more on Neo4j), so
# these stay small to keep the suite fast: a longer randomised run is `tkg bench soak`.
EXAMPLES = {"kuzu": 6, "neo4j": 4}
FORGET_EXAMPLES = {"kuzu": 5, "neo4j": 3}
_TEMPLATE_WORDS = {w.lower() for t in TEMPLATES for w in re.findall(r"[A-Za-z]+", t)} | {
    "i", "my", "live", "lives",
}

# A word the conversation uses as a name: capitalised, and never a word of the templates themselves.
name_word = st.from_regex(r"\A[A-Z][a-z]{3,8}\Z").filter(lambda w: w.lower() not in _TEMPLATE_WORDS)
# Group-name tails: any text a store can hold (the loaders refuse NUL and lone surrogates).
group_tail = st.text(storable_chars, min_size=1, max_size=10)


def backend_of(mem: Memory) -> str:
    return mem.ctx.store.dialect


@st.composite
def two_tenants(draw: st.DrawFn) -> dict[str, Any]:
    words = draw(st.lists(name_word, min_size=11, max_size=11, unique_by=str.lower))
    tail_a = draw(group_tail)
    nested = draw(st.booleans())  # B = A + suffix: a prefix match would leak
    # groups are stripped wherever they arrive, so B must differ from A once both are stripped
    suffix = group_tail.filter(lambda t: t.strip() != "")
    tail_b = (
        tail_a + draw(suffix) if nested else draw(group_tail.filter(lambda t: t.rstrip() != tail_a.rstrip()))
    )
    return {
        "speaker": words[0],
        "a": Vocab(
            people=(words[0], words[1], words[2]),
            cities=(words[3], words[4]),
            orgs=(words[5],),
            pets=(words[6],),
        ),
        "b": Vocab(
            people=(words[0], words[7], words[8]),
            cities=(words[9], words[10]),
            orgs=("Brightfold",),
            pets=("Quill",),
        ),
        "tails": (tail_a, tail_b),
        "seed": draw(st.integers(0, 2**16)),
    }


def script(group: str, vocab: Vocab, seed: int) -> list[EpisodeInput]:
    """A fixed opening (so the shared speaker has facts in every group) and a random tail."""
    speaker, other, sister = vocab.people
    t0 = datetime(2020, 5, 1, 10, 0, tzinfo=UTC)
    opening = [
        EpisodeInput(group, speaker, f"I live in {vocab.cities[0]}.", t0, "o1", listeners=(other,)),
        EpisodeInput(
            group,
            speaker,
            f"My sister {sister} lives in {vocab.cities[1]}.",
            t0 + timedelta(hours=1),
            "o2",
            listeners=(other,),
        ),
        EpisodeInput(
            group, other, f"I work at {vocab.orgs[0]}.", t0 + timedelta(hours=2), "o3", listeners=(speaker,)
        ),
    ]
    return opening + conversation(random.Random(seed), group, 3, vocab=vocab, speakers=(speaker, other))


def markers(vocab: Vocab) -> set[str]:
    """The words only this tenant says (everything but the shared speaker's name)."""
    return set(vocab.people[1:]) | set(vocab.cities) | set(vocab.orgs) | set(vocab.pets)


def leaked_words(value: Any, words: set[str]) -> set[str]:
    text = " ".join(strings_in(value))
    return {w for w in words if re.search(rf"\b{re.escape(w)}\b", text)}


def read_ops(dialect: str) -> dict[str, set[str]]:
    """Every named read query for a dialect with its parameters (group.list lists all groups by design)."""
    names = {
        p.name[: -len(".cypher")]
        for d in ("common", dialect)
        for p in cypher_root().joinpath("ops", d).iterdir()
    }
    out = {}
    for name in sorted(names):
        text = load_query(name, dialect)
        # group.list lists all groups by design; store.* read the store's own records (its schema
        # meta, indexes, sizes), which hold no group's words
        if name != "group.list" and not name.startswith("store.") and write_clause(text) is None:
            needs = set(re.findall(r"\$(\w+)", re.sub(r"//[^\n]*", "", text)))
            each = re.search(
                r"^//\s*@each\s+(\w+)\s+AS\s+(\w+)", text, re.M
            )  # the list is passed, not its item
            out[name] = needs - {each.group(2)} | {each.group(1)} if each else needs
    return out


PROBED = {
    "group_id", "uuids", "episode_uuids", "subject_uuids", "from_uuids", "uuid", "subject_uuid", "a_uuid",
    "b_uuid", "text", "vector", "k", "k_fetch", "efs", "kind", "bm25_k1", "bm25_b", "predicate", "predicates",
    "qualifier", "as_of", "seqs", "needles", "range_start", "range_end", "entity_uuid", "episode_uuid",
    "chunk_uuid", "limit", "speaker", "pair", "terms",
}  # fmt: skip


def probe_params(mem: Memory, group: str, other: str, other_words: set[str]) -> dict[str, Any]:
    """Parameters that would pull ``other``'s rows into ``group``'s answers if a query forgot the group."""
    store = mem.ctx.store
    own, theirs = sorted(group_uuids(store, group)), sorted(group_uuids(store, other))
    their_entities = [r["uuid"] for r in store.named("entity.list", {"group_id": other})]
    their_turn = store.named("graph.speakers", {"group_id": other})[0]["speaker"]
    their_chunk = store.read(
        "MATCH (c:Chunk) WHERE c.group_id = $g RETURN c.uuid AS uuid, c.episode_uuid AS episode LIMIT 1",
        {"g": other},
    )[0]
    words = sorted(other_words)
    return {
        "group_id": group, "uuids": theirs + own, "episode_uuids": theirs + own,
        "subject_uuids": their_entities + own,
        "from_uuids": their_entities + own, "uuid": theirs[0], "subject_uuid": their_entities[0],
        "a_uuid": their_entities[0], "b_uuid": their_entities[-1], "text": " ".join(w.lower() for w in words),
        "vector": mem.ctx.embedder.embed_one(f"{their_turn}: I live in {words[0]}."), "k": 20, "k_fetch": 200,
        "efs": 200, "kind": "", "bm25_k1": 1.2, "bm25_b": 0.75, "predicate": "lives_in",
        "predicates": mem.ctx.registry.names(), "qualifier": "",
        "as_of": datetime.now(UTC), "seqs": list(range(0, 12)), "needles": [w.lower() for w in words],
        "range_start": datetime(2000, 1, 1, tzinfo=UTC), "range_end": datetime(2100, 1, 1, tzinfo=UTC),
        "entity_uuid": their_entities[0], "episode_uuid": their_chunk["episode"],
        "chunk_uuid": their_chunk["uuid"], "limit": 50, "speaker": their_turn,
        "pair": [their_entities[0], their_entities[-1]], "terms": [w.lower() for w in words],
    }  # fmt: skip


@pytest.mark.parametrize("dialect", ["kuzu", "neo4j"])
def test_every_read_query_is_probed(dialect: str) -> None:
    """A new read query (or a new parameter) needs a probe value, or isolation would go untested."""
    unprobed = {op: sorted(needs - PROBED) for op, needs in read_ops(dialect).items() if needs - PROBED}
    assert not unprobed, f"add probe values to probe_params (and PROBED) for: {unprobed}"


def assert_only(group: str, own: set[str], their_words: set[str], what: str, value: Any) -> None:
    stray = uuids_in(value) - own
    assert not stray, f"{what} in group {group!r} returned uuids of another group: {sorted(stray)[:5]}"
    leaked = leaked_words(value, their_words)
    assert not leaked, f"{what} in group {group!r} returned words only another group said: {sorted(leaked)}"


def ingest_tenants(mem: Memory, t: dict[str, Any]) -> tuple[str, str]:
    prefix = unique("iso")
    a, b = (group_name(prefix + tail) for tail in t["tails"])  # a group is stripped however it arrives
    track(mem, a, b)
    mem.ingest_episodes(script(a, t["a"], t["seed"]) + script(b, t["b"], t["seed"] + 1))
    return a, b


def check_tenants(mem: Memory, t: dict[str, Any]) -> None:
    a, b = ingest_tenants(mem, t)
    store = mem.ctx.store
    own_a, own_b = group_uuids(store, a), group_uuids(store, b)
    assert own_a and own_b and not own_a & own_b
    assert check_invariants(store, a, registry=mem.ctx.registry) == []
    assert check_invariants(store, b, registry=mem.ctx.registry) == []

    # entity resolution: the shared speaker is one entity per group, never one across them
    ents_a = {r["name"]: r["uuid"] for r in store.named("entity.list", {"group_id": a})}
    ents_b = {r["name"]: r["uuid"] for r in store.named("entity.list", {"group_id": b})}
    assert t["speaker"] in ents_a and t["speaker"] in ents_b
    assert not set(ents_a.values()) & set(ents_b.values())

    for group, other, own, their in ((a, b, own_a, markers(t["b"])), (b, a, own_b, markers(t["a"]))):
        params = probe_params(mem, group, other, their)
        assert set(params) == PROBED
        for op, needs in read_ops(store.dialect).items():
            if needs <= set(params):  # test_every_read_query_is_probed names any that are not
                assert_only(group, own, their, op, store.named(op, {k: params[k] for k in needs}))
        for fn in (mem.state, mem.history):
            facts = fn(t["speaker"], group=group)
            assert facts, f"{fn.__name__} found nothing for {t['speaker']} in {group!r}"
            assert_only(group, own, their, fn.__name__, [f.to_dict() for f in facts])
        names = list(ents_a if group == a else ents_b)
        plan = plan_hops(f"Where does {t['speaker']}'s sister live?", names)
        assert plan is not None
        result = walk(mem.ctx, group, plan)
        assert_only(
            group, own, their, "walk", [[f.to_dict() for f in p] for p in result.paths] + [result.values]
        )
        tempting = [
            f"Where does {t['speaker']} live?",
            f"Who lives in {sorted(their)[0]}?",
            f"What has {t['speaker']} been up to?",
        ]
        for question in random.Random(t["seed"]).sample(tempting, 2):
            answer = mem.ask(question, group=group)
            assert all(e.group == group and e.episode in own for e in answer.evidence), question
            said = {
                "evidence": [e.to_dict() for e in answer.evidence],
                "facts": [f.to_dict() for f in answer.facts],
            }
            assert_only(group, own, their, f"ask {question!r}", said)
            # the answer may echo the question's own words, never another word of the other group
            assert_only(
                group,
                own,
                their - set(question.replace("?", " ").split()),
                f"ask {question!r}",
                answer.answer,
            )
            assert not uuids_in(answer.trace) - own, f"the trace of {question!r} names another group's uuids"


def test_queries_never_cross_groups(mem: Memory) -> None:
    @bounded(EXAMPLES[backend_of(mem)])
    @given(t=two_tenants())
    def prop(t: dict[str, Any]) -> None:
        check_tenants(mem, t)

    prop()


def test_group_scoped_writes_never_touch_another_group(mem: Memory) -> None:
    """The update queries ingest runs, handed another group's uuids, change nothing there."""
    rng = random.Random(11)
    vocab_a = Vocab(
        people=("Ulla", "Rauf", "Sena"), cities=("Kesto", "Varnu"), orgs=("Tollbridge",), pets=("Moss",)
    )
    vocab_b = Vocab(
        people=("Ulla", "Pavo", "Inka"), cities=("Dremma", "Ostrel"), orgs=("Brightfold",), pets=("Quill",)
    )
    a, b = unique("iso-w"), unique("iso-w")
    track(mem, a, b)
    mem.ingest_episodes(script(a, vocab_a, rng.randint(0, 99)) + script(b, vocab_b, rng.randint(0, 99)))
    store = mem.ctx.store
    before = snapshot(store, [b])
    their_facts = [(r["uuid"], r["subject"]) for r in store.read(
        "MATCH (s:Entity)-[r:RELATES_TO]->() WHERE r.group_id = $g RETURN r.uuid AS uuid, s.uuid AS "
        "subject", {"g": b})]  # fmt: skip
    their_entities = [r["uuid"] for r in store.named("entity.list", {"group_id": b})]
    my_episode = store.named("episode.last", {"group_id": a})[0]["uuid"]
    now = datetime.now(UTC)
    with store.transaction() as tx:
        for uid, subject in their_facts:
            keys = {"uuid": uid, "subject_uuid": subject, "group_id": a}
            assert tx.named("fact.close", {**keys, "invalid_at": now, "expired_at": now}) == []
            assert tx.named("fact.add_provenance", {**keys, "episode_uuid": my_episode}) == []
        for uid in their_entities:
            tx.named(
                "entity.update",
                {"uuid": uid, "group_id": a, "name": "X", "name_key": "x", "aliases": [], "type": "thing"},
            )
        tx.named(
            "entity.set_embeddings",
            {"group_id": a, "rows": [{"uuid": u, "embedding": [0.0] * 384} for u in their_entities]},
        )
    assert snapshot(store, [b]) == before


@st.composite
def three_tenants(draw: st.DrawFn) -> dict[str, Any]:
    t = draw(two_tenants())
    t["victim"] = draw(st.integers(0, 2))
    return t


def test_forget_removes_one_group_and_leaves_the_others_exactly(mem: Memory) -> None:
    @bounded(FORGET_EXAMPLES[backend_of(mem)])
    @given(t=three_tenants())
    def prop(t: dict[str, Any]) -> None:
        a, b = ingest_tenants(mem, t)
        c = unique("iso-c") + t["tails"][0]
        track(mem, c)
        mem.ingest_episodes(script(c, t["a"], t["seed"] + 2))  # same names as A, another tenant
        groups = [a, b, c]
        victim = groups[t["victim"]]
        others = [g for g in groups if g != victim]
        if backend_of(mem) == "kuzu":  # the embedded store is ours alone: every other group counts
            # (as stored: a group id arrives stripped, "iso-c-x\r" is kept as "iso-c-x")
            others = sorted({r["group_id"] for r in mem.groups()} - {victim.strip()})
        before = snapshot(mem.ctx.store, others)
        counts = mem.counts(victim)
        gone = mem.forget(victim)
        assert gone["episodes"] == counts["episodes"] > 0
        assert leftovers(mem.ctx.store, victim) == 0
        assert mem.counts(victim)["episodes"] == 0
        assert snapshot(mem.ctx.store, others) == before
        with pytest.raises(NotFound):
            mem.forget(victim)
        # the forgotten tenant can come back, whole, as if for the first time
        again = mem.ingest_episodes(
            script(victim, t["a"] if victim != b else t["b"], t["seed"] + groups.index(victim))
        )
        assert again.skipped_existing == 0
        assert mem.counts(victim)["episodes"] == counts["episodes"]
        assert snapshot(mem.ctx.store, others) == before

    prop()
