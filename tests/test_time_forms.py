"""Date phrases in many styles, at ingest and in questions: parts of a year, a season of a year,
numeric dates, holidays, abbreviated units, a weekday that picks a date's year, "next year" after a
date; a question's anchor and the window it denotes; "how long ago"; and when-questions end to end on
our own conversation in three styles (texting, formal, non-native: tests/data/reader/time_styles.json)
on each store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.cues import find_time_anchor
from procedures.slots import resolve_window
from procedures.stated import said_time
from procedures.synthesis import format_ref
from procedures.when import ago
from tkg.memory import Memory
from tkg.models import NO_INFORMATION
from tkg.timeparse import find_times

DATA = Path(__file__).parent / "data" / "reader" / "time_styles.json"
SAID = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)  # a Monday


def _day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(("text", "start", "end", "granularity"), [
    ("we moved at the end of last year", _day(2022, 10, 1), _day(2023, 1, 1), "part"),
    ("I started there in early 2022", _day(2022, 1, 1), _day(2022, 5, 1), "part"),
    ("mid-2021 we split", _day(2021, 5, 1), _day(2021, 9, 1), "part"),
    ("In the first half of 2022 I was unemployed.", _day(2022, 1, 1), _day(2022, 7, 1), "part"),
    ("moved in over the summer of 2021", _day(2021, 6, 1), _day(2021, 9, 1), "season"),
    ("spring '21 was rough ngl", _day(2021, 3, 1), _day(2021, 6, 1), "season"),
    ("got the car 2 wks ago", _day(2023, 4, 24), _day(2023, 5, 1), "week"),
    ("a few mos ago we met", _day(2023, 1, 1), _day(2023, 4, 1), "month"),
    ("The wedding is on 6/17/2023.", _day(2023, 6, 17), _day(2023, 6, 18), "day"),
    ("I arrive 14.03.2023 to Lisbon", _day(2023, 3, 14), _day(2023, 3, 15), "day"),
    ("we got engaged on christmas eve", _day(2022, 12, 24), _day(2022, 12, 25), "day"),
    ("the week before christmas I was ill", _day(2022, 12, 18), _day(2022, 12, 25), "week"),
    ("last easter we went to Rome", _day(2023, 4, 9), _day(2023, 4, 10), "day"),
    ("I was there the day after Thanksgiving.", _day(2022, 11, 25), _day(2022, 11, 26), "day"),
    ("New Year's Eve 2021 was fun", _day(2021, 12, 31), _day(2022, 1, 1), "day"),
    ("we've gone for 7 September next year, at a barn", _day(2024, 9, 7), _day(2024, 9, 8), "day"),
])
def test_a_date_phrase_resolves_against_the_turns_time(text: str, start: datetime, end: datetime,
                                                        granularity: str) -> None:
    refs = find_times(text, SAID)
    assert [(r.start, r.end, r.granularity) for r in refs] == [(start, end, granularity)]


@pytest.mark.parametrize("text", ["We're doing a Christmas concert at St Mary's", "Merry Christmas you two!",
                                  "happy new year!!", "New year, new me.", "the score was 3/10",
                                  "version 1.2.34 is out", "wait a mo", "I'll ring you in a mo"])
def test_a_holiday_named_as_a_thing_a_greeting_a_score_or_a_moment_is_no_time(text: str) -> None:
    assert find_times(text, SAID) == []


def test_a_numeric_date_reads_the_way_nearer_the_turn_and_a_weekday_picks_a_dates_year() -> None:
    said = datetime(2023, 11, 2, tzinfo=UTC)
    assert find_times("we go there at 3/10/2023 for last time", said)[0].start == _day(2023, 10, 3)
    assert find_times("on 3/14/2023", said)[0].start == _day(2023, 3, 14)
    feb = datetime(2023, 2, 19, tzinfo=UTC)  # tickets bought (past) for a Saturday still ahead
    assert find_times("got us tix!! sat 11 march, manchester academy", feb)[0].start == _day(2023, 3, 11)


def test_a_part_of_a_year_is_shown_with_its_months() -> None:
    assert format_ref(find_times("at the end of last year", SAID)[0]) == "the end of 2022 (October–December)"


def test_a_values_time_is_its_own_clauses() -> None:
    text = "my new manager is olu — he moved here from lagos like 5 yrs ago"
    assert said_time(text, SAID, text.index("olu")) == SAID
    assert said_time(text, SAID, text.index("lagos")) == _day(2018, 1, 1)


@pytest.mark.parametrize(("question", "window"), [
    ("where was ama living at the start of 2021?", (_day(2021, 1, 1), _day(2021, 4, 1))),
    ("Where was Ama living at the end of last year?", (_day(2023, 10, 1), _day(2024, 1, 1))),
    ("who was ama seeing in late 2022", (_day(2022, 9, 1), _day(2023, 1, 1))),
    ("Where did Ama work back in march?", (_day(2024, 3, 1), _day(2024, 4, 1))),
    ("where did ama live 2 yrs ago", (_day(2022, 1, 1), _day(2023, 1, 1))),
    ("What did Ama drive in summer '22?", (_day(2022, 6, 1), _day(2022, 9, 1))),
    ("Where Ama was living in the autumn of 2022?", (_day(2022, 9, 1), _day(2022, 12, 1))),
    ("Where was Ama living the week before christmas?", (_day(2023, 12, 18), _day(2023, 12, 25))),
    ("Where did Ama live in 03/2023?", (_day(2023, 3, 1), _day(2023, 4, 1))),
    ("what car did ama drive over the summer", (_day(2024, 6, 1), _day(2024, 9, 1))),
])
def test_a_questions_anchor_in_any_style_gives_its_window(question: str, window: tuple[datetime, datetime]
                                                          ) -> None:
    anchor = find_time_anchor(question)
    assert anchor is not None
    assert resolve_window(anchor.text, datetime(2024, 6, 15, tzinfo=UTC)) == window


def test_a_holiday_in_a_questions_thing_is_no_anchor() -> None:
    assert find_time_anchor("When is Ama's Christmas concert?") is None
    assert find_time_anchor("Who did Ama spend christmas with?") is not None


def test_how_long_ago_is_said_in_the_unit_a_person_would_use() -> None:
    now = _day(2024, 3, 3)
    assert ago(_day(2024, 2, 25), now) == "about 7 days"
    assert ago(_day(2024, 1, 20), now) == "about 6 weeks"
    assert ago(_day(2022, 12, 26), now) == "about 14 months"
    assert ago(_day(2020, 3, 1), now) == "about 4 years"


@pytest.fixture(scope="module")
def styles(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "time-styles", DATA)


@pytest.mark.parametrize(("question", "wanted"), [
    ("When did Wiremu get his license?", "26 December 2022"),  # "2 wks ago", said 9 January 2023
    ("When did Beatrix adopt Sputnik?", "18 December 2022"),  # "the week before Christmas"
    ("When did Wiremu move to Wellington?", "March 2023"),  # "back in march", said in June
    ("When did Wiremu start climbing?", "14 March 2023"),  # "on 14.03.2023"
    ("When did Beatrix start at the library?", "5 June 2023"),  # "on the 5th"
    ("When did Beatrix hand in her notice at the bank?", "the end of 2022"),  # "the end of last year"
    ("When did Wiremu get the Nissan Leaf?", "31 October 2023"),  # "last tues"
    ("When did Beatrix give back the key in Atawhai?", "3 October 2023"),  # "at 3/10/2023", said 2 Nov
    ("When did the studio offer Wiremu the lead designer role?", "11 February 2024"),  # the sentence before
    ("When was the laneway festival?", "2 February 2024"),  # "fri 2 feb"
    ("When is Beatrix's wedding?", "15 June 2024"),  # "is now on 15 June instead"
    ("When was Beatrix's wedding originally planned?", "8 June 2024"),  # "what I told you last month" no date
    ("How long ago did Wiremu get his license?", "about 14 months"),
    ("Where was Wiremu living at the start of 2023?", "dunedin"),
])
def test_when_and_value_at_time_questions_in_three_styles(styles: tuple[Memory, str], question: str,
                                                          wanted: str) -> None:
    mem, group = styles
    got = mem.ask(question, group=group)
    assert wanted.lower() in got.answer.lower(), (question, got.answer)
    assert got.answer != NO_INFORMATION and got.evidence
