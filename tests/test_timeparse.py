"""Relative time is resolved against the turn's time (the anchor), never against today."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tkg.errors import InputError
from tkg.time_words import clause_tense
from tkg.timeparse import find_times, parse_session_datetime

# Monday 8 May 2023, 13:56 UTC: the first LoCoMo session time.
ANCHOR = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def one(text: str, anchor: datetime = ANCHOR) -> tuple[date, date, str]:
    refs = find_times(text, anchor)
    assert len(refs) == 1, refs
    ref = refs[0]
    return ref.start.date(), ref.end.date(), ref.granularity


def test_yesterday_resolves_into_the_anchor_year_not_today() -> None:
    start, end, gran = one("I went to a support group yesterday.")
    assert (start, end, gran) == (date(2023, 5, 7), date(2023, 5, 8), "day")
    assert start != (datetime.now(UTC) - timedelta(days=1)).date()


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        ("today was long", date(2023, 5, 8), date(2023, 5, 9), "day"),
        ("we eat out tonight", date(2023, 5, 8), date(2023, 5, 9), "day"),
        ("last night was wild", date(2023, 5, 7), date(2023, 5, 8), "day"),
        ("the day before yesterday", date(2023, 5, 6), date(2023, 5, 7), "day"),
        ("I start tomorrow", date(2023, 5, 9), date(2023, 5, 10), "day"),
        ("last week I moved", date(2023, 5, 1), date(2023, 5, 8), "week"),
        ("last weekend we hiked", date(2023, 5, 6), date(2023, 5, 8), "weekend"),
        ("this weekend I'll rest", date(2023, 5, 13), date(2023, 5, 15), "weekend"),
        ("next month I start", date(2023, 6, 1), date(2023, 7, 1), "month"),
        ("last month was busy", date(2023, 4, 1), date(2023, 5, 1), "month"),
        ("last year was hard", date(2022, 1, 1), date(2023, 1, 1), "year"),
        ("next year we travel", date(2024, 1, 1), date(2025, 1, 1), "year"),
        ("two years ago I moved", date(2021, 1, 1), date(2022, 1, 1), "year"),
        ("3 days ago I fell", date(2023, 5, 5), date(2023, 5, 6), "day"),
        ("a few weeks ago", date(2023, 4, 10), date(2023, 5, 1), "week"),
        ("a couple of months ago", date(2023, 2, 1), date(2023, 4, 1), "month"),
        ("I went there on Friday", date(2023, 5, 5), date(2023, 5, 6), "day"),
        ("I'll see her on Friday", date(2023, 5, 12), date(2023, 5, 13), "day"),
        ("last Friday was fun", date(2023, 5, 5), date(2023, 5, 6), "day"),
        ("next Tuesday works", date(2023, 5, 9), date(2023, 5, 10), "day"),
        ("that was in 2021", date(2021, 1, 1), date(2022, 1, 1), "year"),
        ("on 5 May 2023 we met", date(2023, 5, 5), date(2023, 5, 6), "day"),
        ("on May 5th, 2022 we met", date(2022, 5, 5), date(2022, 5, 6), "day"),
        ("it opened in May 2021", date(2021, 5, 1), date(2021, 6, 1), "month"),
        ("since March I've been running", date(2023, 3, 1), date(2023, 5, 8), "range"),
        ("since 2019", date(2019, 1, 1), date(2023, 5, 8), "range"),
        ("we leave in two weeks", date(2023, 5, 22), date(2023, 5, 29), "week"),
        ("the past few weeks were hard", date(2023, 4, 10), date(2023, 5, 8), "range"),
        ("last summer we swam", date(2022, 6, 1), date(2022, 9, 1), "season"),
        ("it happened on 2023-04-01", date(2023, 4, 1), date(2023, 4, 2), "day"),
    ],
)
def test_expressions_resolve_against_the_anchor(text: str, start: date, end: date, granularity: str) -> None:
    assert one(text) == (start, end, granularity)


def test_bare_month_reads_the_tense_of_its_clause() -> None:
    assert one("I went there in July")[0] == date(2022, 7, 1)  # past: the July before the anchor
    assert one("I'm going to Japan in July")[0] == date(2023, 7, 1)  # future: the next July
    assert one("My birthday is in July")[0] == date(2023, 7, 1)  # present: the nearer one
    assert one("I moved here in May")[0] == date(2023, 5, 1)  # the anchor's own month


def test_clause_tense_cues() -> None:
    assert clause_tense("I will fly to Oslo on Friday", 20) == "future"
    assert clause_tense("We went to Oslo on Friday", 20) == "past"
    assert clause_tense("My class is on Friday", 12) == "present"


def test_spans_point_at_the_matched_text_and_results_are_ordered() -> None:
    text = "Last week I met Dana, and next month I start at Acme."
    refs = find_times(text, ANCHOR)
    assert [r.text for r in refs] == ["Last week", "next month"]
    assert all(text[r.span[0]:r.span[1]] == r.text for r in refs)


@pytest.mark.parametrize(
    "text",
    ["I love painting with the kids.", "I may go to the gym.", "We stayed for two days.",
     "It was on the 31 February.", "I ran 5 days a week.", "Let's catch up soon!"],
)
def test_no_time_expression(text: str) -> None:
    assert find_times(text, ANCHOR) == []


def test_naive_anchor_is_taken_as_utc_and_results_are_aware() -> None:
    ref = find_times("yesterday", datetime(2023, 5, 8, 13, 56))[0]
    assert ref.start.tzinfo is not None and ref.start.utcoffset() == timedelta(0)
    assert ref.start == datetime(2023, 5, 7, tzinfo=UTC)


PAST = ["yesterday", "last week", "last month", "last year", "3 days ago", "two weeks ago", "last weekend",
        "a few months ago", "last night"]
FUTURE = ["tomorrow", "next week", "next month", "next year", "in 3 days", "in two weeks", "next weekend"]


@given(st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2060, 12, 31)),
       st.sampled_from(PAST), st.sampled_from(FUTURE))
def test_past_expressions_end_by_the_anchor_and_future_ones_start_after_it(
    anchor: datetime, past: str, future: str
) -> None:
    anchor = anchor.replace(tzinfo=UTC)
    day_start = datetime(anchor.year, anchor.month, anchor.day, tzinfo=UTC)
    (p,) = find_times(past, anchor)
    (f,) = find_times(future, anchor)
    assert p.start < p.end <= day_start
    assert anchor < f.start < f.end


def test_find_times_is_fast_enough_for_ingest() -> None:
    plain = ["That's really cool, you've got guts and I'm proud of you."] * 2000
    timed = ["I went to a support group yesterday and it was powerful."] * 1000
    t = time.perf_counter()
    for s in plain:
        find_times(s, ANCHOR)
    plain_rate = len(plain) / (time.perf_counter() - t)
    t = time.perf_counter()
    for s in timed:
        find_times(s, ANCHOR)
    timed_rate = len(timed) / (time.perf_counter() - t)
    assert plain_rate >= 5000 and timed_rate >= 1000, (plain_rate, timed_rate)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("12:09 am on 13 September, 2023", datetime(2023, 9, 13, 0, 9, tzinfo=UTC)),
        ("12:30 pm on 1 January, 2024", datetime(2024, 1, 1, 12, 30, tzinfo=UTC)),
        ("8 May, 2023", datetime(2023, 5, 8, tzinfo=UTC)),
        ("2023-05-08T13:56:00Z", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("2023-05-08T15:56:00+02:00", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("2023-05-08", datetime(2023, 5, 8, tzinfo=UTC)),
    ],
)
def test_parse_session_datetime(value: str, expected: datetime) -> None:
    assert parse_session_datetime(value) == expected


@pytest.mark.parametrize("value", ["garbage", "", "13:00 pm on 8 May, 2023", "1:56 pm on 31 February, 2023",
                                   "May the 4th"])
def test_parse_session_datetime_rejects_garbage(value: str) -> None:
    with pytest.raises(InputError):
        parse_session_datetime(value)


# Monday 16 October 2023, 9 pm: the anchor of the day-of-month and weekday cases below.
MONDAY = datetime(2023, 10, 16, 21, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("our cat went missing on the 3rd. still no sign", date(2023, 10, 3)),  # past: this month's
        ("the quiz night is on the 21st, come!", date(2023, 10, 21)),  # not past: the next one
        ("her flight landed on the 20th", date(2023, 9, 20)),  # past, and the 20th is still ahead
        ("it's Friday the 3rd, not the 2nd", date(2023, 11, 3)),  # the 3rd that is a Friday
        ("Saturday 4th november works for me", date(2023, 11, 4)),
        ("we painted the shed sunday", date(2023, 10, 15)),  # a bare weekday, past tense
        ("the plumber comes thurs", date(2023, 10, 19)),  # a short weekday, said alone
        ("she rang about three hours ago", date(2023, 10, 16)),
        ("the meetup got moved to nov 2", date(2023, 11, 2)),  # moved to a date: ahead, though "moved"
        ("i got the job, first shift is thurs", date(2023, 10, 19)),  # the part after the comma: present
    ],
)
def test_days_of_the_month_weekdays_and_hours_ago(text: str, wanted: date) -> None:
    assert find_times(text, MONDAY)[0].start.date() == wanted


def test_hours_ago_just_after_midnight_is_the_day_before() -> None:
    (ref,) = find_times("we had a fight about an hour ago", datetime(2023, 10, 17, 0, 20, tzinfo=UTC))
    assert ref.start.date() == date(2023, 10, 16)


@pytest.mark.parametrize("text", ["we live on the 3rd floor", "the 21st century", "I sat on the sofa",
                                  "the sun came out", "I moved to Leeds", "chess club, Wednesday nights"])
def test_ordinals_and_weekday_lookalikes_are_no_dates(text: str) -> None:
    assert find_times(text, MONDAY) == []


@pytest.mark.parametrize(("text", "said", "day"), [
    ("she was born on the fifteenth", "on the fifteenth", date(2023, 5, 15)),
    ("it took place on Tuesday the twelfth of September", "on Tuesday the twelfth of September",
     date(2023, 9, 12)),  # the year whose 12 September is a Tuesday, as for "Tuesday the 12th of September"
    ("see you on the twenty third.", "on the twenty third", date(2023, 5, 23)),
    ("the first of June it is", "the first of June", date(2023, 6, 1)),
    ("this is the fifth in a row", None, None),  # no date: an ordinal of something else
    ("I was the first in line", None, None),
])
def test_a_day_of_the_month_in_words(text: str, said: str | None, day: date | None) -> None:
    got = find_times(text, datetime(2023, 5, 20, 12, 0, tzinfo=UTC))
    assert [(t.text, t.start.date()) for t in got] == ([(said, day)] if said else [])
    assert all(text[t.span[0]:t.span[1]] == t.text for t in got)  # the words as said, where said
