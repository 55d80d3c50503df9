"""Each answer procedure, fallbacks included, on each store.

Two conversations of ours are ingested once per backend under fresh groups:
`noor_felix.jsonl` (moves, jobs, managers, pets, bands; 27 turns over 15 months) and
`quiet.jsonl` (three turns that name no one, so no bridge entity can be found).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.lexicon import DEFAULT_LEXICON
from planners.payloads import Payload, default_payloads
from procedures.aggregation import aggregate, distinct_values, head_predicate
from procedures.answer import Procedure
from procedures.graph import latest_version, relation_chain
from procedures.longform import long_form, strata
from procedures.lookup import lookup
from procedures.result import ProcedureResult
from procedures.slots import question_in
from procedures.synthesis import best_sentence, format_day
from procedures.temporal import granularity, resolve_window, temporal
from tkg.memory import Memory
from tkg.models import Fact
from tkg.text import stem

DATA = Path(__file__).parent / "data" / "procedures"
# each procedure with the mode whose payload the router gives it
MODE_OF: dict[Procedure, str] = {
    relation_chain: "relation_chain",
    latest_version: "latest_version",
    lookup: "single_fact",
    temporal: "time_anchored",
    aggregate: "aggregation",
    long_form: "long_form",
}


@dataclass
class Groups:
    mem: Memory
    noor: str
    quiet: str

    def ask(
        self, procedure: Procedure, text: str, *, group: str = "", as_of: datetime | None = None
    ) -> ProcedureResult:
        """One procedure on ``text`` (parsed as the router parses it) with its mode's payload."""
        group = group or self.noor
        q = question_in(self.mem.ctx, text, group)
        return procedure(self.mem.ctx, q, group, payload(MODE_OF[procedure]), as_of=as_of)


@pytest.fixture(scope="module")
def g(mem: Memory) -> Groups:
    return Groups(mem, ingested(mem, "proc-noor", DATA / "noor_felix.jsonl"),
                  ingested(mem, "proc-quiet", DATA / "quiet.jsonl"))


def payload(mode: str) -> Payload:
    return default_payloads().for_mode(mode)


def refs(result: ProcedureResult) -> list[str | None]:
    return [e.source_ref for e in result.evidence]


# --- graph_chain ---------------------------------------------------------------------------------


def test_chain_walks_the_graph_when_every_hop_has_an_edge(g: Groups) -> None:
    r = g.ask(relation_chain, "Where does Noor's sister live?")
    assert r.answer == "Oslo" and not r.abstained
    assert r.trace["walk"]["complete"] and not r.trace["fallbacks"]
    assert refs(r) == ["n8"] and [f.predicate for f in r.facts] == ["sibling_of", "lives_in"]


def test_chain_falls_back_to_iterative_retrieval_with_the_walks_bridge(g: Groups) -> None:
    r = g.ask(relation_chain, "Where did Noor's manager grow up?")
    assert [f["from"] for f in r.trace["fallbacks"]] == ["walk"]
    assert r.trace["iterative"]["bridge"] == ["Omar Haddad"] and r.trace["iterative"]["bridge_from"] == "walk"
    assert "Aberdeen" in r.answer and "n18" in refs(r)


def test_chain_without_a_plan_takes_the_bridge_from_the_evidence(g: Groups) -> None:
    r = g.ask(relation_chain, "What does the friend Noor went hiking with play?")
    assert r.trace["question"]["plan"] is None
    assert r.trace["fallbacks"][0]["from"] == "plan"
    assert r.trace["iterative"]["bridge"][0] == "Tariq" and r.trace["iterative"]["bridge_from"] == "evidence"
    assert "cello" in r.answer and "n14" in refs(r)


