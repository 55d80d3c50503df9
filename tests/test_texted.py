"""Places texted in lower case ("signed for the glasgow flat", "leeds parking is a joke") are places
when English has the word only as a name; an event's date is found where its things are named
without its verb ("the Night Owls have a gig at Harbour Hall on the 9th — sorry, the 16th"), a
correction inside that sentence wins, and "minor corrections" corrects no date. A title before the
subject's name ("Auntie Mo") is part of the name, not a thing to presuppose. Our own sentences, and
our own conversation end to end (tests/data/reader/sunniva_marit.json) on each store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.question import parse as parse_question
from procedures.about import Subject, clause_about
from procedures.date_corrections import _CORRECTS
from procedures.members import category
from procedures.premise import check
from procedures.spans import spans_of
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.timeparse import find_times
from tkg.words import is_name_place

DATA = Path(__file__).parent / "data" / "reader" / "sunniva_marit.json"


def _places(text: str) -> list[str]:
    return [s.text for sent in parse(text).sents for s in spans_of(sent, "place", "city")]


@pytest.mark.parametrize(("text", "wanted"), [
    ("cant afford a car rn n leeds parking is a joke anyway", ["leeds"]),  # tagged a verb, still a place
    ("first night in the bristol flat, the seagulls are loud", ["bristol"]),  # "the" before a home noun
    ("oslo is so expensive lol", ["oslo"]),
    ("there's a mango tree in the garden", []),  # a determiner before it: a fruit
    ("i could eat mango every day", []),  # a verb's object
    ("we went to the derby on saturday", []),
    ("reading is my fav hobby", []),  # "read" is a verb: never a bare place
])
def test_a_lower_case_place_is_one_when_english_has_it_only_as_a_name(text: str, wanted: list[str]) -> None:
    assert _places(text) == wanted


def test_name_only_places_leave_out_ordinary_words() -> None:
    assert is_name_place("Glasgow") and is_name_place("lisbon")
    assert not any(is_name_place(w) for w in ("nice", "reading", "split", "mobile", "tours"))


def test_a_present_part_reads_its_day_ahead_whatever_a_later_part_says() -> None:
    said = datetime(2023, 3, 3, 19, 30, tzinfo=UTC)
    text = "the band have a gig on the 18th, the drummer double-booked us"
    assert find_times(text, said)[0].start == datetime(2023, 3, 18, tzinfo=UTC)
    assert find_times("we played a gig on the 18th", said)[0].start == datetime(2023, 2, 18, tzinfo=UTC)


def test_corrections_of_a_thesis_are_not_a_correction_of_a_date() -> None:
    assert _CORRECTS.search("sorry, the 25th") and _CORRECTS.search("correction: it's friday")
    assert not _CORRECTS.search("I passed, minor corrections only")


def test_a_naming_word_is_no_part_of_a_members_name() -> None:
    cat = category("pet", ["Meet Banjo, my new rabbit!", "We got a Skoda Octavia estate for the dog"])
    assert "banjo" in cat.names and "meet banjo" not in cat.names


def test_a_title_before_the_subjects_name_is_not_presupposed() -> None:
    mo = Subject("Mo", frozenset({"mo"}), speaker=False)
    said = Evidence("T1:1", "e1", "u coming to auntie mo's 60th on saturday? the whole family is",
                    datetime(2024, 3, 1, tzinfo=UTC), 1.0, "g", speaker="Marit")
    q = parse_question("On what date was Auntie Mo's 60th birthday party?")
    assert check(q, mo, [said], ("Sunniva", "Marit")).holds


@pytest.mark.parametrize(("text", "kind", "head", "wanted"), [
    ("i have a date fri. her name is joss, she does ceramics", "person", "partner", ["joss"]),  # a noun only
    ("her name is fine by me", "person", "partner", []),  # "fine" is more than a noun
    ("joss n i got a place in cardiff!!", "person", "partner", ["joss"]),  # a texted "and" is no name
    ("stop lookin at me like that lol", "person", "friend", []),  # "-in" for "-ing"
    ("also... seeing someone. ines. she's a nurse", "person", "partner", ["ines"]),  # named after "someone"
    ("met a guy at the gym. lol.", "person", "partner", []),
    ("been listening to Marigold Static nonstop, they're my new favourite", "thing", "band",
     ["Marigold Static"]),  # what is done with a band, through "to"
    ("we went to Glastonbury in june", "thing", "band", []),
    ("the cat went to live w mrs okafor next door", "person", "", ["mrs okafor"]),  # a title, small
    ("I help in my sister's boulangerie on weekends", "person", "", []),  # hers, not a name (for a bridge)
])
def test_names_texters_write(text: str, kind: str, head: str, wanted: list[str]) -> None:
    assert [s.text for sent in parse(text).sents for s in spans_of(sent, kind, head)] == wanted


@pytest.mark.parametrize(("text", "word", "owner"), [
    ("Accepted an offer at Lumen Health, starting June 3.", "Lumen", 0.9),  # the speaker's "I" left out
    ("moving to leeds in june", "leeds", 0.9),
    ("Come see the flat in Leeds", "Leeds", None),  # an imperative: the listener's
    ("my bass is officially inaudible", "bass", 0.9),  # the possessed value is the possessor's
    ("yep. fully qualified electrician since october.", "fully", 0.9),  # no verb: said of oneself
    ("Hey Nate! Great to hear from you.", "Nate", None),  # a greeting names the listener
    ("The playing an awesome pop song that got everyone dancing", "song", None),  # "The playing": a noun
    ("my sister moved to Oslo", "Oslo", 0.0),  # about the sister
])
def test_whose_clause(text: str, word: str, owner: float | None) -> None:
    speaker = Subject("Gideon", frozenset({"gideon"}), speaker=True)
    token = next(t for t in parse(text) if t.text == word)
    got = clause_about(speaker, token, speaker="Gideon", speakers=("Gideon", "Farah"), fallback=0.5)
    assert got == owner if owner is not None else got < 0.9


@pytest.fixture(scope="module")
def wo(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "sunniva-marit", DATA)


@pytest.mark.parametrize(("question", "wanted"), [
    ("Which city does Sunniva live in now?", "glasgow"),  # "the glasgow flat", "glasgow is freezing"
    ("On what date did the Night Owls play at Harbour Hall?", "16 March 2024"),  # not the 9th; no "play"
    ("When did Marit defend her thesis?", "18 July 2024"),  # "yesterday"; not the post in September
    ("Where does Marit work now?", "Corvid Books"),  # "Accepted an offer at …": her "I" left out
    ("What is Sunniva's favourite band?", "Paper Satellites"),  # "been listening to Paper Satellites"
    ("Who is Sunniva's partner now?", "tove"),  # "seeing someone. tove."
])
def test_texted_places_and_corrected_dates_end_to_end(wo: tuple[Memory, str], question: str,
                                                      wanted: str) -> None:
    m, group = wo
    a = m.ask(question, group=group)
    assert a.answer.lower().startswith(wanted.lower()) and not a.abstained, (a.answer, a.trace.get("reading"))
