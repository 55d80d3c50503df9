"""The same graph however a conversation arrives: whole, in random parts, one turn per call, one
turn per process.

An assistant ingests turn by turn, so what the extractor reads from earlier turns ("Actually,
it's Vienna, not York" corrects a claim made turns before) must come from the store, not from one
process's memory (tkg/extract/history.py). Conversations of our own with corrections,
retractions and supersessions are ingested in each way into groups of their own, and every fact
must come out the same: subject, predicate, object, qualifier, version, valid and invalid time,
whether it is current, which version it supersedes, the turn that said it, its confidence.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reliability.common import bounded, facts_of, neo4j_url, shared_embedder, unique

from tkg.ingest.pipeline import Ingestor
from tkg.memory import Memory
from tkg.models import EpisodeInput

ROOT = Path(__file__).resolve().parent.parent
CHILD = Path(__file__).resolve().parent / "reliability" / "ingest_child.py"
EXAMPLES = {"kuzu": 12, "neo4j": 8}
SPEAKERS = ("Ines", "Tomas")
CITIES = ("York", "Vienna", "Leeds", "Porto", "Quito", "Tartu")
ORGS = ("Globex", "Initech", "Umbrella", "Hooli")
PETS = ("Mochi", "Biscuit", "Pixel")
KINDS = ("move", "correct_not", "correct_meant", "job", "quit", "pet", "sibling", "filler")
START = datetime(2023, 3, 1, 9, 0, tzinfo=UTC)
# a fixed conversation with every kind of turn: the explicit example, and the one-turn-per-process run
FIXED = [
    ("move", 0, 0),
    ("filler", 1, 0),
    ("correct_not", 0, 1),
    ("job", 0, 0),
    ("pet", 1, 0),
    ("correct_meant", 0, 1),
    ("quit", 0, 1),
    ("move", 1, 3),
    ("correct_meant", 1, 4),
    ("sibling", 0, 5),
    ("move", 0, 2),
    ("filler", 0, 1),
]


def conversation(group: str, turns: list[tuple[str, int, int]]) -> list[EpisodeInput]:
    """Turns between Ines and Tomas, three days apart; a correction names the speaker's last city."""
    last: dict[str, tuple[str, str]] = {}  # the speaker's last single-valued claim: (kind, value)
    out = []
    for i, (kind, who, k) in enumerate(turns):
        speaker, other = SPEAKERS[who], SPEAKERS[1 - who]
        city, org, pet = CITIES[k % len(CITIES)], ORGS[k % len(ORGS)], PETS[k % len(PETS)]
        said = last.get(speaker)
        if kind in ("correct_not", "correct_meant") and said is not None:
            new = city if said[0] == "city" else org
            new = new if new != said[1] else (CITIES if said[0] == "city" else ORGS)[(k + 1) % 4]
            text = (
                f"Actually, it's {new}, not {said[1]}." if kind == "correct_not" else f"Sorry, I meant {new}."
            )
            last[speaker] = (said[0], new)
        elif kind in ("move", "correct_not", "correct_meant"):
            text = f"I moved to {city}."
            last[speaker] = ("city", city)
        elif kind == "job":
            text = f"I started working at {org}."
            last[speaker] = ("org", org)
        elif kind == "quit":
            text = f"I quit my job at {org}."
        elif kind == "pet":
            text = f"I adopted a puppy named {pet}."
        elif kind == "sibling":
            text = f"My sister Lena lives in {city}."
        else:
            text = ("Oh nice, how is it going?", "Haha, same here.", "That sounds lovely!")[k % 3]
        out.append(
            EpisodeInput(
                group,
                speaker,
                text,
                START + timedelta(days=3 * i, minutes=7 * i),
                f"t{i + 1}",
                listeners=(other,),
                position=f"turn {i + 1}",
            )
        )
    return out


def facts(mem: Memory, group: str) -> list[tuple[Any, ...]]:
    return facts_of(mem.ctx.store, group)


