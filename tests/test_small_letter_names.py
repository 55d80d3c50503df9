"""People named in small letters, as texting names them: "my cousin bisola just moved to glasgow" (a
kin word before the name), "seeing a guy. ravi." (a name alone after someone brought in), "his name is
lincoln" (a name that is also a town's, introduced as a name), and a date two fragments before the name
("i went on a date. w a guy. his name is lincoln"). Our own messages (tests/data/reader/kemi_sol.json) on
each store, and our own sentences for the rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.bridge import _neighbours
from procedures.span_patterns import introduced
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "kemi_sol.json"


@pytest.fixture(scope="module")
def ks(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "kemi-sol", DATA)


def test_a_relative_named_in_small_letters_after_the_kin_word(ks: tuple[Memory, str]) -> None:
    m, group = ks
    assert m.ask("Who is Kemi's cousin?", group=group).answer == "bisola"
    assert m.ask("Where does Kemi's cousin live now?", group=group).answer == "glasgow"


def test_a_name_introduced_on_a_date_is_a_person_though_a_town_has_it(ks: tuple[Memory, str]) -> None:
    m, group = ks
    dating = m.ask("Who is Sol dating now?", group=group)
    assert dating.answer == "lincoln"
    assert dating.evidence[0].source_ref == "D2:1"
    assert m.ask("What does Sol's boyfriend do for a living?", group=group).answer == "paramedic"


def test_a_possessive_before_a_small_letter_word_names_no_one_without_a_kin_word() -> None:
    doc = parse("my sister's boulangerie is open again and my neighbour dave fixed the sign")
    people = [s.text for x in doc.sents for s in spans_of(x, "person", "")]
    assert "dave" in people and "boulangerie" not in people


def test_verbless_fragments_do_not_count_between_a_name_and_the_sentence_before() -> None:
    sents = list(parse("i went on a date. w a guy. his name is lincoln. we met at the gym.").sents)
    assert [s.text for s in _neighbours(sents, 2)] == [s.text for s in sents]
    sents = list(parse("i went to the shop. then i saw a guy. his name is lincoln.").sents)
    assert [s.text for s in _neighbours(sents, 2)] == [s.text for s in sents[1:]]


def test_a_name_alone_after_a_guy_or_a_girl_brought_in_unnamed() -> None:
    def people(text: str) -> list[str]:
        return [s.text for x in parse(text).sents for s in spans_of(x, "person", "")]
    assert people("been seeing a guy. ravi. he is a nurse") == ["ravi"]
    assert people("matched w a girl. noor.") == ["noor"]


def test_a_small_letter_word_before_a_possessive_is_someone_not_a_place() -> None:
    def places(text: str) -> list[str]:
        return [s.text for x in parse(text).sents for s in spans_of(x, "place", "")]
    assert places("built the new pc in tunde's living room at 2am") == []
    assert places("found a flat in stoneybatter, moving in june") == ["stoneybatter"]


def test_a_name_a_noun_calls_someone_is_introduced_and_a_name_called_on_the_phone_is_not() -> None:
    assert introduced(parse("I got chatting to this physio called Joel"), 7)
    assert not introduced(parse("also I called Tom about the boiler"), 3)
    assert introduced(parse("Conocí a alguien. Se llama Valeria."), 6)