def test_chain_ends_in_plain_retrieval_when_no_bridge_exists(g: Groups) -> None:
    r = g.ask(relation_chain, "What does the baker's sister bake?", group=g.quiet)
    assert [(f["from"], f["to"]) for f in r.trace["fallbacks"]] == [
        ("plan", "iterative_retrieval"),
        ("iterative_retrieval", "lookup"),
    ]
    assert r.trace["answered_by"] == "lookup" and r.evidence
    assert {e.source_ref for e in r.evidence} <= {"q1", "q2", "q3"}


# --- graph_latest ----------------------------------------------------------------------------------


def test_latest_reads_the_open_edge_of_the_slot(g: Groups) -> None:
    r = g.ask(latest_version, "Where does Noor live now?")
    assert r.answer == "Dublin"
    assert r.facts[0].current and r.evidence[0].source_ref == "n22"
    assert {f.object for f in r.facts[1:]} <= {"Glasgow", "Cardiff"}  # older versions as context
    still = g.ask(latest_version, "Is Noor still in Glasgow?")
    assert still.answer.startswith("No") and "Dublin" in still.answer


def test_lookup_answers_a_one_hop_slot_question_from_the_graph_first(g: Groups) -> None:
    r = g.ask(lookup, "Where does Noor live?")
    assert r.answer == "Dublin" and r.trace["answer_from"] == "graph" and r.trace["from_graph"]
    assert r.evidence[0].source_ref == "n22" and r.evidence[0].kind == "fact"
    assert len(r.evidence) > 1  # the retrieved turns follow the edge's own
    plain = g.ask(lookup, "What is Noor obsessed with these days?")
    assert plain.trace["answer_from"] != "graph" and "pottery" in plain.answer


def test_latest_falls_back_to_the_newest_matching_chunks(g: Groups) -> None:
    r = g.ask(latest_version, "What is Noor obsessed with these days?")
    assert r.trace["fallbacks"][0]["to"] == "newest_chunks"
    assert "pottery" in r.answer
    # evidence keeps the order of support; the answer is the newest of the best five
    newest = max(r.evidence[:5], key=lambda e: e.valid_at or datetime.min.replace(tzinfo=UTC))
    assert r.trace["answer_from"] == newest.source_ref == "n27"


def test_latest_as_of_reads_the_slot_at_that_time(g: Groups) -> None:
    r = g.ask(latest_version, "Where does Noor live?", as_of=datetime(2023, 8, 1, tzinfo=UTC))
    assert r.answer == "Glasgow"


# --- temporal --------------------------------------------------------------------------------------


def test_value_at_a_time_from_the_question_or_as_of(g: Groups) -> None:
    r = g.ask(temporal, "Where did Noor live in July 2023?")
    assert r.answer == "Glasgow" and r.trace["window"][0].startswith("2023-07-01")
    manager = g.ask(temporal, "Who was Noor's manager in March 2023?")
    assert manager.answer == "Ines Duarte"
    pinned = g.ask(temporal, "Where does Noor live?", as_of=datetime(2023, 2, 1, tzinfo=UTC))
    assert pinned.answer == "Cardiff"


def test_when_questions_use_the_time_the_turn_resolved(g: Groups) -> None:
    moved = g.ask(temporal, "When did Noor move to Glasgow?")
    assert moved.answer == 'May 2023 ("last month", said on 10 June 2023)'
    adopted = g.ask(temporal, "When did Noor adopt Mochi?")
    assert adopted.answer.startswith("the week of 29 May 2023") and "last week" in adopted.answer
    assert refs(adopted) == ["n12"]


def test_before_an_entity_reads_the_neighbouring_version(g: Groups) -> None:
    r = g.ask(temporal, "Where did Noor live before Glasgow?")
    assert r.answer.startswith("Cardiff") and r.trace["answered_by"] == "slot history"


