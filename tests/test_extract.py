"""Text utilities and the speaker-aware fact extractor, behaviour by behaviour."""

from __future__ import annotations

import json
import time
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tkg.extract import Candidate, extract, mentions
from tkg.extract.evaluate import evaluate
from tkg.extract.survey import survey_locomo
from tkg.predicates import REGISTRY
from tkg.text import content_terms, loose_stem, normalize_name, split_sentences, stem, terms, tokenize, words

WHEN = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday
LABELLED = Path(__file__).parent / "data" / "extraction_labelled.jsonl"
# Floors: measured F1 on the labelled set (dev 1.000, test 0.986 in session 8) minus a margin.
TEST_F1_FLOOR = 0.94
DEV_F1_FLOOR = 0.97


def facts(text: str, speaker: str = "Priya", listeners: tuple[str, ...] = ("Marco",),
          history: tuple[Candidate, ...] = ()) -> set[tuple[str, str, str, str, str]]:
    got = extract(
        text, speaker=speaker, listeners=list(listeners), when=WHEN, registry=REGISTRY, history=history
    )
    return {(c.subject, c.predicate, normalize_name(c.object), c.polarity, c.qualifier) for c in got}


def fact(s: str, p: str, o: str, pol: str = "assert", q: str = "") -> tuple[str, str, str, str, str]:
    return (s, p, normalize_name(o), pol, q)


# -- text ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I met Dr. Lee at St. Anne's. It went well!", ["I met Dr. Lee at St. Anne's.", "It went well!"]),
        ("Great news! 😊 See you soon.", ["Great news! 😊", "See you soon."]),
        ("We moved to Cardiff 🎉 The flat is tiny.", ["We moved to Cardiff 🎉", "The flat is tiny."]),
        ("It cost 3.5 pounds. Cheap!", ["It cost 3.5 pounds.", "Cheap!"]),
        ("J. K. Rowling wrote it. So did I. Really?", ["J. K. Rowling wrote it.", "So did I.", "Really?"]),
        ("Wait... what?! No way", ["Wait...", "what?!", "No way"]),
        ("line one\nline two", ["line one", "line two"]),
        ("  ", []),
        ("🎉🎉", ["🎉🎉"]),
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_split_sentences_never_yields_empty_items() -> None:
    for text in ["!!!", "Hi!! 😊 !!", "...", "a. . b", "\n\n\n"]:
        assert all(s.strip() for s in split_sentences(text))


@pytest.mark.parametrize(
    ("a", "b"),
    [("St. Anne's", "St Anne's"), ("St. Anne's", "st anne’s"), ("The Beatles", "beatles"),
     ("Café  Rouge!", "cafe rouge"), ("Priya's", "PRIYA")],
)
def test_normalize_name_equates_spellings(a: str, b: str) -> None:
    assert normalize_name(a) == normalize_name(b)


def test_normalize_name_keeps_different_names_apart() -> None:
    assert normalize_name("Leeds") != normalize_name("York")
    assert normalize_name("  New   York  ") == "new york"


def test_tokenize_words_and_stems() -> None:
    assert tokenize("Where's Priya's new flat?") == ["where", "is", "priya", "'s", "new", "flat"]
    assert tokenize("Is Jonas' co-founder in?") == ["is", "jonas", "'", "co-founder", "in"]
    assert words("Jonas's (new) flat: AND/OR o'Neill") == ["jonas", "new", "flat", "and", "or", "o", "neill"]
    assert [stem(w) for w in ("moved", "move", "painting", "races", "shoes", "bus")] == [
        "move", "move", "paint", "race", "shoe", "bus"]
    assert [loose_stem(w) for w in ("moved", "moving", "lives")] == ["mov", "mov", "liv"]
    assert content_terms("When did Jonas move his flat?", drop=["Jonas"]) == {"move", "flat"}
    assert terms("Jonas's café") == ["jonas", "s", "caf"]  # what the term rankers were tuned on


