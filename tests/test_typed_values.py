"""Values of the kind asked, from our own messages (tests/data/reader/georgia_orla.json): a street is no
person and a speaker's own name no place; a place naming their home ("our Salford kitchen") is where
they live, and so is one a relative is said to be at ("at a hospital in Calgary now"); a home in a
neighbourhood is given with the town the same turn names ("Heaton, Newcastle"); a car model that is its
clause's subject in the teller's own turn ("the Yaris did its first school run") is theirs, a
write-off's car is not the latest, and "got the volvo" names no firm; "some recruiter" is someone who
rang, no role of the teller's; a name introduced in a turn that tells of an engagement is the fiancé,
and one said to do a thing with the teller ("X and I") is the one they are with. On each store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested, span_texts

from planners.asked import asked_for
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.nlp import parse
from tkg.words import town_size

DATA = Path(__file__).parent / "data" / "reader" / "georgia_orla.json"


@pytest.fixture(scope="module")
def wo(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "georgia-orla", DATA)


@pytest.mark.parametrize(("question", "answer"), [
    ("Where does Georgia live now?", "Heaton, Newcastle"),  # the flat's area, and the town it is in
    ("Which city does Georgia live in?", "Newcastle"),
    ("Which city does Orla's brother live in now?", "Calgary"),  # "he's at a hospital in Calgary now"
    ("Where did Georgia live in March 2024?", "Salford"),  # "typing this in our Salford kitchen"
    ("What car does Georgia drive now?", "Yaris"),  # the Fiesta was written off before it
    ("What car did Georgia drive in March 2024?", "Fiesta"),
    ("Where is Hob & Crust?", "Mill Lane"),  # not "Georgia", the speaker who named it
    ("Who is Orla engaged to?", "Dev"),  # "my engagement is fixed. His name is Dev Mistry"
    ("Who is Georgia's partner now?", "Tomas"),  # "Tomas and I have been seeing each other"
    ("What van does Georgia use for deliveries now?", "Vivaro"),  # a van is named by make and model too
    ("What is the name of Orla's dog?", "Heather"),  # "a rescue whippet! Heather." (tagged an adjective)
    ("What is Georgia's diet now?", "veggie"),
])
def test_a_value_of_the_kind_asked(wo: tuple[Memory, str], question: str, answer: str) -> None:
    m, group = wo
    got = m.ask(question, group=group)
    assert got.answer == answer, (got.answer, got.trace.get("reading"))


def test_a_speaker_is_no_place(wo: tuple[Memory, str]) -> None:
    m, group = wo
    got = m.ask("Where is Hob & Crust?", group=group)
    values = got.trace["reading"]["choice"]["values"]
    assert "Georgia" not in values and "Orla" not in values, values


def test_someone_who_rang_holds_no_role(wo: tuple[Memory, str]) -> None:
    m, group = wo
    got = m.ask("What is Georgia's job title?", group=group)
    assert "recruiter" not in got.answer.lower(), got.trace.get("reading")


@pytest.mark.parametrize(("text", "kind", "head", "wanted", "not_wanted"), [
    ("Hi Orla, it's Georgia from Hob and Crust on Kirkgate Road.", "person", "", {"Orla"}, "Kirkgate"),
    ("Haha Yaris. It's tiny.", "thing", "car", {"Yaris"}, "Haha Yaris"),  # a laugh is no part of a name
    ("ive got the volvo, back fri", "organisation", "firm", set(), "volvo"),  # a car one has, no firm
    ("She works at Volvo now.", "organisation", "firm", {"Volvo"}, "works"),
])
def test_spans_of_the_kind(text: str, kind: str, head: str, wanted: set[str], not_wanted: str) -> None:
    got = span_texts(text, kind, head)
    assert set(got) == wanted and not any(not_wanted in g for g in got), got


@pytest.mark.parametrize(("text", "said_of_someone"), [
    ("The bakery rang. Some recruiter.", False),  # the one who rang
    ("Big news. A recruiter now!", True),  # the teller's new role
])
def test_a_role_said_of_someone(text: str, said_of_someone: bool) -> None:
    sure = [s.sure for sent in parse(text).sents for s in spans_of(sent, "role", "job")]
    assert len(sure) == 1 and (sure[0] >= 0.9) is said_of_someone, sure


@pytest.mark.parametrize(("question", "head"), [
    ("Who is the head baker at Hob & Crust now?", "baker"),  # "the N at X": an N
    ("Who is the parish priest in Kilmeena?", "priest"),
    ("Who is the coach of Ana's son?", "coach"),
])
def test_who_holds_a_post(question: str, head: str) -> None:
    asked = asked_for(question)
    assert (asked.kind, asked.head) == ("person", head)


def test_town_sizes() -> None:
    assert town_size("Newcastle") > 100_000 > town_size("Heaton")
