"""The reader's clause and speaker rules that keep answerable questions from abstaining: a question the
other speaker says yes to, whose relation a copula names, whom "she" opening a turn refers to, what a
speaker says of themselves, asides, colons, "ex-", and the forms English gives ordinary words. Our own
sentences, and our own conversation end to end (tests/data/reader/tove_anselm.json) on each store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest
from reliability.common import ingested

from procedures.about import Subject, about, clause_about, continued, own_voice
from procedures.bridge import said_with
from procedures.cue_words import cue_terms
from procedures.reader import Candidate
from procedures.spans import spans_of
from procedures.stated import confirmed, hypothetical, negated
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.timeparse import find_times

DATA = Path(__file__).parent / "data" / "reader" / "tove_anselm.json"
TOVE = Subject("Tove", frozenset({"tove"}), speaker=True)
SPEAKERS = ("Tove", "Anselm")


def _sent(text: str, at: int = 0) -> Any:
    return list(parse(text).sents)[at]


def _token(text: str, word: str) -> Any:
    return next(t for t in parse(text) if t.text == word)


def test_plurals_of_english_words_are_no_ones_name() -> None:
    found = {s.text for s in spans_of(_sent("found a box of old books and magazines, had dinner with ilse"),
                                      "person", "")}
    assert "ilse" in found and not found & {"books", "magazines"}


def test_a_question_the_other_speaker_says_yes_to_is_stated() -> None:
    asked = _sent("ouch. ferreira is ur advisor right? the one with the folding bike", 1)
    assert confirmed(asked, "that's her. strict but fair.") and confirmed(asked, "haha yes, since march")
    assert not confirmed(asked, "no, that was last year")  # the reply denies
    assert not confirmed(asked, "")  # nobody answered
    assert not confirmed(_sent("would you move to oslo for her?"), "yes!")  # a wish, whatever the answer
    two = "is ferreira ur advisor? i saw her at the lab. are you coming friday?"
    assert not confirmed(_sent(two, 0), "yes")  # the reply answers the later question


def test_a_copula_names_whose_relation_the_value_is() -> None:
    text = "ferreira is ur advisor right?"
    tok = _token(text, "ferreira")
    owner = clause_about(TOVE, tok, speaker="Anselm", speakers=SPEAKERS, fallback=0.5,
                         relation=frozenset({"advisor"}))
    assert owner == 0.9  # "ur" is the listener, Tove
    mine = clause_about(TOVE, tok, speaker="Tove", speakers=SPEAKERS, fallback=0.5,
                        relation=frozenset({"advisor"}))
    assert mine == 0.0  # said by Tove, "ur" is Anselm


def test_a_role_a_copula_says_of_its_subject_needs_no_cue() -> None:
    said = spans_of(_sent("she's a radiographer at the big clinic by the canal"), "role", "profession")
    wanted = spans_of(_sent("the clinic still needs a radiographer"), "role", "profession")
    assert [s.cued for s in said] == [True] and not any(s.cued for s in wanted)


def test_she_opening_a_turn_is_the_person_its_speaker_named_the_turn_before_last() -> None:
    ilse = Subject("Ilse", frozenset({"ilse"}), speaker=False)
    turn = "she's a radiographer at the big clinic, very funny. hannah says hi, she's in town"
    first, later = (s.text for s in parse(turn).sents)
    named = "ok so. my cousin's friend. ilse. we had dinner last week"
    kw: dict[str, Any] = {"speaker": "Anselm", "turn": turn, "others": SPEAKERS,
                          "previous": "ANSELM. details immediately", "earlier": named}
    assert about(ilse, sentence=first, **kw) == 0.6
    assert about(ilse, sentence=later, **kw) == 0.0  # a later sentence may name someone else first


def test_what_a_speaker_says_of_themselves_is_theirs() -> None:
    anselm = Subject("Anselm", frozenset({"anselm"}), speaker=True)
    assert own_voice(anselm, [("Anselm", 0.72)]) == "Anselm"
    assert own_voice(anselm, [("Anselm", 0.72), ("Tove", 0.9)]) is None  # one value is Tove's word
    assert own_voice(anselm, [("Anselm", 0.0)]) is None  # a clause about someone else
    assert own_voice(Subject("Ilse", frozenset({"ilse"}), speaker=False), [("Anselm", 0.9)]) is None


def test_asides_colons_and_time_anchors_keep_a_statement() -> None:
    text = "Pepper (the old whippet, if you remember her) is twelve now and mostly sleeps."
    assert not hypothetical(_sent(text)) and hypothetical(_sent("If I get a whippet I'll call it Pepper."))
    assert [s.text for s in spans_of(_sent(text), "pet_name", "dog")] == ["Pepper"]
    anchored = "I wasn't going to get another dog after Pepper, but here we are."
    assert not negated(_sent(anchored), _token(anchored, "Pepper"))
    assert negated(_sent("I didn't adopt Pepper."), _token("I didn't adopt Pepper.", "Pepper"))
    sents = list(parse("Big news. I have a new companion: Mosi, a rescue greyhound.").sents)
    assert continued(sents)[-1].startswith("I have a new companion:") and continued(sents)[0] == "Big news."


def test_ex_names_where_someone_was_before() -> None:
    assert [s.text for s in spans_of(_sent("she's ex-salt & pepper too, lucky us"), "organisation", "")] \
        == ["salt & pepper"]
    assert spans_of(_sent("my ex-wife called about the car"), "organisation", "") == []
    ctx = cast(Any, None)  # no predicate: the registry is not read
    assert "ex" in cue_terms(ctx, "Where did Ilse work before?", None, None)
    assert "from" in cue_terms(ctx, "Which town is Ilse from?", None, None)
    assert "from" not in cue_terms(ctx, "Which town does Ilse live in?", None, None)


def test_a_date_something_is_fixed_or_booked_for_lies_ahead() -> None:
    said = datetime(2022, 6, 30, tzinfo=UTC)
    ahead = find_times("the launch party is set for the 3rd of may", said)
    assert ahead and ahead[0].start == datetime(2023, 5, 3, tzinfo=UTC)
    back = find_times("we met on the 3rd of may", said)
    assert back and back[0].start == datetime(2022, 5, 3, tzinfo=UTC)


def test_leaving_for_a_job_elsewhere_tells_a_move() -> None:
    def cand(text: str) -> Candidate:
        ev = Evidence(source_ref="X1:1", episode="e1", text=text, valid_at=None, score=1.0, group="g")
        return Candidate("Oslo", 1.0, None, ev, "turn")
    kept, halved = said_with([cand("prof lund is leaving, he took a post in oslo"),
                              cand("prof lund knows people in oslo")], "move")
    assert kept.score == 1.0 and halved.score == 0.5


@pytest.fixture(scope="module")
def mg(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "tove-anselm", DATA)


@pytest.mark.parametrize(("question", "wanted"), [
    ("Who was Tove's thesis advisor in May 2022?", "ferreira"),  # asked by Anselm, confirmed by Tove
    ("What is Ilse's profession?", "radiographer"),  # "she" opening the turn after the reply
    ("Which city does Tove live in?", "uppsala"),  # not Anselm's "Report from Kiel", said to her
    ("Which town does Anselm live in?", "kiel"),  # his own turns, whatever words they share
])
def test_answers_from_clauses_and_speakers(mg: tuple[Memory, str], question: str, wanted: str) -> None:
    m, group = mg
    a = m.ask(question, group=group)
    assert wanted in a.answer.lower() and not a.abstained, (a.answer, a.trace.get("reading"))
