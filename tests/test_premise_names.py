"""The premise check hears a long name the conversation misspelt ("Kalevala" typed "Kalevalla")
as the same name, and keeps short names exact ("Ireland" is not "Iceland")."""

from __future__ import annotations

from datetime import UTC, datetime

from planners.question import parse as parse_question
from procedures.about import Subject
from procedures.premise import check
from procedures.presupposed import says_name
from tkg.models import Evidence


def _said_by(speaker: str, text: str) -> Evidence:
    return Evidence("T1:1", "e1", text, datetime(2024, 3, 1, tzinfo=UTC), 1.0, "g", speaker=speaker)


def test_a_long_name_misspelt_is_the_same_name() -> None:
    assert says_name("kalevala", "i finally finished reading the kalevalla last night.")
    assert says_name("tennessee", "we drove through tenessee on the way back.")
    assert not says_name("ireland", "we spent a week in iceland.")
    assert not says_name("portugal", "we moved to portland in may.")


def test_a_misspelt_title_still_states_the_premise() -> None:
    lotta = Subject("Lotta", frozenset({"lotta"}), speaker=True)
    q = parse_question("What kind of book is the Kalevala that Lotta is reading?")
    speakers = ("Lotta", "Emil")
    said = _said_by("Lotta", "I'm reading the Kalevalla, a long Finnish epic poem, and I love it.")
    assert check(q, lotta, [said], speakers).holds
    other = _said_by("Lotta", "I'm reading a long Finnish epic poem, and I love it.")
    assert not check(q, lotta, [other], speakers).holds


def test_a_place_that_only_dates_the_event_is_presupposed_alone() -> None:
    """"After getting back from Oslo" dates the call; the trip needs stating, not a call in Oslo.
    A place the event itself goes to ("move to Oslo") must still be said with the event."""
    ines = Subject("Ines", frozenset({"ines"}), speaker=True)
    speakers = ("Ines", "Tomas")
    turns = [_said_by("Ines", "I was in Oslo for a week, it was freezing!"),
             _said_by("Ines", "I called my sister as soon as I landed.")]
    dated = parse_question("When did Ines call her sister after getting back from Oslo?")
    assert check(dated, ines, turns, speakers).holds
    moved = parse_question("When did Ines move to Oslo?")
    assert not check(moved, ines, turns + [_said_by("Ines", "We moved last spring.")], speakers).holds


def test_only_a_denial_about_the_subject_calls_the_event_off() -> None:
    """The idiom the other speaker offers ("Paris wasn't built in a day") cancels no trip of the
    subject's; the subject's own "the Paris trip fell through" does."""
    ines = Subject("Ines", frozenset({"ines"}), speaker=True)
    speakers = ("Ines", "Tomas")
    went = _said_by("Ines", "I went to Paris last week to see the museums.")
    idiom = _said_by("Tomas", "Sorry about the shop. Paris wasn't built in a day, so keep going!")
    q = parse_question("When did Ines go to Paris?")
    assert check(q, ines, [went, idiom], speakers).holds
    off = _said_by("Ines", "The Paris trip fell through, sadly.")
    assert not check(q, ines, [went, off], speakers).holds


def test_an_event_named_by_a_noun_may_be_told_apart_from_its_place() -> None:
    """"two year fellowship, I'd start in March" and, later, "I accepted tromsø officially": the
    fellowship in Tromsø is stated. A move ("move to Accra") must still be said with its place."""
    ines = Subject("Ines", frozenset({"ines"}), speaker=True)
    speakers = ("Ines", "Tomas")
    turns = [_said_by("Ines", "Big news: it's a two year fellowship. I'd start in March."),
             _said_by("Ines", "I accepted tromsø officially, signed on friday.")]
    q = parse_question("When does Ines start her fellowship in Tromsø?")
    assert check(q, ines, turns, speakers).holds
    moved = [_said_by("Ines", "We moved to Leeds in the spring."),
             _said_by("Ines", "I visited my aunt in Accra over Easter.")]
    assert not check(parse_question("When did Ines move to Accra?"), ines, moved, speakers).holds