# -- behaviours --------------------------------------------------------------------------------
FIRST_PERSON = [
    ("I moved to Bristol.", fact("Priya", "lives_in", "Bristol")),
    ("I live in Leeds.", fact("Priya", "lives_in", "Leeds")),
    ("I'm from York.", fact("Priya", "from_place", "York")),
    ("I work for Contoso.", fact("Priya", "works_at", "Contoso")),
    ("I started at Fabrikam on Monday.", fact("Priya", "works_at", "Fabrikam")),
    ("I got a job at Initech!", fact("Priya", "works_at", "Initech")),
    ("I'm a nurse.", fact("Priya", "job_title", "nurse")),
    ("My manager is Dana.", fact("Priya", "reports_to", "Dana")),
    ("I report to Dana.", fact("Priya", "reports_to", "Dana")),
    ("I'm studying at the University of Leeds.", fact("Priya", "studies_at", "University of Leeds")),
    ("My wife Ana is lovely.", fact("Priya", "married_to", "Ana")),
    ("I married Ana in 2019.", fact("Priya", "married_to", "Ana")),
    ("Tom and I got engaged!", fact("Priya", "engaged_to", "Tom")),
    ("My sister Megan is visiting.", fact("Priya", "sibling_of", "Megan")),
    ("My dad Raj is retiring.", fact("Raj", "parent_of", "Priya")),
    ("My mom is a teacher.", fact("Priya's mother", "parent_of", "Priya")),
    ("My friend Sam called.", fact("Priya", "friend_of", "Sam")),
    ("My dog Biscuit is asleep.", fact("Priya", "has_pet", "Biscuit")),
    ("I bought a Corolla.", fact("Priya", "owns", "Corolla")),
    ("I love jazz.", fact("Priya", "likes", "jazz")),
    ("I hate cilantro.", fact("Priya", "dislikes", "cilantro")),
    ("My favorite band is Radiohead.", fact("Priya", "favorite", "Radiohead", q="band")),
    ("I play guitar.", fact("Priya", "plays", "guitar")),
    ("I joined the choir.", fact("Priya", "member_of", "choir")),
    ("I visited Paris.", fact("Priya", "visited", "Paris")),
    ("We went to Paris.", fact("Priya", "visited", "Paris")),
    ("I'm planning to go to Japan in July.", fact("Priya", "plans", "Japan")),
    ("I'm 32.", fact("Priya", "age", "32")),
    ("I turned 32 last week.", fact("Priya", "age", "32")),
    ("My birthday is on 3 March.", fact("Priya", "birthday", "3 March")),
]


@pytest.mark.parametrize(("text", "expected"), FIRST_PERSON)
def test_first_person_resolves_to_the_speaker(text: str, expected: tuple[str, ...]) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Congrats on starting at St. Anne's!", fact("Marco", "works_at", "St Anne's")),
        ("How is your new place in Leeds?", fact("Marco", "lives_in", "Leeds")),
        ("Is your sister Kate still around?", fact("Marco", "sibling_of", "Kate")),
    ],
)
def test_second_person_resolves_to_the_single_listener(text: str, expected: tuple[str, ...]) -> None:
    assert expected in facts(text)
    assert facts(text, listeners=("Marco", "Dana")) == set()  # "you" is ambiguous with two listeners


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Megan moved to Leeds.", fact("Megan", "lives_in", "Leeds")),
        ("Dana is my manager.", fact("Priya", "reports_to", "Dana")),
        ("Dana, my manager, signed it.", fact("Priya", "reports_to", "Dana")),
        ("My sister Megan moved to Leeds.", fact("Megan", "lives_in", "Leeds")),
        ("Ravi works at Globex.", fact("Ravi", "works_at", "Globex")),
    ],
)
def test_third_person_names_possessives_and_appositives(text: str, expected: tuple[str, ...]) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I sold the Corolla.", fact("Priya", "owns", "Corolla", "retract")),
        ("We lost Biscuit.", fact("Priya", "has_pet", "Biscuit", "retract")),
        ("I no longer work at Initech.", fact("Priya", "works_at", "Initech", "retract")),
        ("I quit Initech.", fact("Priya", "works_at", "Initech", "retract")),
        ("I don't live in York anymore.", fact("Priya", "lives_in", "York", "retract")),
        ("I used to live in Paris.", fact("Priya", "lives_in", "Paris", "retract")),
        ("We cancelled the trip to Japan.", fact("Priya", "plans", "Japan", "retract")),
        ("Our cat Pepper passed away.", fact("Priya", "has_pet", "Pepper", "retract")),
        ("Sad news: Pepper died on the 2nd of June.", fact("Priya", "has_pet", "Pepper", "retract")),
    ],
)
def test_negation_and_retraction(text: str, expected: tuple[str, ...]) -> None:
    got = facts(text)
    assert expected in got
    assert (*expected[:3], "assert", expected[4]) not in got


@pytest.mark.parametrize("text", ["My grandad Joe died last year.", "Anna Berg died in 1990."])
def test_a_person_who_died_is_no_pet_retracted(text: str) -> None:
    assert not [f for f in facts(text) if f[1] == "has_pet"]


