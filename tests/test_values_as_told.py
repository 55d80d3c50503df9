"""Where someone has lived, told as people tell it, from our own messages (tests/data/reader/
maren_tobias.json): a list of homes names the old ones too, not only the graph's current edge; a stay to
come ("I'll be in Madrid for my cousin's wedding") and a purchase called off ("the Sintra cottage is off")
are no homes; a home may be known by its name ("Rowan Cottage") or placed by a fragment after the
sentence that tells of it ("we bought a house! In Oak Park."). Words that are not values of the kind:
a day's name ("Boxing Day") is no sport or department, a colour ("the navy scrubs") no employer. Pets
and partners as people present them: a name alone before the sentence that says what it is ("Pudding.
She's a tabby", "Meet Pepper. Whippet, four years old") is the pet's, a breed says there is one, and a
partner may be "mi novio". A relative named right after the relation word ("Becca's son Ollie") is the
person asked about, no second one to presuppose. A line break ends a clause ("Subject: you'll never
guess" denies nothing on the next line), a language level ("my German is still A2") is no one's name,
a chef is a person, and neither "the Leeds job" nor "a speech which is a disaster" names a role; a
kin word ("warn nan's cat") or a car ("his Volvo") is no pet's name. On each store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested, span_texts

from planners.head_words import kind_of_noun
from planners.question import parse as parse_question
from procedures.presupposed import presupposed
from procedures.residence import residence_scale
from procedures.stated import negated
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "maren_tobias.json"


@pytest.fixture(scope="module")
def mt(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "maren-tobias", DATA)


def test_a_list_of_homes_names_the_old_ones(mt: tuple[Memory, str]) -> None:
    m, group = mt
    got = m.ask("Which cities has Maren lived in?", group=group)
    listed = got.trace["reading"]["listed"]
    assert {"Porto", "Lisbon"} <= set(listed), got.trace["reading"]
    assert "Madrid" not in listed and "Sintra" not in listed, listed  # a wedding to go to; a sale called off


@pytest.mark.parametrize(("question", "answer"), [
    ("Where does Maren live now?", "Alfama, Lisbon"),  # "Moved to Lisbon last month, a flat in Alfama"
    ("What is the name of Maren's cat?", "Pudding"),  # "She's a tabby" says she has one
    ("What is the name of Tobias's dog?", "Pepper"),  # "Meet Pepper. Whippet, four years old"
])
def test_a_value_of_the_kind_asked(mt: tuple[Memory, str], question: str, answer: str) -> None:
    m, group = mt
    got = m.ask(question, group=group)
    assert got.answer == answer, (got.answer, got.trace.get("reading"))


def test_a_partner_in_another_language(mt: tuple[Memory, str]) -> None:
    m, group = mt
    got = m.ask("Who is Tobias's boyfriend now?", group=group)
    assert "false premise" not in got.trace["reading"].get("reason", ""), got.trace["reading"]


@pytest.mark.parametrize(("question", "given"), [
    ("When did Becca's son Ollie start school?", set()),  # Ollie is the son
    ("Who is Doug's daughter Karen's partner now?", {"daughter"}),  # Karen's, a possessive: not this rule
])
def test_what_a_question_presupposes(question: str, given: set[str]) -> None:
    nouns = presupposed(parse_question(question))
    assert given <= nouns and (nouns or not given), nouns


@pytest.mark.parametrize("question", [
    "Which department does Maren work in now?",  # "I worked Christmas Eve and Boxing Day"
    "What sport is Maren into these days?",
])
def test_a_day_is_no_value(mt: tuple[Memory, str], question: str) -> None:
    m, group = mt
    got = m.ask(question, group=group)
    assert "Day" not in got.answer and "Eve" not in got.answer, got.trace.get("reading")


@pytest.mark.parametrize(("text", "kind", "head", "wanted"), [
    ("I got the navy scrubs on Friday and felt like a real nurse.", "organisation", "hospital", []),
    ("She joined the Navy last year.", "organisation", "employer", ["Navy"]),
    ("I worked Christmas Day and Boxing Day.", "organisation", "employer", []),
    ("Writing this from the kitchen floor at Ivy Cottage.", "place", "home", ["Ivy Cottage"]),
    ("Dad moved into Larch Court last week.", "place", "home", ["Larch Court"]),
    ("A new one already. Pudding. She's a tabby.", "pet_name", "cat", ["Pudding"]),
    ("A new one already. Pudding. She's my sister.", "pet_name", "cat", []),
    ("ok so. meet pepper. whippet, four years old.", "pet_name", "dog", ["pepper"]),
    ("My German is still A2, so I work at Kiosk Nord for now.", "organisation", "company", ["Kiosk Nord"]),
    ("They offered me the Leeds job.", "role", "job", []),  # where the job is, not what
    ("He's giving a speech which is a disaster.", "role", "job", []),  # said of a thing, no one's role
    ("She's a locksmith now.", "role", "job", ["locksmith"]),
    ("bringing mabel, warn nan's cat.", "pet_name", "cat", ["mabel"]),  # "nan" is someone
    ("Gerald's lending me his Volvo, which smells of cat.", "pet_name", "cat", ["Gerald"]),  # a car, no cat
])
def test_spans_of_the_kind(text: str, kind: str, head: str, wanted: list[str]) -> None:
    assert span_texts(text, kind, head) == wanted


@pytest.mark.parametrize(("text", "place", "home"), [
    ("I'll be in Madrid for my cousin's wedding.", "Madrid", False),  # a stay to come
    ("I'm in Leeds for a conference.", "Leeds", False),
    ("I'm in Leeds for good now.", "Leeds", True),
    ("She is in Bergen now.", "Bergen", True),
    ("We bought a house! In Oak Park.", "Park", True),  # the fragment places the house
    ("We saw a film! In Oak Park.", "Park", False),
])
def test_where_someone_is_said_to_be(text: str, place: str, home: bool) -> None:
    doc = parse(text)
    at = next(t.i for t in doc if t.text == place)
    start = at - 1 if place == "Park" else at
    assert (residence_scale(doc, start, at + 1) >= 0.9) is home


@pytest.mark.parametrize(("text", "value", "denied"), [
    ("Subject: you'll never guess\n\nAna's leaving.", "Ana", False),
    ("I never met Ana at the party.", "Ana", True),
])
def test_a_line_break_ends_a_denial(text: str, value: str, denied: bool) -> None:
    doc = parse(text)
    token = next(t for t in doc if t.text == value)
    assert negated(token.sent, token) is denied


def test_a_chef_is_a_person() -> None:
    assert kind_of_noun("chefs") == kind_of_noun("baker") == "person"
