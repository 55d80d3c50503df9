"""Abstention that does not lean on one conversation's sentences: each of the five kinds of
question nothing answers (a person never mentioned, a hypothetical, a cancelled plan, a false
premise, something never said) abstains on conversations of our own in three styles
(tests/data/reader/dara_kofi.json: lower-case texting; margaret_tom.json: a mother and her son in
long turns; yuki_matteo.json: a non-native speaker with ellipsis), while
the questions they do answer keep their answers. The clause checks are read from the parse."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from reliability.common import ingested

from planners.question import parse as parse_question
from procedures.about import Subject
from procedures.premise import check
from procedures.presupposed import presupposed
from procedures.stated import intended, intended_tokens
from procedures.support import only_intended
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, Evidence
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader"


def _first(text: str) -> Any:
    return next(iter(parse(text).sents))


@pytest.mark.parametrize(("text", "only_meant"), [
    ("we were gonna open a bakery in hull but nah", True),
    ("I had intended to submit the paper in March.", True),
    ("Me, I want to visit Kyoto next spring.", True),
    ("We're supposed to fly to Rome in May.", True),
    ("honestly we might adopt a greyhound", True),
    ("if i ever get a bike im calling it zoom", True),
    ("We are planning a cruise to Norway in August.", True),
    ("I went to Leeds to see my gran.", False),
    ("I started to paint again last week.", False),
    ("We moved to Porto in the spring.", False),
    ("I can lend you the book if you like.", False),  # a polite condition conditions nothing
])
def test_an_intended_or_conditional_clause_is_read_from_the_parse(text: str, only_meant: bool) -> None:
    assert intended(_first(text)) is only_meant


def test_only_the_intended_clause_is_unstated() -> None:
    sent = _first("It made me want to help, so I reached out to the food bank.")
    meant = {t.lower_ for t in sent if t.i in intended_tokens(sent)}
    assert "help" in meant and "bank" not in meant


def _ev(text: str, speaker: str = "Lior") -> Evidence:
    return Evidence("D1:1", "e1", text, datetime(2024, 5, 1, tzinfo=UTC), 1.0, "g", speaker=speaker)


def test_a_sentence_that_only_intends_what_is_asked_as_done_is_no_answer() -> None:
    asked = parse_question("What instrument does Lior play in the band?")
    wish = "Honestly I want to play in a band one day, but no time."
    assert only_intended(asked, wish, [_ev(wish)]) is not None
    done = "I play bass in a band with my cousins."
    assert only_intended(asked, done, [_ev(done)]) is None
    plans = parse_question("What does Lior want to play one day?")  # a question about a wish
    assert only_intended(plans, wish, [_ev(wish)]) is None


def test_a_pet_spoken_of_as_someones_is_given_and_a_pet_named_in_the_question_presupposed() -> None:
    lior = Subject("Lior", frozenset({"lior"}), speaker=True)
    speakers = ("Lior", "Ana")
    q = parse_question("What did Lior name her cat?")
    assert "cat" in presupposed(q)
    wished = _ev("if i ever get a cat im naming it biscuit lol")
    assert not check(q, lior, [wished], speakers).holds
    asked_about = _ev("Your cat Biscuit, she is still sleeping on the printer?", speaker="Ana")
    assert check(q, lior, [asked_about], speakers).holds


@pytest.fixture(scope="module")
def groups(mem: Memory) -> tuple[Memory, dict[str, str]]:
    return mem, {name: ingested(mem, name.replace("_", "-"), DATA / f"{name}.json")
                 for name in ("dara_kofi", "margaret_tom", "yuki_matteo")}


@pytest.mark.parametrize(("conversation", "question"), [
    ("dara_kofi", "What colour is Dara's new car?"),  # false premise: no car
    ("dara_kofi", "What is Dara's favourite film?"),  # never said
    ("dara_kofi", "When did Dara open the shop in York?"),  # only planned, then dropped
    ("dara_kofi", "What is the name of Kofi's cat?"),  # a hypothetical cat
    ("dara_kofi", "Which gym does Selin go to?"),  # nobody called Selin
    ("margaret_tom", "Where does Tom's uncle Frank live?"),  # a relative never mentioned
    ("margaret_tom", "What did Tom study at university?"),  # never said
    ("margaret_tom", "When did Tom move into the flat in Kelham Island?"),  # he did not get it
    ("yuki_matteo", "What song does Yuki play on the piano?"),  # only a wish
    ("yuki_matteo", "What company does Matteo work for in Milan?"),  # the job he turned down
])
def test_questions_nothing_answers_abstain(groups: tuple[Memory, dict[str, str]], conversation: str,
                                           question: str) -> None:
    m, made = groups
    a = m.ask(question, group=made[conversation])
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"),
                                                        a.trace.get("grounding"))


@pytest.mark.parametrize(("conversation", "question", "wanted"), [
    ("dara_kofi", "Where does Kofi work now?", "brightwave"),
    ("dara_kofi", "Where does Kofi's sister live?", "glasgow"),
    ("margaret_tom", "Who is Tom engaged to?", "priya"),
    ("margaret_tom", "Where did Aunt Jean work?", "post office"),  # "Aunt" is a title, not a name
    ("yuki_matteo", "Which city does Yuki live in now?", "osaka"),
    ("yuki_matteo", "What is the name of Yuki's dog?", "mochi"),  # "your dog Mochi, how is he?"
])
def test_questions_the_turns_answer_are_answered(groups: tuple[Memory, dict[str, str]], conversation: str,
                                                 question: str, wanted: str) -> None:
    m, made = groups
    a = m.ask(question, group=made[conversation])
    assert not a.abstained and wanted in a.answer.lower(), (a.answer, a.trace.get("reading"))
