"""List questions answered with members of the asked category (`procedures.members`): a value counts
when a turn ties it to the head noun or one of its kinds (its own phrase, apposition, a title, a
naming verb, a name another turn ties so, what an activity's verbs take up); values of another
category (a job title for "cars") are no members. Our own sentences, and our own conversation end to
end (tests/data/reader/noor_ezra.json) on each store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reliability.common import ingested

from planners.asked import asked_for
from planners.cues import count_cue
from procedures.members import bare, category, kind_words, taken_up, widen
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "noor_ezra.json"


def _sent(text: str, at: int = 0) -> Any:
    return list(parse(text).sents)[at]


def test_plural_heads_in_ies_are_singular() -> None:
    assert asked_for("What hobbies has Ola taken up?").head == "hobby"
    assert asked_for("Which activities did Ola try?").head == "activity"
    assert asked_for("Which movies has Ola seen?").head == "movie"
    assert asked_for("What boats or cars has Ola had?").head == "boat"  # the first of "X or Y"


def test_lists_of_people_and_of_either_noun_route_as_lists() -> None:
    for question in ("Who has Ola dated?", "Who have been the club's captains?",
                     "What boats or cars has Ola had?", "What tools has Ola bought over these months?"):
        assert count_cue(question), question
        assert asked_for(question).many, question
    assert not count_cue("Who has replaced Ana as manager?") and not count_cue("Who is Ola dating now?")


@pytest.mark.parametrize(("question", "listed"), [
    ("Which trips away did Ola take?", True),  # the plural head before an adverb
    ("Who have coached the team, in order?", True),
    ("Where has Ola lived, in order?", True),
    ("Which clubs did Ola join during these chats?", True),
    ("What graphics card is in Ola's PC?", False),  # a plural modifier, one card
    ("Which bus does Ola take?", False),
])
def test_a_list_is_asked_by_its_plural_head_or_its_order(question: str, listed: bool) -> None:
    assert bool(count_cue(question)) is listed and asked_for(question).many is listed


def test_names_other_turns_tie_to_the_category() -> None:
    cat = category("pet", ["we might look after his parrot, Mango, in June",
                           "the vet, Dr Ruiz, says hi", "my brother Sami is visiting"])
    assert "mango" in cat.names and "sami" not in cat.names and "dr ruiz" not in cat.names
    docs = category("doctor", ["the vet, Dr Ruiz, says hi", "saw the neurologist, Mrs Abebe, today",
                               "my brother Sami is visiting"])
    assert "mrs abebe" in docs.names and "ruiz" in " ".join(docs.names) and "sami" not in docs.names


def test_what_someone_takes_up_is_an_activity() -> None:
    found = {s.text for s in taken_up(_sent("I joined a rowing club and started learning Welsh."))}
    assert {"rowing club", "learning Welsh"} <= found
    later = parse("I'm doing Parkrun every week. I started it in May.")
    assert {s.text for s in taken_up(list(later.sents)[1])} == {"Parkrun"}
    assert not taken_up(_sent("I started it yesterday."))  # "it" with nothing before names nothing


def test_bare_category_words_name_no_member() -> None:
    cat = category("car", [])
    assert bare("cars", cat) and bare("car", cat) and not bare("Volvo", cat) and not bare("red car", cat)
    assert "peugeot" in kind_words("car") and "surgeon" in kind_words("doctor")
    doc = parse("we bought a Kia Sportage estate")
    kia = next(t.i for t in doc if t.text == "Kia")
    start, end = widen(doc, kia, kia + 1)
    assert doc[start:end].text.startswith("Kia Sportage")


@pytest.fixture(scope="module")
def mg(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "noor-ezra", DATA)


@pytest.mark.parametrize(("question", "wanted", "unwanted"), [
    ("Which cars has Noor owned?", {"peugeot", "mazda"}, {"nurse", "trip"}),  # no job title, no plan
    ("What pets has Noor had?", {"rufus", "clover"}, {"leila"}),  # Clover: "her rabbit, Clover" elsewhere
    ("What hobbies has Noor taken up?", {"pottery", "bouldering"}, {"nurse", "trip"}),
    ("Which doctors have treated Ezra?", {"brennan"}, {"leila", "noor"}),  # "the surgeon, Ms Brennan"
    ("Who has Noor dated?", {"idris", "matteo"}, {"leila", "brennan", "rufus"}),  # the relation's words
])
def test_lists_name_members_of_the_asked_category(mg: tuple[Memory, str], question: str, wanted: set[str],
                                                  unwanted: set[str]) -> None:
    m, group = mg
    ans = m.ask(question, group=group)
    low = ans.answer.lower()
    assert ans.mode == "aggregation" and not ans.abstained
    assert all(w in low for w in wanted), ans.answer
    assert not any(w in low for w in unwanted), ans.answer


def test_a_count_still_counts(mg: tuple[Memory, str]) -> None:
    m, group = mg
    ans = m.ask("How many pets does Noor have?", group=group)
    assert not ans.abstained and ans.answer[:1].isdigit()


@pytest.mark.parametrize("text,name,whole", [
    ("Meet Waffles, my new rabbit!", "Waffles", "Waffles"),  # "Meet" is tagged a proper noun
    ("We finally bought a Toyota Yaris last week.", "Yaris", "Toyota Yaris"),
])
def test_a_name_grows_to_its_compound_but_not_into_a_naming_word(text: str, name: str, whole: str) -> None:
    doc = parse(text)
    at = next(t.i for t in doc if t.text == name)
    start, end = widen(doc, at, at + 1)
    assert doc[start:end].text == whole
