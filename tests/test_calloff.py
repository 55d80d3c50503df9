"""What the conversation last called off (procedures/calloff.py): a thing the question names only
inside a plan that was called off ("a sailing trip to the Faroe Islands", then "the sailing trip is
off"), a question whose reply calls it off ("are you still going to Ghent?" → "we had to cancel"),
and "how did the talk go" after the meetup was cancelled, each abstain; what did take place is
answered. The conversation (tests/data/reader/oksana_bram.json) is our own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.question import parse as parse_question
from procedures.about import Subject
from procedures.premise import last_word_calls_off
from tkg.memory import Memory
from tkg.models import NO_INFORMATION, Evidence

DATA = Path(__file__).parent / "data" / "reader"
OKSANA = Subject("Oksana", frozenset({"oksana"}), speaker=True)


def _turn(text: str, day: int, speaker: str = "Oksana") -> Evidence:
    when = datetime(2024, 3, day, tzinfo=UTC)
    return Evidence(f"D{day}:1", f"e{day}", text, when, 1.0, "g", speaker=speaker)


def test_a_thing_named_inside_a_plan_is_called_off_with_the_plan() -> None:
    turns = [_turn("We booked a sailing trip to the Faroe Islands for May!", 1),
             _turn("The sailing trip is off, Lev hurt his back.", 5)]
    q = parse_question("What did Oksana think of the Faroe Islands?")
    got = last_word_calls_off(q, OKSANA, turns)
    assert got is not None and not got.holds and "trip" in got.reason
    # what someone said about it presupposes no trip
    assert last_word_calls_off(parse_question("What did Bram say about the islands?"), OKSANA, turns) is None
    # another thing's name restores nothing; a plain statement after the call-off restores it
    company = _turn("The trip company offered us a voucher.", 6)
    assert last_word_calls_off(q, OKSANA, [*turns, company]) is not None
    went = _turn("The sailing trip was wonderful after all, we went in July.", 9)
    assert last_word_calls_off(q, OKSANA, [*turns, went]) is None


def test_not_going_to_a_place_calls_the_trip_there_off() -> None:
    """"we're not going to Tallinn after all" calls the trip off; "not going to lie" names no place."""
    booked = _turn("We're going to Tallinn in June, Lev found cheap flights.", 1)
    q = parse_question("What did Oksana see in Tallinn?")
    off = _turn("so we're not going to tallinn after all, Lev's back is bad again", 4)
    assert last_word_calls_off(q, OKSANA, [booked, off]) is not None
    idiom = _turn("I'm not going to lie, Tallinn was freezing but lovely.", 4)
    assert last_word_calls_off(q, OKSANA, [booked, idiom]) is None


def test_a_reply_that_calls_off_what_the_question_asked_about() -> None:
    asked = _turn("And are you two still going to Ghent for Lev's birthday?", 2, speaker="Bram")
    q = parse_question("What did Oksana do in Ghent for Lev's birthday?")
    off = {"e2": "Sadly not. We had to cancel, his work rota changed."}
    assert last_word_calls_off(q, OKSANA, [asked], off) is not None
    yes = {"e2": "Yes! Flying out on Friday."}
    assert last_word_calls_off(q, OKSANA, [asked], yes) is None


def test_a_plan_moved_to_a_new_date_is_not_called_off() -> None:
    turns = [_turn("The pottery fair is on the 12th at the old market hall.", 1)]
    q = parse_question("What did Oksana sell at the pottery fair?")
    moved = _turn("The pottery fair got postponed until the 26th, the hall flooded.", 3)
    assert last_word_calls_off(q, OKSANA, [*turns, moved]) is None
    asked = _turn("Is the fair still on the 12th?", 2, speaker="Bram")
    assert last_word_calls_off(q, OKSANA, [*turns, asked], {"e2": "Pushed back to the 26th."}) is None
    gone = _turn("The pottery fair got postponed, no new date yet.", 3)
    assert last_word_calls_off(q, OKSANA, [*turns, gone]) is not None


def test_an_outcome_question_presupposes_the_event_but_a_summary_does_not() -> None:
    turns = [_turn("I'm giving a talk at the robotics meetup in April.", 1),
             _turn("They cancelled the whole meetup, the hall had a power cut.", 4)]
    went = parse_question("How did Oksana's talk at the robotics meetup go?")
    assert last_word_calls_off(went, OKSANA, turns) is not None
    changed = parse_question("How did Oksana's plans for the robotics meetup change?")
    assert last_word_calls_off(changed, OKSANA, turns) is None


@pytest.fixture(scope="module")
def made(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "oksana-bram", DATA / "oksana_bram.json")


@pytest.mark.parametrize("question", [
    "What did Oksana think of the Faroe Islands?",
    "How did Oksana's talk at the Tallinn meetup go?",
    "What did Oksana and Lev do in Ghent for his birthday?",
])
def test_questions_about_what_was_called_off_abstain(made: tuple[Memory, str], question: str) -> None:
    m, group = made
    a = m.ask(question, group=group)
    assert a.abstained and a.answer == NO_INFORMATION, (a.answer, a.trace.get("reading"))


def test_what_took_place_instead_is_answered(made: tuple[Memory, str]) -> None:
    m, group = made
    a = m.ask("What did Oksana buy at the pottery fair?", group=group)
    assert not a.abstained and "jug" in a.answer.lower(), (a.answer, a.trace.get("reading"))


def test_a_thing_told_as_done_before_is_one_of_many_and_the_call_off_is_the_next_ones() -> None:
    """"I won my first tournament" then "my tournament got pushed back": the next one is off, not the
    first; "my chess tournament" calls off no chess."""
    turns = [_turn("I won my first tournament last week!", 1),
             _turn("My chess tournament got pushed back.", 8)]
    first = parse_question("Where did Oksana win her first tournament?")
    assert last_word_calls_off(first, OKSANA, turns) is None
    assert last_word_calls_off(parse_question("What chess openings does Oksana use?"), OKSANA, turns) is None
    booked = [_turn("We've booked a tour of the glaciers!", 1), _turn("The tour is off, sadly.", 8)]
    assert last_word_calls_off(parse_question("What did Oksana see on the tour?"), OKSANA, booked) is not None


def test_a_reply_that_says_it_never_took_place_calls_it_off() -> None:
    """"how was Tromsø!!" (no question mark) → "we didn't go": no trip to ask about; "it didn't go well"
    tells how it went."""
    booked = _turn("Lev and I are off to Tromso in January to see the lights!", 1)
    asked = _turn("so how was tromso!!! send pics", 20, speaker="Bram")
    q = parse_question("What did Oksana and Lev see in Tromso?")
    never = {"e20": "we didn't go :( Lev's passport expired and the airline wouldn't budge."}
    assert last_word_calls_off(q, OKSANA, [booked, asked], never) is not None
    badly = {"e20": "It didn't go well, the clouds never lifted."}
    assert last_word_calls_off(q, OKSANA, [booked, asked], badly) is None


def test_sympathy_about_a_call_off_restores_nothing() -> None:
    """"I'm sorry about Tromso" after "Tromso is off" talks about the call-off; it takes nothing back."""
    turns = [_turn("We booked a week in Tromso for March!", 1),
             _turn("Tromso is off, Lev broke his wrist.", 6),
             _turn("I'm so sorry about Tromso, give Lev my love.", 7, speaker="Bram")]
    q = parse_question("What did Oksana enjoy most in Tromso?")
    assert last_word_calls_off(q, OKSANA, turns) is not None
    back = _turn("Tromso was magical in the end, we went in April.", 9)
    assert last_word_calls_off(q, OKSANA, [*turns, back]) is None


def test_a_town_written_small_or_tagged_a_person_is_still_called_off() -> None:
    """"bad news, tallinn fell through" calls off Tallinn however it is written, though an earlier turn
    told of the placement there as done; "Porto se cancela" in a code-switched turn calls off Porto."""
    turns = [_turn("i got the summer placement at nordlab in tallinn!!", 1),
             _turn("bad news tho, tallinn fell through. nordlab lost its grant", 9)]
    q = parse_question("What did Oksana do during her Tallinn placement at Nordlab?")
    assert last_word_calls_off(q, OKSANA, turns) is not None
    spanish = [_turn("Porto en agosto, ya compramos los boletos", 1),
               _turn("Malas noticias. Porto se cancela", 4)]
    assert last_word_calls_off(parse_question("How was Oksana's Porto trip?"), OKSANA, spanish) is not None


@pytest.mark.parametrize("off", ["The Bergen trip didn't happen in the end, Lev had to work.",
                                 "Bergen got binned, Lev's back is bad again."])
def test_a_plan_that_did_not_happen_or_was_binned_is_called_off(off: str) -> None:
    turns = [_turn("We're planning a long weekend in Bergen in May!", 1), _turn(off, 6)]
    assert last_word_calls_off(parse_question("What did Oksana see in Bergen?"), OKSANA, turns) is not None


@pytest.mark.parametrize("told", [
    "The Rotterdam studio offered me the sound job, nights only. And I said no.",
    "I interviewed at Kelderhuis in Rotterdam last week. Didn't get it, they went with someone internal.",
    "Kelderhuis in Rotterdam want a sound engineer. Honestly? I won't be applying.",
])
def test_an_offer_refused_or_not_got_in_the_sentence_after_is_called_off(told: str) -> None:
    """The sentence after the one naming the job refuses it or says it was not got, naming nothing
    else: the job never began. A question about the offer itself presupposes only the offer."""
    turns = [_turn(told, 3)]
    started = parse_question("When did Oksana start her job in Rotterdam?")
    got = last_word_calls_off(started, OKSANA, turns)
    assert got is not None and "rotterdam" in got.reason
    assert last_word_calls_off(parse_question("Which studio offered Oksana a job in Rotterdam?"), OKSANA,
                               turns) is None


def test_a_refusal_that_names_someone_else_calls_off_nothing_before_it() -> None:
    """"Then Lev said no" after the trip is Lev's answer to something else: the trip stands."""
    turns = [_turn("We went to Rotterdam for the weekend. Then Lev asked to borrow the van. I said no.", 3)]
    assert last_word_calls_off(parse_question("What did Oksana eat in Rotterdam?"), OKSANA, turns) is None