def test_negated_like_becomes_dislike() -> None:
    assert facts("I don't like olives.") == {fact("Priya", "dislikes", "olives")}
    assert facts("I'm not a fan of jazz.") == {fact("Priya", "dislikes", "jazz")}


@pytest.mark.parametrize(
    "text",
    [
        "Do you live in Leeds?", "If I moved to Paris, I'd learn French.", "Would you ever work at Google?",
        "I wish I lived in Barcelona.", "I'd love to visit Iceland.", "Maybe I'll buy a car.",
        "Have you been to Rome?", "I want to move to Canada.", "I'm going to check it out tomorrow.",
        "Thanks, Marco! See you soon.", "I love that!", "What's your favorite band?", "I'm 5 minutes away.",
        "She moved to Leeds.", "Glad you're settling in Nana", "Glad you're all settling in Mum!",
    ],
)
def test_questions_hypotheticals_and_chatter_state_nothing(text: str) -> None:
    assert facts(text) == set()


def test_objects_are_cleaned_and_time_resolved_against_the_turn() -> None:
    (c,) = extract("I moved to Bristol last week.", speaker="Priya", listeners=["Marco"], when=WHEN,
                   registry=REGISTRY)
    assert (c.object, c.time_text, c.object_type, c.subject_type) == (
        "Bristol", "last week", "place", "person",
    )
    assert c.valid_at is not None and c.valid_at.date() == date(2023, 5, 1)
    (plan,) = extract("I'm planning to go to Japan in July.", speaker="Priya", listeners=["Marco"], when=WHEN,
                      registry=REGISTRY)
    assert plan.valid_at is not None and plan.valid_at.date() == date(2023, 7, 1)


def test_postponed_plan_takes_the_new_time() -> None:
    (c,) = extract(
        "The Japan trip is postponed to next year.",
        speaker="Priya",
        listeners=["Marco"],
        when=WHEN,
        registry=REGISTRY,
    )
    assert (c.predicate, c.object, c.polarity) == ("plans", "Japan", "assert")
    assert c.valid_at is not None and c.valid_at.year == 2024


def test_correction_within_a_turn_replaces_the_earlier_value() -> None:
    got = extract("I moved to York. Actually, it's Leeds, not York.", speaker="Priya", listeners=["Marco"],
                  when=WHEN, registry=REGISTRY)
    york, leeds = got
    assert (york.object, york.correction) == ("York", False)
    assert (leeds.predicate, leeds.object, leeds.correction, leeds.sentence_index) == (
        "lives_in", "Leeds", True, 1,
    )


def test_correction_resolved_against_history_from_earlier_turns() -> None:
    earlier = (Candidate("Priya", "lives_in", "York"),)
    assert facts("Actually, it's Leeds, not York.", history=earlier) == {fact("Priya", "lives_in", "Leeds")}
    assert facts("Sorry, I meant Leeds.", history=earlier) == {fact("Priya", "lives_in", "Leeds")}
    assert facts("Actually, it's Leeds, not York.") == set()  # nothing to correct


def test_explicit_first_person_is_more_confident_than_second_person() -> None:
    (mine,) = extract("I work at Acme.", speaker="Priya", listeners=["Marco"], when=WHEN, registry=REGISTRY)
    (yours,) = extract("Congrats on your new job at Acme!", speaker="Priya", listeners=["Marco"], when=WHEN,
                       registry=REGISTRY)
    assert mine.confidence > yours.confidence


def test_lists_give_one_fact_per_item_for_multi_valued_predicates() -> None:
    assert facts("I love reading, hiking and painting.") == {
        fact("Priya", "likes", "reading"),
        fact("Priya", "likes", "hiking"),
        fact("Priya", "likes", "painting"),
    }
    assert facts("I have two kids, Leo and Mia.") == {fact("Priya", "parent_of", "Leo"),
                                                      fact("Priya", "parent_of", "Mia")}


def test_candidates_are_frozen_and_carry_their_sentence() -> None:
    got = extract(
        "Hi Marco! I live in Leeds.", speaker="Priya", listeners=["Marco"], when=WHEN, registry=REGISTRY
    )
    assert [(c.sentence, c.sentence_index) for c in got] == [("I live in Leeds.", 1)]
    with pytest.raises(AttributeError):
        got[0].object = "York"  # type: ignore[misc]


