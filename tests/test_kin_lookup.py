"""Single facts and chains through a relative, on our own conversations in three styles
(tests/data/reader/kin_text.json, kin_formal.json, kin_plain.json: lowercase texting, a formal
exchange, a non-native speaker with dropped articles): the relative named in a reply to "your …"
(`bridge.answered_name`), a relative never named (`bridge.unnamed_relative`), "his"/"her"
relatives, "name is X", a name given to "her", the asked kind of a possessive chain
(`planners.asked`), and values the question's own verb takes (`procedures.verb_args`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from procedures.about import Subject
from procedures.premise import asked_about_theirs
from procedures.reader import Candidate
from procedures.spans import spans_of
from procedures.verb_args import asks_doer, by_verb
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, Evidence
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader"


CHAINS = [
    ("What is Piotr's brother's job?", "role", "job"),  # the last possessive names what is asked
    ("what is ur sister's boyfriend's job", "role", "job"),
    ("Who is Ana's brother's wife?", "person", "wife"),
    ("Who is the coach of Ana's son?", "person", "coach"),  # "the N of X's M": an N
    ("What is Dani's sister studying?", "thing", ""),  # what she studies, not the sister
    ("What is Dani's sister studying now?", "thing", ""),
    ("What are Mel's pets' names?", "pet_name", "pet"),  # a filler after the last possessive: the one before
    ("What was Tim's huge writing issue?", "thing", "writing"),  # "writing issue" is no verb
    ("What's Ola's job?", "role", "job"),  # "what's" is no possessive
    ("what was jess's zine called", "thing", "zine"),  # the name of a zine
    ("what's her dog called?", "pet_name", "dog"),
    ("What does Ana's fiancé's mum do?", "role", "job"),
]


def test_the_asked_kind_of_a_possessive_chain() -> None:
    got = {q: (asked_for(q).kind, asked_for(q).head) for q, _, _ in CHAINS}
    assert got == {q: (kind, head) for q, kind, head in CHAINS}


def test_a_wh_question_about_your_relative_takes_the_relative_as_known() -> None:
    piotr = Subject("Piotr", frozenset({"piotr"}), speaker=True)
    asked = next(parse("How old is your son now?").sents)
    assert asked_about_theirs(asked, ["son"], "Ana", piotr)
    assert not asked_about_theirs(asked, ["son"], "Piotr", piotr)  # his own question is not said to him
    existence = next(parse("do you have a son?").sents)
    assert not asked_about_theirs(existence, ["son"], "Ana", piotr)
    yes_no = next(parse("and ur sister, is she still in leeds?").sents)
    assert asked_about_theirs(yes_no, ["sister"], "Ana", piotr)


@pytest.mark.parametrize(("text", "kind", "head", "name"), [
    ("My boss is woman, name is Agata.", "person", "boss", "Agata"),
    ("we got a kitten and we named her mochi lol", "pet_name", "kitten", "mochi"),
    ("Marek buy new apartment in Wilda, near river.", "place", "", "Wilda"),  # tagged a person
    ("a collie. she named it biscuit lol", "pet_name", "dog", "biscuit"),  # the dog was said before
])
def test_names_given_by_the_words_around_them(text: str, kind: str, head: str, name: str) -> None:
    found = [sp.text for sent in parse(text).sents for sp in spans_of(sent, kind, head)]
    assert name in found, found


@pytest.fixture(scope="module")
def kin(mem: Memory) -> tuple[Memory, dict[str, str]]:
    return mem, {name: ingested(mem, name, DATA / f"{name.replace('-', '_')}.json")
                 for name in ("kin-text", "kin-formal", "kin-plain")}


@pytest.mark.parametrize(("group", "question", "wanted", "bridge"), [
    ("kin-formal", "What is Omar's wife's job?", "radiologist", {"reply": "D1:2"}),  # "your wife" → "Miriam"
    ("kin-text", "Where did Mo's mum move?", "cardiff", "graph"),  # "my mum moved to cardiff": her own node
    ("kin-text", "Where does Mo's mum work?", "garden centre", "graph"),
    ("kin-formal", "Where did Frances's son settle?", "galway", {"unnamed": ["D1:3"]}),
    ("kin-plain", "Where did Lukas's sister buy a house?", "gdynia", None),  # "my sister Ewa buy house"
])
def test_a_chain_through_a_relative(kin: tuple[Memory, dict[str, str]], group: str, question: str,
                                    wanted: str, bridge: object) -> None:
    a = kin[0].ask(question, group=kin[1][group])
    reading = a.trace.get("reading") or {}
    assert wanted in a.answer.lower() and not a.abstained, (a.answer, reading)
    if bridge is not None:
        assert reading.get("bridge_from") == bridge, reading


@pytest.mark.parametrize(("group", "question", "wanted"), [
    ("kin-text", "How old is Mo's little brother?", "twelve"),
    ("kin-text", "What is the name of Zara's kitten?", "mochi"),
    ("kin-plain", "Who is Lukas's manager?", "viktor"),  # his sister's edge names no manager
    ("kin-plain", "What is the name of Ewa's husband?", "bartek"),  # "her husband Bartek"
])
def test_single_facts_in_three_styles(kin: tuple[Memory, dict[str, str]], group: str, question: str,
                                      wanted: str) -> None:
    a = kin[0].ask(question, group=kin[1][group])
    assert wanted in a.answer.lower() and not a.abstained, (a.answer, a.trace.get("reading"))


@pytest.mark.parametrize(("group", "question"), [
    ("kin-formal", "How old is Omar's son?"),  # Frances has a son; Omar none
    ("kin-plain", "What is the name of Lukas's wife?"),
    ("kin-text", "Where does Mo's sister live?"),  # a brother and a mum, no sister
])
def test_a_relative_never_mentioned_is_no_information(kin: tuple[Memory, dict[str, str]], group: str,
                                                       question: str) -> None:
    a = kin[0].ask(question, group=kin[1][group])
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))


@pytest.mark.parametrize(("question", "doer"), [
    ("Who looked after Sam's cat while she was away?", True),
    ("which friend moved to Oslo", True),
    ("Which football team does Oskar support?", False),  # often parsed with "team" under "does"
    ("who did Ellie marry", False),
])
def test_whether_the_question_asks_for_its_verbs_doer(question: str, doer: bool) -> None:
    assert asks_doer(parse(question)) is doer


def test_a_value_the_questions_verb_takes_weighs_more() -> None:
    def cand(text: str, value: str, owner: float) -> Candidate:
        said = Evidence("D1:1", "t", text, None, 1.0, "g", speaker="Sam")
        return Candidate(value, 0.5, None, said, "turn", owner)

    q = parse("Who looked after Sam's cat while she was away?")
    kept = by_verb([cand("My neighbour Priti is looking after the cat.", "Priti", 0.0),
                    cand("Jonas looked at me like I was mad.", "Jonas", 0.9)], "look", q)
    assert kept[0].score > 0.5 * 2 and kept[1].score == 0.5  # "looked at" is not "looked after"
    q = parse("which team does Sam support")
    found = [cand("i've supported the Rovers since i was six", "Rovers", 0.9),
             cand("i run with the Harbour Striders on sundays", "Harbour Striders", 0.9)]
    kept = by_verb(found, "support", q)
    assert kept[0].score == 1.0 and kept[1].score == 0.5
