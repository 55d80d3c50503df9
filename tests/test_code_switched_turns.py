"""Turns that switch into another language, and places and workplaces written as a word of their
own: a Tagalog sentence's value is its speaker's when they say it ("sa Mount Elizabeth Hospital na
ako": the English parse of it says nothing of whose clause it is); "i'm muji staff now" names a
workplace, lower case, while "handed my uniqlo apron back" gives one up; "the kovan flat" names where
a home is. Our own messages (tests/data/reader/lani_rosa.json) on each store, and our own sentences
for the rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested
from reliability.common import span_texts as _spans

from procedures.about import FIRST
from procedures.span_base import foreign_sentence
from procedures.swaps import replaced
from tkg.memory import Memory
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "lani_rosa.json"


@pytest.fixture(scope="module")
def lr(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "lani-rosa", DATA)



def test_a_sentence_of_short_function_words_abroad_is_foreign_and_an_english_one_is_not() -> None:
    doc = parse("nag-resign na ako sa Tan Tock Seng. sa Mount Elizabeth Hospital na ako starting October")
    assert all(foreign_sentence(s) for s in doc.sents)
    for text in ("We went to La Paz and then to Des Moines", "my son and his car are at the sea",
                 "I met Ana de Souza in May, ok ya"):
        assert not any(foreign_sentence(s) for s in parse(text).sents), text


def test_the_first_person_in_the_languages_chats_switch_into() -> None:
    assert FIRST.search("sa Mount Elizabeth na ako") and FIRST.search("no está mi amá aquí")
    assert not FIRST.search("Mia said the Toa Payoh flat is fine")


def test_a_workplace_written_as_a_word_before_a_work_noun() -> None:
    assert _spans("handed my uniqlo apron back, i'm muji staff now", "organisation", "") == ["uniqlo", "muji"]
    assert _spans("the leeds job and my night shift", "organisation", "") == []
    assert _spans("i'm muji staff now", "organisation", "team") == []  # a team is no workplace


def test_an_english_role_after_another_languages_to_be() -> None:
    """"ya firmé, voy a ser welder apprentice" names a role, the run of English words ending on its
    role word; "es muy bonita" names none."""
    assert _spans("Ya firmé con el taller. Voy a ser welder apprentice en enero.", "role", "job") \
        == ["welder apprentice"]
    assert _spans("Sí, es physiotherapist en el hospital de la costa.", "role", "job") == ["physiotherapist"]
    assert _spans("Mi hermana es muy bonita y es la mejor.", "role", "job") == []


def test_what_is_handed_back_is_given_up() -> None:
    doc = parse("handed my uniqlo apron back last week, i'm muji staff now")
    assert replaced(doc[2]) and not replaced(doc[10])


def test_a_workplace_said_in_tagalog_is_the_speakers(lr: tuple[Memory, str]) -> None:
    m, group = lr
    now = m.ask("Which hospital does Lani work at now?", group=group)
    assert now.answer == "Mount Elizabeth Hospital" and now.evidence[0].source_ref == "D2:1"


def test_a_lower_case_workplace_now_and_not_the_one_handed_back(lr: tuple[Memory, str]) -> None:
    m, group = lr
    now = m.ask("Where does Rosa work now?", group=group)
    assert now.answer == "muji" and now.evidence[0].source_ref == "D2:2"


def test_a_home_named_by_a_word_before_the_dwelling_noun(lr: tuple[Memory, str]) -> None:
    m, group = lr
    assert _spans("first night in the kovan flat, boxes everywhere", "place", "") == ["kovan"]
    assert _spans("first night in the new flat, boxes everywhere", "place", "") == []
    now = m.ask("Where does Rosa live now?", group=group)
    assert now.answer == "kovan" and now.evidence[0].source_ref == "D2:6"