# -- mentions ----------------------------------------------------------------------------------
def test_mentions_types_names_by_context() -> None:
    got = dict(mentions("Hey Marco! My dog Biscuit and I drove to Leeds to see St. Anne's Hospital.",
                        speaker="Priya", listeners=["Marco"]))
    assert got == {
        "Marco": "person",
        "Biscuit": "pet",
        "Leeds": "place",
        "St. Anne's Hospital": "organisation",
    }


def test_mentions_skip_sentence_starters_and_repeat_names() -> None:
    got = mentions("Wow! Thanks Caroline. Caroline, I joined Google.", speaker="Mel", listeners=["Caroline"])
    assert got == [("Caroline", "person"), ("Google", "organisation")]


# -- quality and speed ---------------------------------------------------------------------------
def test_labelled_set_is_big_enough_and_split() -> None:
    rows = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 150
    assert {r["split"] for r in rows} == {"dev", "test"}
    assert sum(1 for r in rows if not r["facts"]) >= 30  # negatives that must yield nothing


def test_labelled_set_f1_stays_above_the_measured_floor() -> None:
    report = evaluate(LABELLED)
    assert report["splits"]["test"]["overall"]["f1"] >= TEST_F1_FLOOR
    assert report["splits"]["dev"]["overall"]["f1"] >= DEV_F1_FLOOR
    assert (
        report["splits"]["test"]["overall"]["precision"] >= 0.95
    )  # a wrong fact costs more than a missing one
    assert set(report["per_predicate"]) >= {"lives_in", "works_at", "plans", "has_pet"}
    assert report["time_accuracy"] is not None and report["time_accuracy"] >= 0.9


def test_extract_is_fast_enough_for_ingest() -> None:
    turns = ["Hey Mel! Good to see you! How have you been?",
             "I went to a LGBTQ support group yesterday and it was so powerful.",
             "Wow, love that painting! So cool you found such a helpful group. What's it done for you?",
             "My sister Megan moved to Leeds last week, and I'm planning to visit her in July."] * 100
    for text in turns[
        :4
    ]:  # the registry's patterns and the gazetteer are built once per process, not per turn
        extract(text, speaker="Caroline", listeners=["Melanie"], when=WHEN, registry=REGISTRY)
    t = time.perf_counter()
    for text in turns:
        extract(text, speaker="Caroline", listeners=["Melanie"], when=WHEN, registry=REGISTRY)
    rate = len(turns) / (time.perf_counter() - t)
    assert rate >= 500, rate  # measured ~3,000/s on LoCoMo turns; generous floor for busy CI machines


def test_survey_counts_predicates_on_a_locomo_shaped_file(tmp_path: Path) -> None:
    conv = {
        "speaker_a": "Priya", "speaker_b": "Marco",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Priya", "dia_id": "D1:1", "text": "I moved to Bristol last week!"},
            {"speaker": "Marco", "dia_id": "D1:2", "text": "Congrats! How is your new place in Bristol?"},
            {"speaker": "Priya", "dia_id": "D1:3", "text": "Lovely. My dog Biscuit loves the park."},
        ],
    }
    path = tmp_path / "mini.json"
    path.write_text(json.dumps([{"conversation": conv, "qa": []}]), encoding="utf-8")
    report = survey_locomo(path, examples=2)
    assert report["turns"] == 3
    assert report["counts"]["lives_in"] == 2 and report["counts"]["has_pet"] == 1
    assert all(len(rows) <= 2 for rows in report["examples"].values())
    assert report["candidates"] == sum(report["counts"].values())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Packed everything up and moved to Bruges!", fact("Priya", "lives_in", "Bruges")),
        ("Just adopted a kitten named Olive.", fact("Priya", "has_pet", "Olive")),
        ("I sold the flat and then moved to Leeds.", fact("Priya", "lives_in", "Leeds")),
        ("Sadly we lost our dog Biscuit.", fact("Priya", "has_pet", "Biscuit", "retract")),
        ("Meet Pumpkin, my new cat!", fact("Priya", "has_pet", "Pumpkin")),
        ("We brought home a little hamster, we named it Biscuit.", fact("Priya", "has_pet", "Biscuit")),
    ],
)
def test_chat_shorthand_elided_subjects_openers_and_appositive_objects(
    text: str, expected: tuple[str, ...]
) -> None:
    assert expected in facts(text)


def test_sentence_openers_are_not_names() -> None:
    assert [
        n for n, _ in mentions("Big news: I'm living in Ghent now.", speaker="Priya", listeners=["Marco"])
    ] == ["Ghent"]
    assert "Big Ben" in [
        n for n, _ in mentions("Big Ben is in London.", speaker="Priya", listeners=["Marco"])
    ]


