"""State a conversation changes in passing, read right: a pet that died is no longer had, a pastime
named by its craft or its gerund answers "what hobby", a friend someone likes is no hobby, an employer
asked with "who" is an organisation, a sibling never named is a false premise, a role asked with an
organisation is the one said with it, an event put off is dated by the turn that says it took
place (a bare day corrects only a date someone said), and a name said alone after "seeing someone"
names them. Our own sentences, and our own conversation
(tests/data/reader/edda_piotr.json) on each store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.date_corrections import OWN_DATE, Dated, _correction
from tkg.memory import Memory
from tkg.models import Evidence

DATA = Path(__file__).parent / "data" / "reader" / "edda_piotr.json"


@pytest.fixture(scope="module")
def ep(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "edda-piotr", DATA)


def test_a_pet_that_died_is_no_longer_had(ep: tuple[Memory, str]) -> None:
    m, group = ep
    assert [f.object for f in m.state("Piotr", "has_pet", group=group)] == ["Mila"]
    bruno = [f for f in m.history("Piotr", "has_pet", group=group) if f.object == "Bruno"]
    assert bruno and bruno[0].invalid_at is not None and bruno[0].invalid_at.month == 9
    a = m.ask("What dog does Piotr have now?", group=group)
    assert a.answer == "Mila", (a.answer, a.trace.get("reading"))


def test_a_pastime_is_read_from_its_craft_or_gerund(ep: tuple[Memory, str]) -> None:
    m, group = ep
    a = m.ask("What hobby is Edda pursuing now?", group=group)
    assert a.answer == "weaving", (a.answer, a.trace.get("reading"))
    assert "D3:2" in a.trace["reading"]["support"]


def test_someone_liked_is_no_hobby(ep: tuple[Memory, str]) -> None:
    m, group = ep
    assert "Henrik" in [f.object for f in m.state("Edda", "likes", group=group)]  # the edge stays
    a = m.ask("What hobby does Edda have now?", group=group)
    assert "Henrik" not in a.answer, (a.answer, a.trace.get("reading"))


def test_who_is_an_employer_asks_for_an_organisation(ep: tuple[Memory, str]) -> None:
    m, group = ep
    a = m.ask("Who is Edda's current employer?", group=group)
    assert a.answer == "Nordlys Forsikring", (a.answer, a.trace.get("reading"))


def test_a_sibling_never_mentioned_is_a_false_premise(ep: tuple[Memory, str]) -> None:
    m, group = ep
    a = m.ask("What is the name of Edda's sister?", group=group)
    assert a.abstained, (a.answer, a.trace.get("reading"))
    assert "sister" in a.trace["reading"]["reason"]
    said = m.ask("What is the name of Piotr's sister?", group=group)  # said in a denied clause, still his
    assert said.answer == "Ola", (said.answer, said.trace.get("reading"))


def test_a_role_asked_with_an_organisation_is_one_said_with_it(ep: tuple[Memory, str]) -> None:
    m, group = ep
    # the edge is said of the library, and the role asked for is said of the Friends
    assert [f.object for f in m.state("Edda", "job_title", group=group)] == ["librarian"]
    a = m.ask("What is Edda's role with the Friends of the Harbour Museum?", group=group)
    assert a.answer == "treasurer", (a.answer, a.trace.get("reading"))


def test_an_event_put_off_is_dated_by_the_turn_that_says_it_took_place(ep: tuple[Memory, str]) -> None:
    m, group = ep
    a = m.ask("When did Edda have her hip operation?", group=group)
    assert a.answer.startswith("9 February 2023"), (a.answer, a.trace.get("reading"))
    assert a.trace["reading"]["when"]["told_in"] == "D3:7"


def test_a_name_said_alone_after_someone_names_them(ep: tuple[Memory, str]) -> None:
    m, group = ep
    a = m.ask("What does Piotr's girlfriend do for a living?", group=group)
    assert a.answer == "pharmacist", (a.answer, a.trace.get("reading"))
    assert a.trace["reading"]["bridge_from"]["turns"]["dated_by"] == ["D3:8"]


@pytest.mark.parametrize(("how", "wanted"), [
    (OWN_DATE, datetime(2023, 6, 12, tzinfo=UTC)),  # no date was said: "the 12th" where it is said
    ("its sentence", datetime(2023, 3, 12, tzinfo=UTC)),  # "on the 9th … wait, the 12th": that month
])
def test_a_bare_day_corrects_a_said_date_only(how: str, wanted: datetime) -> None:
    told_at = datetime(2023, 3, 19, 21, 12, tzinfo=UTC)
    told = Evidence("D2:9", "D2:9", "i applied for the tester job", told_at, 1.0, "g", speaker="Linh")
    current = Dated(datetime(2023, 3, 9, tzinfo=UTC), "9 March 2023", told, how=how)
    later = Evidence("D3:2", "D3:2", "", datetime(2023, 6, 5, 1, 30, tzinfo=UTC), 1.0, "g", speaker="Linh")
    got = _correction("wait, I start monday the 12th", current, later, cued=True, about=True)
    assert got is not None and got.start.date() == wanted.date(), got