def in_parts(mem: Memory, episodes: list[EpisodeInput], cuts: set[int], *, fresh: bool = False) -> None:
    """Ingest in the parts ``cuts`` makes; ``fresh``: each part by a new Ingestor, which knows only
    the store, as a new process would."""
    bounds = [0, *sorted(c for c in cuts if 0 < c < len(episodes)), len(episodes)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        if fresh:
            Ingestor(mem.ctx.store, mem.ctx.embedder, mem.ctx.registry, cache=mem.ctx.cache).ingest(
                episodes[a:b]
            )
        else:
            mem.ingest_episodes(episodes[a:b])


def test_the_fixed_conversation_corrects_retracts_and_supersedes(mem: Memory) -> None:
    """The conversations exercise what the test is about: corrections reach back across turns."""
    group = unique("arrival-fixed")
    try:
        in_parts(mem, conversation(group, FIXED), set(range(1, len(FIXED))), fresh=True)  # one turn per run
        got = facts(mem, group)
        ines_cities = [(f[2], f[4], f[7]) for f in got if f[0] == "Ines" and f[1] == "lives_in"]
        assert ("Vienna", 2, False) in ines_cities and (
            "Leeds",
            3,
            True,
        ) in ines_cities  # York corrected, then a move
        assert [f[2] for f in got if f[0] == "Tomas" and f[1] == "lives_in" and f[7]] == [
            "Quito"
        ]  # "I meant Quito"
        assert [
            f[2] for f in got if f[0] == "Ines" and f[1] == "works_at" and f[7]
        ] == []  # corrected, then quit
        assert [
            f.object for f in mem.state("Ines", "lives_in", group=group, as_of=START + timedelta(days=7))
        ] == ["Vienna"]
    finally:
        mem.ctx.store.named("group.delete", {"group_id": group})


def test_whole_split_and_turn_by_turn_ingest_give_the_same_facts(mem: Memory, backend_name: str) -> None:
    tried = 0

    @bounded(EXAMPLES[backend_name])
    @given(
        turns=st.lists(
            st.tuples(st.sampled_from(KINDS), st.integers(0, 1), st.integers(0, 11)), min_size=3, max_size=12
        ),
        cuts=st.sets(st.integers(1, 11), max_size=4),
    )
    def prop(turns: list[tuple[str, int, int]], cuts: set[int]) -> None:
        nonlocal tried
        tried += 1
        groups = [unique("arrival") for _ in range(3)]
        try:
            mem.ingest_episodes(conversation(groups[0], turns))
            in_parts(mem, conversation(groups[1], turns), cuts, fresh=True)
            in_parts(mem, conversation(groups[2], turns), set(range(1, len(turns))))
            whole = facts(mem, groups[0])
            assert facts(mem, groups[1]) == whole, f"split at {sorted(cuts)}"
            assert facts(mem, groups[2]) == whole, "one turn per call"
        finally:
            for g in groups:
                mem.ctx.store.named("group.delete", {"group_id": g})

    prop()
    print(f"\n{backend_name}: whole = split = turn by turn on {tried} conversations")
    assert tried >= EXAMPLES[backend_name]


@pytest.fixture
def backend_name(mem: Memory) -> str:
    return mem.ctx.store.dialect


def test_one_turn_per_process_gives_the_same_facts(mem: Memory, backend_name: str, tmp_path: Path) -> None:
    """Each turn ingested by a new process (the embedding cache is warm, so none loads the model)."""
    shared_embedder()
    whole_group, group = unique("arrival-whole"), unique("arrival-proc")
    url = neo4j_url() if backend_name == "neo4j" else f"kuzu://{tmp_path}/per-process.kuzu"
    try:
        mem.ingest_episodes(conversation(whole_group, FIXED))
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
        for i, ep in enumerate(conversation(group, FIXED)):
            path = tmp_path / f"turn{i}.jsonl"
            line = {"group": ep.group, "speaker": ep.speaker, "listeners": list(ep.listeners),
                    "timestamp": ep.timestamp.isoformat(), "source_ref": ep.source_ref, "text": ep.text}
            path.write_text(json.dumps(line) + "\n", encoding="utf-8")
            done = subprocess.run(
                [sys.executable, str(CHILD), url, str(path)],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert done.returncode == 0 and "DONE" in done.stdout, done.stderr[-2000:]
        if backend_name == "neo4j":
            assert facts(mem, group) == facts(mem, whole_group)
        else:
            with Memory.open(url, embedder=shared_embedder()) as other:
                assert facts(other, group) == facts(mem, whole_group)
    finally:
        mem.ctx.store.named("group.delete", {"group_id": whole_group})
        if backend_name == "neo4j":
            mem.ctx.store.named("group.delete", {"group_id": group})
