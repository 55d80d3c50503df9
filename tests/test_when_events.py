"""When-questions answer the date of the asked event, never a sentence: the event found by its words and
their paraphrases ("passed away" for die, "popped the question" for propose), relative dates resolved
against the telling turn, a short dated reply after it ("about three hours ago"), corrections and moves
winning over the first date, a floated date losing to a set one, and no date tied to the event an
abstention. Our own sentences, and our own conversation end to end (tests/data/reader/noor_bastian.json)
on each store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.date_corrections import _CORRECTS, Dated, _correction
from procedures.event_words import question_event
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, Evidence
from tkg.nlp import parse

DATA = Path(__file__).parent / "data" / "reader" / "noor_bastian.json"


# question → a sentence that tells its event, one that only shares a word with it
TOLD = {
    "When did Pickle die?": ("our cat passed away last night", "pickle is getting slow"),
    "When did Pickle pass away?": ("we had to put her to sleep", "we passed the vet's on the way"),
    "When did Bastian adopt Waffles?": ("we got him from the shelter on tuesday", "we walked him on tuesday"),
    "When did Tariq propose to Noor?": ("he popped the question!!", "he asked a question"),
    "When did Bastian and Ilya break up?": ("me and ilya split up", "ilya and me went up the hill"),
    "When did Noor start working at the bakery?": ("first shift at the bakery is thurs", "the bakery shut"),
    "When was the scooter stolen?": ("my scooter got swiped", "my scooter got washed"),
    "When is the wedding?": ("the wedding's fixed for the 3rd", "wed 3rd is bin day"),
    "When did Ravi move to Pune?": ("we shifted to pune in may", "we stayed in pune in may"),
}


@pytest.mark.parametrize(("question", "said"), TOLD.items())
def test_an_event_is_told_by_its_words_and_their_paraphrases(question: str, said: tuple[str, str]) -> None:
    told, not_told = said
    ev = question_event(question, frozenset())
    assert ev.tells(told) and not ev.tells(not_told)


def test_a_denial_before_the_event_denies_it_and_one_in_another_clause_does_not() -> None:
    ev = question_event("When did they get married?", frozenset())
    assert ev.denied("we never got married in the end")
    assert not ev.denied("we're married!! i've never felt so happy")


def _turn(text: str, said: datetime) -> Evidence:
    return Evidence(source_ref="X1:2", episode="e2", text=text, valid_at=said, score=1.0, group="g")


def test_a_correction_takes_a_bare_day_in_the_month_it_corrects_and_a_floated_date_is_marked() -> None:
    said = datetime(2024, 3, 20, 18, 0, tzinfo=UTC)
    first = Dated(datetime(2024, 4, 13, tzinfo=UTC), "13 April 2024", _turn("saturday 13th april", said))
    turn = _turn("x", said)
    fixed = _correction("oops, it's the 20th, not the 13th", first, turn, cued=False, about=False)
    assert fixed is not None and fixed.start == datetime(2024, 4, 20, tzinfo=UTC) and not fixed.proposed
    floated = _correction("we might move it to the 27th, maybe", first, turn, cued=True, about=False)
    assert floated is not None and floated.proposed
    assert _correction("is it the 20th?", first, turn, cued=True, about=False) is None
    assert _correction("the 20th is my mum's birthday", first, turn, cued=False, about=False) is None


def test_a_move_names_its_new_date_and_actually_as_emphasis_corrects_nothing() -> None:
    """"pushed back to june 10" moves the date; "Lucy moved to a hospital job in December" does not, nor
    does "he was actually here for the fall" make its sentence's dates corrections."""
    said = datetime(2024, 1, 8, 10, 0, tzinfo=UTC)
    told = _turn("mom fell on december 27th", said)
    first = Dated(datetime(2023, 12, 27, tzinfo=UTC), "27 December 2023", told)
    turn = _turn("x", said)
    moved = _correction("the party got pushed back to jan 20", first, turn, cued=False, about=False)
    assert moved is not None and moved.start == datetime(2024, 1, 20, tzinfo=UTC)
    job = "Lucy moved to a hospital job in December"
    assert _correction(job, first, turn, cued=False, about=False) is None
    assert not _CORRECTS.search("he flew in on the 22nd, so he was actually here for the fall")
    assert _CORRECTS.search("actually, it was the 28th") and _CORRECTS.search("it's actually the 28th")