def test_chunks_in_a_window_come_back_in_time_order(g: Groups) -> None:
    r = g.ask(temporal, "What happened with Noor in November 2023?")
    assert r.trace["question"]["predicate"] is None and r.trace["retrieval"]["time_range"]
    inside = r.trace["retrieval"]["in_window"]
    lo, hi = datetime(2023, 11, 1, tzinfo=UTC), datetime(2023, 12, 1, tzinfo=UTC)
    # the window's turns lead the evidence (in order of support); the trace has them by time
    assert inside >= 1 and all(e.valid_at and lo <= e.valid_at < hi for e in r.evidence[:inside])
    when = {e.source_ref: e.valid_at for e in r.evidence}
    times = [when[ref] for ref in r.trace["chronology"]]
    assert times == sorted(times) and set(r.trace["chronology"]) == set(when)


# --- aggregation -----------------------------------------------------------------------------------


def test_counts_distinct_values_over_the_whole_history(g: Groups) -> None:
    r = g.ask(aggregate, "How many cities has Noor lived in?")
    assert r.answer.startswith("3: ")
    assert [v["value"] for v in r.trace["values"]] == ["Cardiff", "Glasgow", "Dublin"]
    assert sorted(str(x) for x in refs(r)) == ["n2", "n22", "n9"]


def test_lists_pets_and_bands_with_intervals(g: Groups) -> None:
    pets = g.ask(aggregate, "Which pets has Noor had?")
    values = {v["value"]: v["interval"] for v in pets.trace["values"]}
    assert {"Pepper", "Mochi", "Juniper"} <= set(values)
    assert "–" in values["Pepper"] and values["Juniper"].startswith("since")  # Pepper was lost
    bands = g.ask(aggregate, "Which bands has Noor liked?")
    assert [v["value"] for v in bands.trace["values"]] == ["Radiohead", "Khruangbin"]


def test_a_present_tense_count_keeps_only_what_is_still_held(g: Groups) -> None:
    now = g.ask(aggregate, "How many pets does Noor have at the moment?")
    held = [v["value"] for v in now.trace["values"]]
    assert now.trace["held_now"] and "Pepper" not in held and {"Mochi", "Juniper"} <= set(held)
    assert now.answer.startswith(f"{len(held)}: ")
    ever = g.ask(aggregate, "How many pets has Noor had?")
    assert "held_now" not in ever.trace and "Pepper" in [v["value"] for v in ever.trace["values"]]


def test_aggregation_without_a_relation_falls_back_to_lookup(g: Groups) -> None:
    r = g.ask(aggregate, "How many times did they bake bread?", group=g.quiet)
    assert r.trace["fallbacks"][0]["to"] == "lookup" and r.evidence


def test_distinct_values_drop_emptied_versions() -> None:
    t = [datetime(2023, m, 1, tzinfo=UTC) for m in (1, 2, 3)]
    york = Fact("1", "g", "Priya", "lives_in", "York", "", t[1], invalid_at=t[1])  # corrected away
    leeds = Fact("2", "g", "Priya", "lives_in", "Leeds", "", t[1])
    again = Fact("3", "g", "Priya", "lives_in", "leeds", "", t[2])
    values = distinct_values([york, leeds, again])
    assert [(v.name, len(v.facts)) for v in values] == [("Leeds", 2)]
    assert head_predicate("How many pets does she have?", DEFAULT_LEXICON) == ("has_pet", "")


# --- long_form -------------------------------------------------------------------------------------


def test_long_form_samples_every_period_in_time_order(g: Groups) -> None:
    r = g.ask(long_form, "What has Noor been up to?")
    with_hits = [s for s in r.trace["strata"] if s["hits"]]
    assert r.trace["strata_covered"] == len(with_hits) >= 3
    chosen = r.evidence[: r.trace["selected"]]  # the bullets' turns lead the evidence
    months = {(e.valid_at.year, e.valid_at.month) for e in chosen if e.valid_at}
    assert len(months) >= 4  # Jan, Jun and Nov 2023, Apr 2024
    assert len(r.trace["entities_covered"]) >= 5
    bullets = r.answer.splitlines()
    assert len(bullets) == len(chosen) and all(b.startswith("- ") for b in bullets)
    days = [datetime.strptime(b[2:].split(" — ", 1)[0], "%d %B %Y") for b in bullets]
    assert days == sorted(days)  # the bullets are chronological