def test_a_couples_own_words_state_a_partner() -> None:
    """"me n noa split up" and "she's moving in w me" say there was a girlfriend, as "my girlfriend" would;
    a flat one is moving into says none."""
    teo = Subject("Teo", frozenset({"teo"}), speaker=True)
    q = parse_question("What does Teo's girlfriend do for work?")
    speakers = ("Teo", "Ana")
    for text in ("me n noa split up last week", "kit's moving in w me next month, big step"):
        assert check(q, teo, [_said_by("Teo", text)], speakers).holds, text
    flat = _said_by("Teo", "we're moving in on saturday, the flat is tiny")
    assert not check(q, teo, [flat], speakers).holds


def test_a_relative_said_as_my_in_dialect_is_stated() -> None:
    """"he's winching ma sister": Scots "ma" is "my", so the speaker's sister is stated, whoever the
    sentence is about; a sister only imagined ("if ma sister…") is not."""
    ewan = Subject("Ewan", frozenset({"ewan"}), speaker=True)
    q = parse_question("What does Ewan's sister do for work now?")
    speakers = ("Ewan", "Iona")
    assert check(q, ewan, [_said_by("Ewan", "big Rab? he's winching ma sister. found out on Sunday")],
                 speakers).holds
    assert not check(q, ewan, [_said_by("Ewan", "if ma sister ever visits I'll hide")], speakers).holds


def test_a_speaker_named_by_part_of_their_name_is_no_name_to_find() -> None:
    """The speaker "Meera Raghavan" is "Meera" in a question: she is there, as a speaker, whether or
    not a turn says her name; an unknown name still needs stating."""
    lakshmi = Subject("Lakshmi Raghavan", frozenset({"lakshmi", "lakshmi raghavan"}), speaker=True)
    speakers = ("Lakshmi Raghavan", "Meera Raghavan")
    said = _said_by("Lakshmi Raghavan", "I packed three bottles of mango pickle for the trip!")
    q = parse_question("What food did Lakshmi bring Meera on the trip?")
    assert check(q, lakshmi, [said], speakers).holds
    other = parse_question("What food did Lakshmi bring Priyanka on the trip?")
    assert not check(other, lakshmi, [said], speakers).holds


def test_a_hedge_is_no_condition_on_a_call_off() -> None:
    """"The Oslo plan fell through, and I was relieved, if I am honest" calls the move off: "if I am
    honest" hedges what is said and sets no condition."""
    ines = Subject("Ines", frozenset({"ines"}), speaker=True)
    speakers = ("Ines", "Tomas")
    looked = _said_by("Ines", "I looked at two flats in Oslo last week, one right by the harbour.")
    q = parse_question("When did Ines move into her flat in Oslo?")
    assert check(q, ines, [looked], speakers).holds
    off = _said_by("Ines", "The Oslo plan fell through entirely, and I was relieved, if I am honest.")
    assert not check(q, ines, [looked, off], speakers).holds


def test_a_name_only_wished_for_states_no_pet() -> None:
    """"If we ever get a dog I'd call it Tupsu", then "Tupsu is a great dog name": no sentence says a
    dog called Tupsu is there. "Tupsu chewed my slipper" does."""
    lotta = Subject("Lotta", frozenset({"lotta"}), speaker=True)
    speakers = ("Lotta", "Emil")
    q = parse_question("What breed is Lotta's dog Tupsu?")
    wished = [_said_by("Lotta", "If we ever get a dog I'd call it Tupsu."),
              _said_by("Emil", "Tupsu is a great dog name.")]
    assert not check(q, lotta, wished, speakers).holds
    assert check(q, lotta, [*wished, _said_by("Lotta", "Tupsu chewed my slipper, our dog is a menace.")],
                 speakers).holds


def test_my_before_other_words_still_says_whose_animal_it_is() -> None:
    """"my poor old whippet" states that the teller has a whippet, as "my whippet" does."""
    lotta = Subject("Lotta", frozenset({"lotta"}), speaker=True)
    q = parse_question("What was the name of Lotta's whippet?")
    speakers = ("Lotta", "Emil")
    letter = ("Dear Emil,\n\nTupsu is, I fear, feeling every one of his fourteen years. The vet has changed "
              "his tablets, and {} poor old whippet now sleeps most of the day against the stove in my "
              "kitchen, which I cannot really grudge him.")
    assert check(q, lotta, [_said_by("Lotta", letter.format("my"))], speakers).holds
    assert not check(q, lotta, [_said_by("Lotta", letter.format("her"))], speakers).holds