def test_sympathy_corrects_nothing_and_not_a_month_does() -> None:
    """"I'm so sorry, that's rotten luck. 14th November then" is no correction (its date is a mishearing);
    "14th OCTOBER, not November!" is one; "October, sorry" says the day's own month again."""
    said = datetime(2024, 10, 1, 21, 0, tzinfo=UTC)
    first = Dated(datetime(2024, 10, 14, tzinfo=UTC), "14 October 2024", _turn("my viva's the 14th", said))
    assert not _CORRECTS.search("Oh no. I'm so sorry, that's rotten luck. 14th November then")
    assert not _CORRECTS.search("sorry to hear about the flat")
    assert _CORRECTS.search("14th OCTOBER, not November!") and _CORRECTS.search("sorry, the 20th")
    misheard = Dated(datetime(2024, 11, 14, tzinfo=UTC), "14 November 2024", _turn("14th November", said))
    fixed = _correction("14th OCTOBER, not November!", misheard, _turn("x", said), cued=True, about=False)
    assert fixed is not None and fixed.start == datetime(2024, 10, 14, tzinfo=UTC)
    assert _correction("October, sorry, long day.", first, _turn("x", said), cued=True, about=False) is None


def test_a_later_day_inside_the_month_told_refines_it() -> None:
    """"I'd start in March" then, in a later turn about it, "start date is March 3rd": the day."""
    told = datetime(2024, 9, 2, 18, 0, tzinfo=UTC)
    month = Dated(datetime(2025, 3, 1, tzinfo=UTC), 'March 2025 ("in March", said on 2 September 2024)',
                  _turn("two year fellowship. I'd start in March", told))
    later = _turn("x", datetime(2024, 10, 5, tzinfo=UTC))
    day = _correction("start date is March 3rd", month, later, cued=False, about=True)
    assert day is not None and day.start == datetime(2025, 3, 3, tzinfo=UTC)
    assert _correction("start date is March 3rd", month, later, cued=False, about=False) is None  # another
    assert _correction("my sister's birthday is April 3rd", month, later, cued=False, about=True) is None


@pytest.fixture(scope="module")
def nb(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "noor-bastian", DATA)


@pytest.mark.parametrize(("question", "wanted"), [
    ("When was Noor's scooter stolen?", "1 October 2023"),  # "last night", said on 2 October
    ("When did Noor start working at Crumb & Co?", "5 October 2023"),  # "first shift is thurs"
    ("When did Bastian and Ilya break up?", "17 November 2023"),  # "about three hours ago" at 1:20 am
    ("When did Pickle die?", "14 March 2024"),  # "passed away on the 14th"
    ("What date is the Lumen Collective show?", "20 April 2024"),  # "sorry it's the 20th", not the 13th
    ("When did Tariq propose to Noor?", "5 May 2024"),  # "popped the question … sunday", told on Thursday
    ("When did Bastian adopt Waffles?", "7 May 2024"),  # "got him from the shelter on tuesday"
    ("When is Noor's book launch?", "10 June 2024"),  # "pushed back to june 10"; "might move it" only floats
    ("When was Noor's book launch originally planned?", "3 June 2024"),  # the first date asked for
    ("When did Pickle pass away?", "14 March 2024"),  # the "sorry it's the 20th" after it is the show's
    ("When is Noor's driving test?", "23 July 2024"),  # "when's your driving test again?" – "the 9th. no
    # wait, that's the theory one. practical is the 23rd"
    ("When is Bastian's knee operation?", "19 September 2024"),  # "…about my knee. They are going to operate
    # on it … on the 12th of September", then "I told you the 12th of September … It is the 19th."
    ("When is Lale's graduation?", "22 August 2024"),  # "lale's thing is the 22nd not the 20th", a week on
    ("When did Bastian move to Leipzig?", "2 September 2024"),  # "greetings from Leipzig! we shifted here
    # finally, the van came on the 2nd": the town and the move in sentences of their own
])
def test_when_questions_answer_the_events_date(nb: tuple[Memory, str], question: str, wanted: str) -> None:
    m, group = nb
    a = m.ask(question, group=group)
    assert a.answer.startswith(wanted) and not a.abstained, (a.answer, a.trace.get("reading"))


@pytest.mark.parametrize("question", [
    "When did Noor sell her piano?",  # only thought about selling it
    "When did Noor pass her exam?",  # "Pickle passed away" passed no exam
    "When did Noor move to London?",  # "They want me to relocate there": someone else's wish
])
def test_no_turn_dating_the_event_is_no_information(nb: tuple[Memory, str], question: str) -> None:
    m, group = nb
    a = m.ask(question, group=group)
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))


@pytest.mark.parametrize(("question", "sentence", "other"), [
    ("When did she pass her test?", "our old cat passed away on sunday", True),
    ("When did Pickle pass away?", "our old cat passed away on sunday", False),
    ("When did he give the talk?", "he gave up the talk circuit", True),
    ("When did they move?", "we moved out on the 3rd", False),  # a motion verb keeps its sense
    ("When did she pass her test?", "she passed it first time!!", False),
])
def test_another_phrasal_verb_tells_no_event(question: str, sentence: str, other: bool) -> None:
    ev = question_event(question, frozenset())
    assert ev.tells(sentence) and ev.other_verb(parse(sentence)[:]) is other