def test_strata_split_the_span_by_depth() -> None:
    first, last = datetime(2023, 1, 1, tzinfo=UTC), datetime(2023, 12, 31, tzinfo=UTC)
    slices = strata(first, last, 40)
    assert len(slices) == 8 and slices[0][0] == first and slices[-1][1] > last
    assert all(a[1] == b[0] for a, b in zip(slices, slices[1:], strict=False))
    assert len(strata(first, last, 5)) == 3 and len(strata(first, first, 40)) == 1


# --- helpers ---------------------------------------------------------------------------------------


def test_time_windows_and_formats() -> None:
    anchor = datetime(2024, 4, 2, tzinfo=UTC)
    assert resolve_window("July 2023", anchor) == (
        datetime(2023, 7, 1, tzinfo=UTC),
        datetime(2023, 8, 1, tzinfo=UTC),
    )
    before = resolve_window("before 2023", anchor)
    assert before is not None and before[1] == datetime(2023, 1, 1, tzinfo=UTC)
    assert resolve_window("since March 2024", anchor)[0] == datetime(2024, 3, 1, tzinfo=UTC)  # type: ignore[index]
    # an ISO date is that day, not its year (a bare year still reads as the year)
    assert resolve_window("2020-09-06", anchor) == (
        datetime(2020, 9, 6, tzinfo=UTC),
        datetime(2020, 9, 7, tzinfo=UTC),
    )
    assert resolve_window("2019", anchor) == (
        datetime(2019, 1, 1, tzinfo=UTC),
        datetime(2020, 1, 1, tzinfo=UTC),
    )
    assert granularity(datetime(2023, 5, 1, tzinfo=UTC), datetime(2023, 6, 1, tzinfo=UTC)) == "month"
    assert format_day(datetime(2023, 5, 7, 13, tzinfo=UTC)) == "7 May 2023"
    assert stem("shoes") == "shoe" and stem("moved") == "move"
    assert best_sentence(
        "Which band does Priya like?", "Long day. Fleetwood Mac is my favourite band."
    ).startswith("Fleetwood")
    assert best_sentence(
        "What has she been up to?", "Busy! I moved to Leeds in May.", informative=True
    ).startswith("I moved")


# --- named ops ------------------------------------------------------------------------------------


