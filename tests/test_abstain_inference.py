"""Abstention that fits what a question asks: an inference ("What job might Ines take up?") asks
for a guess, so no owner check and no typed-kind refusal; a question that names one speaker is
about that speaker even when another name comes first; a summary about someone never mentioned
says so; "leave for Lisbon" is stated by "I'm off to Lisbon"; and a possessive in a when-clause
("when he visits Ann's flat") is not what is asked for. Sentences of our own."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from reliability.common import ingested

from planners.asked import asked_for, requests_summary
from planners.payloads import default_payloads
from planners.question import parse as parse_question
from procedures.about import Subject
from procedures.abstain import INFERENCE, ground
from procedures.premise import check
from procedures.presupposed import heading_to
from procedures.slots import question_in
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, Evidence

CHAT = [
    ("Tomas", "I finally bought my own kayak last weekend, a bright orange one!"),
    ("Ines", "Wow, orange! What did you call it?"),
    ("Tomas", "I named my kayak Otter. Every kayak I own gets named after a river animal."),
    ("Ines", "Otter suits it! I spent Sunday teaching my nephews to bake bread, they loved it."),
    ("Tomas", "You are so patient with kids, you should teach for a living."),
    ("Ines", "Maybe one day! For now the bakery keeps me busy."),
]


def _group(mem: Memory, tmp_path: Path) -> str:
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps(
        {"speaker": who, "listeners": ["Tomas" if who == "Ines" else "Ines"], "text": text,
         "source_ref": f"I1:{i}", "timestamp": f"2024-05-01T10:0{i}:00Z"}) + "\n"
        for i, (who, text) in enumerate(CHAT, 1)), encoding="utf-8")
    return ingested(mem, "infer", path)


def test_a_modal_anywhere_asks_for_an_inference() -> None:
    for q in ("What job might Ines take up next?", "Would Ines enjoy a cooking class?",
              "Which city would Tomas be likely to visit?", "What could Ines bake for the fair?"):
        assert INFERENCE.search(q), q
    for q in ("What did Ines name her kayak?", "Where does Tomas live now?", "Is Ines a baker?"):
        assert not INFERENCE.search(q), q


def test_a_possessive_in_a_when_clause_is_not_the_asked_head() -> None:
    assert asked_for("What does Zed want to do when he visits Ann's flat?").head == ""
    assert asked_for("What does Zed want to do when he visits Ann's flat?").kind == "thing"
    assert asked_for("What is Ann's job?").kind == "role"
    assert asked_for("Where is Ann's office?").kind == "place"


def test_going_to_a_place_is_said_many_ways() -> None:
    ines = Subject("Ines", frozenset({"ines"}), speaker=True)
    speakers = ("Ines", "Tomas")

    def said(text: str) -> Evidence:
        return Evidence("T1:1", "e1", text, datetime(2024, 3, 1, tzinfo=UTC), 1.0, "g", speaker="Ines")

    q = parse_question("When will Ines leave for Lisbon?")
    assert heading_to("next week i'm off to lisbon for a conference.", "lisbon")
    assert check(q, ines, [said("Next week I'm off to Lisbon for a conference.")], speakers).holds
    # the place named without going there states no departure
    assert not check(q, ines, [said("Lisbon has the best custard tarts.")], speakers).holds
    # a trip called off is no trip to date
    off = said("I'm off to Lisbon next week. Actually no, the Lisbon trip fell through.")
    assert not check(q, ines, [off], speakers).holds


def test_a_question_naming_one_speaker_after_another_name_is_about_that_speaker(
    mem: Memory, tmp_path: Path
) -> None:
    group = _group(mem, tmp_path)
    lookup = default_payloads().for_mode("single_fact")
    g = ground(mem.ctx, question_in(mem.ctx, 'What did "Otter" remind Ines of?', group), group,
               ownership=True, payload=lookup)
    assert g.main == "Ines", g.to_trace()
    assert g.ownership is not None and g.ownership.get("speaker") == "Ines", g.to_trace()


def test_an_inference_is_not_refused_for_want_of_a_named_value(mem: Memory, tmp_path: Path) -> None:
    group = _group(mem, tmp_path)
    guess = mem.ask("What job might Ines take up one day?", group=group)
    assert not guess.abstained, guess.trace.get("reading")
    owner = guess.trace["grounding"]["ownership"] or {}
    assert "verdict" not in owner, owner  # no owner check ran
    assert owner["swapped"]["exempt"] == "the question asks for an inference", owner


def test_a_summary_about_someone_never_mentioned_abstains(mem: Memory, tmp_path: Path) -> None:
    group = _group(mem, tmp_path)
    nobody = mem.ask("Summarize what Zygmunt has been up to this year.", group=group)
    assert nobody.procedure == "long_form"
    assert nobody.abstained and nobody.answer == NO_INFORMATION, nobody.trace.get("runtime_gates")
    ines = mem.ask("Summarize what Ines has been up to this year.", group=group)
    assert ines.procedure == "long_form" and not ines.abstained, ines.trace.get("runtime_gates")


def test_only_an_imperative_summary_request_gathers_what_both_said() -> None:
    assert requests_summary("Describe Ines's year at the bakery.")
    assert requests_summary("Summarise how Tomas's kayak plans went.")
    assert not requests_summary("How does Ines describe the bakery?")  # what Ines said: her words
    assert not requests_summary("What did Ines bake on Sunday?")


def test_words_naming_the_conversation_itself_are_not_what_is_asked(mem: Memory, tmp_path: Path) -> None:
    """ "…over our chats", "…during the conversations" frame the question: they are no attribute a
    turn should say, so they never make the asked attribute look unsupported (terms are stems)."""
    group = _group(mem, tmp_path)
    lookup = default_payloads().for_mode("aggregation")
    q = question_in(mem.ctx, "Which kayaks has Tomas owned during the conversations?", group)
    g = ground(mem.ctx, q, group, ownership=True, payload=lookup)
    terms = (g.ownership or {}).get("terms", [])
    assert not any(t.startswith("conversation") for t in terms), g.to_trace()
    assert g.grounded, g.to_trace()
    chats = question_in(mem.ctx, "Which breads did Ines bake across our chats?", group)
    assert "chat" not in set((ground(mem.ctx, chats, group, ownership=True, payload=lookup).ownership
                              or {}).get("terms", [])), "chats frame the question"