def test_a_very_long_word_costs_little_and_names_nothing() -> None:
    """Rules once cost the square of a word's length (40 000 characters took minutes)."""
    started = time.perf_counter()
    got = facts("I moved to Leeds with " + "Z" + "a" * 40_000 + " yesterday.")
    assert fact("Priya", "lives_in", "Leeds") in got and all(len(f[2]) < 64 for f in got)
    assert [
        n for n, _ in mentions("Hi " + "Q" * 40_000 + ". I saw Megan.", speaker="Priya", listeners=["Marco"])
    ] == ["Megan"]
    assert time.perf_counter() - started < 5.0


# -- shapes the temporal benchmark showed we missed (our own wording) -----------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("After the merger I work for Initech.", fact("Priya", "works_at", "Initech")),
        ("Following the restructure we report to Dana.", fact("Priya", "reports_to", "Dana")),
        ("In the spring I relocated to Leeds.", fact("Priya", "lives_in", "Leeds")),
    ],
)
def test_a_fronted_phrase_does_not_make_the_subject_a_relative_clause(
    text: str, expected: tuple[str, ...]
) -> None:
    assert expected in facts(text)


def test_a_relative_clause_still_states_nothing_about_its_head() -> None:
    assert facts("The company I work for is hiring.") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Last spring we had to give away our hamster Tofu.", fact("Priya", "has_pet", "Tofu", "retract")),
        ("I had to sell the Corolla.", fact("Priya", "owns", "Corolla", "retract")),
        ("We had to move to Leeds for work.", fact("Priya", "lives_in", "Leeds")),
    ],
)
def test_a_past_obligation_reports_what_happened(text: str, expected: tuple[str, ...]) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize("text", ["I have to sell the Corolla.", "If I had to move to Leeds, I'd cry.",
                                  "I would have had to move to Leeds."])
def test_a_present_or_hypothetical_obligation_states_nothing(text: str) -> None:
    assert facts(text) == set()


def test_a_bare_correction_fixes_the_speakers_own_slip_before_the_listeners_news() -> None:
    earlier = (Candidate("Priya", "lives_in", "Ohrid"), Candidate("Marco", "works_at", "Initech"))
    assert facts("Sorry, I meant Leeds.", history=earlier) == {fact("Priya", "lives_in", "Leeds")}
    assert facts("Actually, it's Globex, not Initech.", history=earlier) == {
        fact("Marco", "works_at", "Globex")
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've been seeing someone, Tomasz, for a month.", fact("Priya", "partner_of", "Tomasz")),
        ("I'm dating somebody named Ilse.", fact("Priya", "partner_of", "Ilse")),
    ],
)
def test_someone_named_after_a_pause_is_the_partner(text: str, expected: tuple[str, ...]) -> None:
    assert facts(text) == {expected}


@pytest.mark.parametrize("text", ["I'm dating somebody new.", "I'm seeing Dana tomorrow.", "I love someone."])
def test_an_unnamed_someone_or_a_plain_meeting_is_no_partner(text: str) -> None:
    assert facts(text) == set()