def test_procedure_ops_by_name(g: Groups) -> None:
    """The graph/temporal/aggregate ops the procedures run, checked against the conversation."""
    store, group = g.mem.ctx.store, g.noor
    ents = {r["name"]: r["uuid"] for r in store.named("entity.list", {"group_id": group})}
    noor = [ents["Noor"]]
    between = store.named("graph.edges_between", {"group_id": group, "pair": [ents["Glasgow"], ents["Noor"]]})
    assert [(r["predicate"], r["object"]) for r in between] == [("lives_in", "Glasgow")]
    history = store.named(
        "aggregate.history", {"group_id": group, "predicates": ["lives_in"], "subject_uuids": noor}
    )
    assert [r["object"] for r in history] == ["Cardiff", "Glasgow", "Dublin"]
    # `// @each`: one key lookup per distinct uuid, rows in item order; a key of no edge adds none
    repeated = store.named(
        "fact.history",
        {"group_id": group, "predicate": "lives_in", "subject_uuids": [*noor, ents["Glasgow"], *noor]},
    )
    assert [r["object"] for r in repeated] == ["Cardiff", "Glasgow", "Dublin"]
    assert store.named("fact.history", {"group_id": g.quiet, "predicate": "", "subject_uuids": noor}) == []
    assert (
        store.named("graph.speakers", {"group_id": group})
        and store.named("graph.speakers", {"group_id": "no-" + group}) == []
    )
    # entity and spoken turns: those containing most of the terms first, then the newest
    about = store.named(
        "graph.entity_turns", {"group_id": group, "entity_uuid": noor[0], "terms": [""], "limit": 3}
    )
    assert len(about) == 3 and [t["valid_at"] for t in about] == sorted(
        (t["valid_at"] for t in about), reverse=True
    )
    ranked = store.named(
        "graph.entity_turns", {"group_id": group, "entity_uuid": noor[0], "terms": ["cardiff"], "limit": 3}
    )
    assert "cardiff" in ranked[0]["text"].lower() and ranked[0]["overlap"] == 1 >= ranked[-1]["overlap"]
    assert (
        store.named(
            "graph.entity_turns", {"group_id": g.quiet, "entity_uuid": noor[0], "terms": [""], "limit": 3}
        )
        == []
    )
    said = store.named(
        "graph.spoken_turns",
        {"group_id": group, "speaker": "Noor", "terms": ["dublin", "glasgow"], "limit": 4},
    )
    assert (
        len(said) == 4
        and {t["speaker"] for t in said} == {"Noor"}
        and said[0]["overlap"] >= said[-1]["overlap"]
    )
    assert (
        store.named("graph.spoken_turns", {"group_id": g.quiet, "speaker": "Noor", "terms": [""], "limit": 4})
        == []
    )
    worded = store.named(
        "graph.turns_with_terms", {"group_id": group, "terms": ["dublin", "noor"], "limit": 500}
    )
    assert worded and all(
        "dublin" in t["text"].lower() or "noor" in (t["text"] + t["speaker"]).lower() for t in worded
    )
    assert len({t["uuid"] for t in worded}) == len(worded) and len(store.named(
        "graph.turns_with_terms", {"group_id": group, "terms": ["dublin", "noor"], "limit": 2})) == 2
    assert store.named("graph.turns_with_terms", {"group_id": g.quiet, "terms": ["dublin"], "limit": 5}) == []
    everyone = store.named("aggregate.history_all", {"group_id": group, "predicates": ["lives_in"]})
    assert {r["subject"] for r in everyone} >= {"Noor", "Lena", "Jonas"}
    window = {"range_start": datetime(2023, 12, 1, tzinfo=UTC), "range_end": datetime(2024, 6, 1, tzinfo=UTC)}
    overlapping = store.named(
        "temporal.facts_overlapping",
        {"group_id": group, "subject_uuids": noor, "predicate": "lives_in", **window},
    )
    assert [r["object"] for r in overlapping] == ["Glasgow", "Dublin"]
    span = store.named("temporal.group_span", {"group_id": group})[0]
    assert span["turns"] == 27 and span["first"] < span["last"]
    turns = store.named("graph.turn", {"group_id": group, "episode_uuid": history[0]["episodes"][0]})
    assert [t["source_ref"] for t in turns] == ["n2"] and "Cardiff" in turns[0]["text"]
    assert store.named("graph.turn", {"group_id": g.quiet, "episode_uuid": history[0]["episodes"][0]}) == []
    of_chunk = store.named(
        "graph.turn_of_chunk", {"group_id": group, "chunk_uuid": history[1]["source_chunk"]}
    )
    assert [t["uuid"] for t in of_chunk] == history[1]["episodes"][:1] and "Glasgow" in of_chunk[0]["text"]
    said = store.named("temporal.episode_chunks", {"group_id": group, "episode_uuids": [of_chunk[0]["uuid"]]})
    assert any(c["time_text"] == "last month" for c in said)
    assert {c["kind"] for c in said} >= {"turn"} and any(c["time_start"] for c in said)
    marathon = store.named("graph.turns_containing", {"group_id": group, "needles": ["marathon", "pottery"]})
    assert sorted((r["needle"], r["source_ref"]) for r in marathon) == [
        ("marathon", "n21"),
        ("pottery", "n27"),
    ]
    assert store.named("graph.turns_containing", {"group_id": g.quiet, "needles": ["marathon"]}) == []