@pytest.mark.parametrize("off", ["the Canal Street flat has fallen through, the owner's selling",
                                 "mum says the whitby thing's off, gran is moving in with us instead"])
def test_a_move_fallen_through_or_a_small_written_town_called_off(off: str) -> None:
    """"has fallen through" calls the flat off as "fell through" does; "the whitby thing's off" calls off
    Whitby though it is written small and only sorts "thing"."""
    turns = [_turn("we might move to the Canal Street flat in whitby in the summer!!", 1), _turn(off, 5)]
    q = parse_question("When did Oksana move to Whitby?" if "whitby" in off else
                       "When did Oksana move into the Canal Street flat?")
    assert last_word_calls_off(q, OKSANA, turns) is not None


def test_a_thing_set_before_a_colon_is_called_off_anywhere_in_its_sentence() -> None:
    """"Lund: I emailed the lab and told them I won't be applying" calls off Lund, far as the words are."""
    turns = [_turn("A lab in Lund has a postdoc opening and my old supervisor sent it to me!", 1),
             _turn("Lund: I emailed the lab today and told them I won't be applying.", 4)]
    q = parse_question("When did Oksana start her postdoc in Lund?")
    got = last_word_calls_off(q, OKSANA, turns)
    assert got is not None and "lund" in got.reason
    assert last_word_calls_off(q, OKSANA, [*turns[:1], _turn("Lund: I start in May!", 4)]) is None


def test_a_name_said_with_no_verb_restores_nothing() -> None:
    """"Oh no, Tromso." after "Tromso has fallen through" says no trip is on again; "Tromso is back on,
    we fly in April" does."""
    turns = [_turn("We booked a week in Tromso for March!", 1),
             _turn("Tromso has fallen through, the cabin flooded.", 6),
             _turn("Oh no, Tromso. That's rotten luck.", 7, speaker="Bram")]
    q = parse_question("What did Oksana see in Tromso?")
    assert last_word_calls_off(q, OKSANA, turns) is not None
    assert last_word_calls_off(q, OKSANA, [*turns, _turn("We went to Tromso in April after all!", 9)]) is None