# -- session 8: indirect statements, type checks, back-references ------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello from our new flat in Gdansk!", fact("Priya", "lives_in", "Gdansk")),
        ("got the keys to a little house in Whitstable on friday", fact("Priya", "lives_in", "Whitstable")),
        ("We picked up the keys for our new place in Ghent yesterday.", fact("Priya", "lives_in", "Ghent")),
        ("first shift at Elmhurst General was chaos", fact("Priya", "works_at", "Elmhurst General")),
        ("My first week at Tallow & Reed flew by.", fact("Priya", "works_at", "Tallow & Reed")),
        (
            "i adopted a cat!! rescued her from the car park. her name is soba",
            fact("Priya", "has_pet", "Soba"),
        ),
        ("I have a new companion: Juniper, a rescue whippet.", fact("Priya", "has_pet", "Juniper")),
        ("We just got back from Tbilisi!", fact("Priya", "visited", "Tbilisi")),
        ("I bought a car, a tired old Skoda Fabia.", fact("Priya", "owns", "Skoda Fabia")),
        ("I'm a paralegal at Marsh & Vale.", fact("Priya", "works_at", "Marsh & Vale")),
        ("I'm senior pharmacist at Greyling's now.", fact("Priya", "job_title", "senior pharmacist")),
        ("I got promoted to charge nurse last week!", fact("Priya", "job_title", "charge nurse")),
        (
            "Promoted! I'm now logistics team lead at Farrow Freight.",
            fact("Priya", "job_title", "logistics team lead"),
        ),
        ("I'm now nurse manager.", fact("Priya", "job_title", "nurse manager")),
        (
            "I adopted a dog last week! He's a shaggy collie called Bramble.",
            fact("Priya", "has_pet", "Bramble"),
        ),
        (
            "And, well, I'm seeing someone. Her name is Imke and she paints.",
            fact("Priya", "partner_of", "Imke"),
        ),
        ("finally signed the lease on a flat in gdansk 😭 no lift", fact("Priya", "lives_in", "Gdańsk")),
        ("writing to u from the new place in lyon!!!", fact("Priya", "lives_in", "Lyon")),
        ("im in a share house in bergen now w 2 students", fact("Priya", "lives_in", "Bergen")),
        ("my flat in malmö is mostly plants now", fact("Priya", "lives_in", "Malmö")),
        ("we went to rome for a long weekend", fact("Priya", "visited", "Rome")),
        ("i'm moving to lisbon in june!!", fact("Priya", "plans", "Lisbon")),
        ("someone stole my scooter from outside the gym", fact("Priya", "owns", "scooter", "retract")),
        ("my van got nicked last night", fact("Priya", "owns", "van", "retract")),
        ("saw the news, congrats on the promotion to head chef!!", fact("Marco", "job_title", "head chef")),
        (
            "Jonas and I found a flat together in Ottensen, above a florist.",
            fact("Priya", "lives_in", "Ottensen"),
        ),
        ("promoted to tech lead last week!! team of 4", fact("Priya", "job_title", "tech lead")),
        (
            "We've been in Kalamata since March and the garden is a jungle.",
            fact("Priya", "lives_in", "Kalamata"),
        ),
        ("We're in Dundee now, we moved in April.", fact("Priya", "lives_in", "Dundee")),
        (
            "Greetings from Tartu! The move went fine and the new place is lovely.",
            fact("Priya", "lives_in", "Tartu"),
        ),
        (
            "hola from valencia 👋 back in my old barrio, mum is thrilled",
            fact("Priya", "lives_in", "Valencia"),
        ),
        ("ok so. moving back to perth in january 🥹", fact("Priya", "plans", "Perth")),
        (
            "I've accepted a job at Corran Press in Glasgow, as a senior editor on their fiction list.",
            fact("Priya", "job_title", "senior editor"),
        ),
    ],
)
def test_indirect_statements_give_their_fact(text: str, expected: tuple[str, ...]) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "We've postponed Peru until the autumn.",  # a verb before the name is not "dog Peru"
        "Even I've heard of Larchmont Press.",
        "also. i have a Situation",  # "have" alone takes a pet word, not any name
        "I've booked Norway for June!",
        "I'm sitting here in Utrecht playing chess.",  # a participle, not a clause: Utrecht plays nothing
        "Kestrel Tools has been bought by Arden.",  # passive: Kestrel Tools owns nothing
        "Clara is part of the reason.",  # member_of needs a named group or a word for one
        "I signed up for the Lyon half marathon.",
        "How's work at Brindle Labs?",  # "How's" is no one's
        "I met a girl at the gym, her name is Ines.",  # "her name" after a person is no pet's
        "If I got a parrot I'd call it Mango.",
        "We are getting back from Crete tomorrow.",  # not back yet
        "I'd love a dog called Rufus one day.",
        "Biscuit is going to my neighbour Derek for the week.",
        "I've been to nice restaurants in town.",  # "nice" is a word before it is a city
        "My nephew got a rabbit and her name is Clover.",  # the nephew's pet, not the speaker's
        "We've been in Rome since Tuesday, the food is unreal.",  # a visit
        "I'm in Paris now for the conference.",
        "Hello from Seville! The tapas alone are worth the flight.",  # a greeting from a trip
    ],
)
def test_shapes_that_look_like_facts_state_none(text: str) -> None:
    got = facts(text)
    assert not {f for f in got if f[1] in ("has_pet", "owns", "member_of", "plays", "works_at", "visited",
                                          "lives_in")}, got


def test_a_pet_is_not_named_after_a_country_or_a_big_city() -> None:
    assert fact("Priya", "has_pet", "Japan") not in facts("I've got a dog, Japan.")
    assert fact("Priya", "has_pet", "Pickle") in facts("I've got a dog, Pickle.")


def test_a_person_named_like_a_place_keeps_their_facts() -> None:
    got = facts("My sister Georgia lives in Perth. Montserrat is my boss now.")
    assert {fact("Priya", "sibling_of", "Georgia"), fact("Georgia", "lives_in", "Perth"),
            fact("Priya", "reports_to", "Montserrat")} <= got


