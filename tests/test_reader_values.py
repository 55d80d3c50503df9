"""The reader answers a value of the asked kind or abstains (issue 17): amounts of money are a
number kind of their own that a whole sentence never answers; premises called off; chat words
that are no names; values typed by the words around them. Sentences are our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from planners.asked import asked_for
from planners.question import parse as parse_question
from procedures.choice import choose
from procedures.premise import check, last_word_calls_off
from procedures.reader import Candidate
from procedures.result import ProcedureResult
from procedures.sentence_value import sentence_for_value
from procedures.spans import spans_of
from tkg import nlp
from tkg.models import NO_INFORMATION, Evidence
from tkg.nlp import parse


@pytest.mark.parametrize(("question", "head", "count"), [
    ("How much did Tamsin sell her old Vespa for?", "amount", False),
    ("How much does Oren's new flat cost?", "amount", False),
    ("How much money did the bake sale raise?", "amount", False),
    ("How many goats does Tamsin keep?", "goat", True),
    ("How much weight did Oren lose?", "", True),
])
def test_how_much_asks_for_an_amount_unless_it_measures_something_else(
        question: str, head: str, count: bool) -> None:
    asked = asked_for(question)
    assert (asked.kind, asked.head, asked.count) == ("number", head, count), asked


@pytest.mark.parametrize(("text", "amounts"), [
    ("Sold the Vespa on Saturday. £1,350 to a courier from Leeds.", ["1,350"]),
    ("we paid 45 quid for the tent", ["45 quid"]),
    ("the bake sale raised three thousand pounds!!", ["three thousand"]),
    ("let the van go for 2.5k, not bad", ["2.5k"]),
    ("a neighbour gave me 650 for the old canoe", ["650"]),  # a bare sum handed over for something
    ("we sold the piano for 1200 in the end", ["1200"]),
    ("we rented the cottage for 3 weeks", []),  # a count of weeks, not a price
    ("I ran my first 10K on Sunday", []),  # a race, not money: no money verb in the sentence
    ("We have 3 goats and a very loud rooster.", []),
])
def test_amount_spans_are_sums_of_money(text: str, amounts: list[str]) -> None:
    found = [s.text for sent in parse(text).sents for s in spans_of(sent, "number", "amount")]
    assert found == amounts


def _result(answer: str, turn: str) -> ProcedureResult:
    ev = Evidence(source_ref="D1:1", episode="e1", text=turn, score=1.0, group="g", speaker="Tamsin",
                  valid_at=datetime(2025, 3, 1, tzinfo=UTC))
    return ProcedureResult(answer, [ev], [], False, {})


@pytest.mark.parametrize(("question", "answer", "abstains"), [
    # an amount was asked; the sentence names none
    ("How much did Tamsin sell her Vespa for?", "I finally sold the Vespa last week.", True),
    # a sentence that names an amount stands for the reader to weigh
    ("How much did Tamsin sell her Vespa for?", "Sold the Vespa for £900 in the end.", False),
    # other kinds keep the procedure's sentence (LoCoMo's answers often are whole sentences)
    ("What was the best film Tamsin saw in Lisbon?", "so the lisbon thing is off for me.", False),
    ("Why did Tamsin sell her Vespa?", "I finally sold the Vespa last week.", False),
])
def test_a_sentence_never_answers_an_amount(question: str, answer: str, abstains: bool) -> None:
    q = parse_question(question)
    got = sentence_for_value(q, _result(answer, f"Hi! {answer} More soon."), {}, [])
    assert (got is not None and got.abstained and got.answer == NO_INFORMATION) is abstains
    if got is not None:
        assert got.trace["evidence_role"] == "related" and "whole turns" in got.trace["reason"]


def _turn(text: str, day: int, ref: str) -> Evidence:
    return Evidence(source_ref=ref, episode=ref, text=text, score=1.0, group="g", speaker="Tamsin",
                    valid_at=datetime(2025, 3, day, tzinfo=UTC))


@pytest.mark.parametrize(("question", "texts", "holds"), [
    # the last word on the outing calls it off: a question taking it as done has a false premise
    ("What did Tamsin eat in Lisbon?",
     ["We're flying to Lisbon in May!", "ugh, lisbon is off, work said no"], False),
    ("How was the Devon retreat?",
     ["The Devon retreat is on the 9th.", "the devon retreat got postponed again"], False),
    # restored by a later plain statement
    ("What did Tamsin eat in Lisbon?", ["lisbon is off, work said no", "Lisbon is back on, flying Friday."],
     True),
    # "I'm off to Lisbon" goes; questions about the call-off itself presuppose nothing
    ("What did Tamsin eat in Lisbon?", ["I'm off to Lisbon tomorrow!"], True),
    ("Why was the Devon retreat postponed?", ["the devon retreat got postponed again"], True),
])
def test_a_premise_the_conversation_called_off_does_not_hold(
        question: str, texts: list[str], holds: bool) -> None:
    q = parse_question(question)
    turns = [_turn(t, i + 1, f"D{i + 1}:1") for i, t in enumerate(texts)]
    got = last_word_calls_off(q, None, turns)
    assert (got is None) is holds, got


@pytest.mark.parametrize(("text", "kind", "values"), [
    # chat words are never names, however the tagger labels them
    ("omg congrats!! so proud of you", "person", []),
    ("lol anyway my new boss is Tobias Lindgren", "person", ["Tobias Lindgren"]),
    ("noooo not the printer again", "person", []),
    # a head of something is the whole phrase
    ("as of today i'm head of logistics, officially", "role", ["head of logistics"]),
    ("Ana became director of research at Kestrel.", "role", ["director of research"]),
    # typed by the words around them when no tagger or gazetteer knows the name
    ("we're finally unpacked in Little Bramford, boxes everywhere", "place", ["Little Bramford"]),
    ("got a job at the village bakery instead, started monday", "organisation", ["village bakery"]),
    ("can't, i'm at work till late", "organisation", []),
    ("went on a date with someone called tomasz", "person", ["tomasz"]),
])
def test_names_and_roles_are_of_their_kind(text: str, kind: str, values: list[str]) -> None:
    assert [s.text for sent in parse(text).sents for s in spans_of(sent, kind, "")] == values


def test_an_event_is_stated_however_the_stemmer_splits_its_verb() -> None:
    q = parse_question("When did Tobiah propose to Wren?")
    said = check(q, None, [_turn("Tobiah proposed!! on the pier, at sunset", 3, "D1:1")], ())
    assert said.holds, said.reason
    unsaid = check(q, None, [_turn("Tobiah bought a ring, he says.", 3, "D1:1")], ())
    assert not unsaid.holds and "propose" in unsaid.reason


def test_a_lone_thing_needs_more_support_than_a_typed_value() -> None:
    ev = _turn("the bingo card is on the fridge", 2, "D1:1")
    weak = [Candidate("bingo card", 0.58, ev.valid_at, ev, "turn")]
    chosen, how = choose(asked_for("What board game does Tamsin love?"), weak, latest=False, window=None)
    assert chosen == [] and how["support_needed"] > 0.58
    person = [Candidate("Tobiah", 0.58, ev.valid_at, ev, "turn")]
    chosen, _ = choose(asked_for("Who does Tamsin live with?"), person, latest=False, window=None)
    assert [c.value for c in chosen] == ["Tobiah"]


def test_the_call_off_check_parses_only_the_turns_naming_the_thing_in_one_batch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    batches: list[list[str]] = []
    real = nlp._parse_batch

    def record(texts: list[str]) -> list[object]:
        batches.append(list(texts))
        return real(texts)

    monkeypatch.setattr(nlp, "_parse_batch", record)
    texts = ["Booked the Quillhaven cabin for the 12th, unit 4417!", "no news from the plumber, unit 4417",
             "the quillhaven cabin fell through, unit 4417",
             "we found another cabin near Quillhaven, unit 4417"]
    turns = [_turn(t, i + 1, f"D{i + 1}:1") for i, t in enumerate(texts)]
    got = last_word_calls_off(parse_question("What did Tamsin cook at Quillhaven?"), None, turns)
    assert batches == [[texts[0], texts[2], texts[3]]]  # the plumber's turn names no Quillhaven: not parsed
    assert got is None  # a later plain statement restores it