def test_selling_the_named_thing_ends_the_ownership_said_earlier() -> None:
    earlier = extract(
        "I bought a car last week, a secondhand Mazda Demio.",
        speaker="Priya",
        listeners=["Marco"],
        when=WHEN,
        registry=REGISTRY,
    )
    assert [(c.predicate, c.object) for c in earlier] == [("owns", "Mazda Demio")]
    assert fact("Priya", "owns", "Mazda Demio", "retract") in facts(
        "I sold the Demio on Thursday.", history=tuple(earlier)
    )
    assert fact("Priya", "owns", "Mazda Demio", "retract") in facts(
        "The Mazda? Sold it.", history=tuple(earlier)
    )


def test_it_resolves_only_to_a_thing_the_turn_named() -> None:
    earlier = (Candidate("Priya", "owns", "Vespa"),)
    assert not {f for f in facts("The Seat? Sold it.", history=earlier) if f[1] == "owns"}
    assert not facts("I sold it.")  # nothing to point back at


def test_a_direct_statement_outranks_an_indirect_one_in_the_same_turn() -> None:
    got = facts("I live in Porto now! Got the keys to a flat in Bonfim on Monday.")
    assert fact("Priya", "lives_in", "Porto") in got
    assert fact("Priya", "lives_in", "Bonfim") not in got


def test_gazetteer_knows_places_and_regions() -> None:
    from tkg.extract.gazetteer import is_big_place, is_place, is_region

    assert is_place("Porto") and is_region("Japan") and is_big_place("Tokyo")
    assert not is_place("Biscuit") and not is_region("Sofia")


def test_a_named_pet_in_the_turn_replaces_its_species() -> None:
    got = facts("We adopted a puppy on Sunday. She's a beagle called Fig.")
    assert fact("Priya", "has_pet", "Fig") in got and fact("Priya", "has_pet", "puppy") not in got


def test_a_time_in_another_clause_does_not_date_the_claim() -> None:
    got = extract(
        "My leave ends in November; I accepted a job at Orrin Labs.",
        speaker="Priya",
        listeners=["Marco"],
        when=WHEN,
        registry=REGISTRY,
    )
    job = next(c for c in got if c.predicate == "works_at")
    assert job.object == "Orrin Labs" and job.valid_at is None


def test_leaving_a_workplace_said_earlier_ends_it_but_leaving_early_does_not() -> None:
    earlier = (Candidate("Priya", "works_at", "Quarry Press"),)
    assert fact("Priya", "works_at", "Quarry Press", "retract") in facts(
        "Big news: I'm leaving Quarry Press.", history=earlier
    )
    assert not facts("I left Quarry Press early today.", history=earlier)
    assert not facts("I'm leaving Brook & Co.")  # never said to work there: nothing to end


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I got the Halden job!! start in march", fact("Priya", "works_at", "Halden")),
        (
            "St. Olave's gave me my old job back, I start on the 15th!",
            fact("Priya", "works_at", "St. Olave's"),
        ),
        ("joss proposed!!! on the pier 💍 i said yes obviously", fact("Priya", "engaged_to", "Joss")),
        (
            "hey. bad news. Joss and I called off the engagement",
            fact("Priya", "engaged_to", "Joss", "retract"),
        ),
    ],
)
def test_changes_said_by_what_happened(text: str, expected: tuple[str, ...]) -> None:
    assert expected in facts(text)


def test_a_proposal_without_a_yes_or_a_name_is_no_engagement() -> None:
    assert not facts("He proposed and I said yes.")
    assert not {f for f in facts("Tom proposed a toast.") if f[1] == "engaged_to"}


def test_an_emoji_after_a_name_does_not_end_the_list() -> None:
    got = facts("we adopted two puppies, Fudge and Crumble 🐶")
    assert {fact("Priya", "has_pet", "Fudge"), fact("Priya", "has_pet", "Crumble")} <= got


def test_a_stolen_things_place_is_not_part_of_it() -> None:
    assert fact("Priya", "owns", "scooter", "retract") in facts(
        "someone nicked my scooter outside the station"
    )


def test_someone_elses_new_flat_is_theirs() -> None:
    assert not {f for f in facts("Tom got a flat in Leeds.") if f[0] == "Priya"}


def test_a_generic_verb_takes_a_name_after_its_kind() -> None:
    got = facts("My cousin Ravi has a gecko called Spike.")
    assert fact("Ravi", "has_pet", "Spike") in got


def test_a_late_spouse_is_no_current_marriage() -> None:
    got = facts("I proposed to my late wife Irene in a bus shelter.")
    assert fact("Priya", "married_to", "Irene", "retract") in got
    assert not {f for f in got if f[3] == "assert"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I now report directly to the CTO, Hadrien.", fact("Priya", "reports_to", "Hadrien")),
        (
            "they promoted me to engineering manager last month",
            fact("Priya", "job_title", "engineering manager"),
        ),
    ],
)
def test_titles_give_way_to_names_and_promotions_to_titles(text: str, expected: tuple[str, ...]) -> None:
    assert expected in facts(text)


def test_he_or_she_is_the_one_person_named_earlier_in_the_turn() -> None:
    got = facts("I'm off to Oslo with my cousin Ingrid. She lives in Bergen now.")
    assert fact("Ingrid", "lives_in", "Bergen") in got
    assert not {f for f in facts("Tom rang, and Ingrid too. She moved to Bergen.") if f[1] == "lives_in"}
    assert not facts("She moved to Bergen.")  # no one to point back at


def test_of_two_indirect_homes_in_a_turn_the_city_stays() -> None:
    got = facts("Greetings from Vienna! I moved in June. Jonas and I found a flat together in Neubau.")
    assert fact("Priya", "lives_in", "Vienna") in got and fact("Priya", "lives_in", "Neubau") not in got


def test_an_if_governs_its_own_clause_only() -> None:
    got = facts("I don't know if this is the right moment, but I have news: I proposed to Noor on Friday!")
    assert fact("Priya", "engaged_to", "Noor") in got
    assert not facts("If I moved to Paris, I'd learn French.")
    assert not {
        f for f in facts("We might stay; if we moved to Leeds I'd miss the sea.") if f[1] == "lives_in"
    }


def test_actually_yes_corrects_nothing() -> None:
    earlier = (Candidate("Marco", "lives_in", "Lyon"),)
    assert not {f for f in facts("Actually yes 😊", history=earlier) if f[1] == "lives_in"}
    assert fact("Marco", "lives_in", "Lille", "assert") in {
        (f[0], f[1], f[2], f[3], f[4]) for f in facts("Actually, Lille.", history=earlier)}


def test_a_trip_named_by_its_place_is_cancelled_or_moved() -> None:
    assert fact("Priya", "plans", "Peru", "retract") in facts(
        "I have to tell you something sad: I cancelled Peru."
    )
    moved = extract("Bad news: we've postponed Peru until next spring.", speaker="Priya", listeners=["Marco"],
                    when=WHEN, registry=REGISTRY)
    assert [(c.predicate, c.object, c.valid_at is not None) for c in moved] == [("plans", "Peru", True)]
    assert not facts("I cancelled Netflix.")


def test_must_cancel_my_trip_cancels_it() -> None:
    assert fact("Priya", "plans", "Lima", "retract") in facts("I'm so sorry, I must cancel my Lima trip.")


def test_a_visit_ends_the_plan_to_go_there() -> None:
    earlier = (Candidate("Priya", "plans", "Japan"),)
    got = facts("We just got back from Japan! Two weeks of noodles.", history=earlier)
    assert {fact("Priya", "visited", "Japan"), fact("Priya", "plans", "Japan", "retract")} <= got
    assert fact("Priya", "plans", "Japan", "retract") not in facts("We just got back from Japan!")


def test_a_title_is_not_cut_inside_a_longer_one() -> None:
    got = facts("I accepted a job at Orrin Clinic as a dental hygienist.")
    assert not {f for f in got if f[1] == "job_title"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We moved in May, and my new boss at Corran Press, Ilse Berg, is lovely.",
            fact("Priya", "reports_to", "Ilse Berg"),
        ),
        ("I got an offer! My boss will be Tomas Vidal.", fact("Priya", "reports_to", "Tomas Vidal")),
        (
            "And more news: I got a job! Junior architect at Halden & Roe, in Bergen.",
            fact("Priya", "job_title", "junior architect"),
        ),
        (
            "And more news: I got a job! Junior architect at Halden & Roe, in Bergen.",
            fact("Priya", "works_at", "Halden & Roe"),
        ),
    ],
)
def test_roles_said_without_a_verb(text: str, expected: tuple[str, ...]) -> None:
    assert expected in facts(text)


def test_title_at_org_needs_the_job_news_first() -> None:
    assert not facts("Coffee at Marlow's was great.")
