"""Splits and prepared queries kept per text (tkg.text.split_sentences, planners.query_text.parse_question,
planners.mentions' name patterns): a kept result is the same as a fresh one and no caller can change it."""

from __future__ import annotations

from planners.mentions import _usable
from planners.query_text import parse_question
from tkg.text import split_sentences


def test_a_caller_changing_its_split_changes_no_later_split() -> None:
    text = "We adopted a kitten on Sunday. Her name is Biscuit! She sleeps all day."
    first = split_sentences(text)
    first.append("not said")
    first[0] = "changed"
    assert split_sentences(text) == [
        "We adopted a kitten on Sunday.", "Her name is Biscuit!", "She sleeps all day.",
    ]
    assert split_sentences(text) is not split_sentences(text)


def test_a_kept_query_is_the_one_prepared_afresh() -> None:
    question = "Where did Tomasz go hiking on 3 March, 2024?"
    kept = parse_question(question)
    parse_question.cache_clear()
    fresh = parse_question(question)
    assert kept == fresh and kept is not fresh
    assert fresh.when_text == "on 3 March, 2024" and "tomasz" in fresh.words


def test_name_patterns_match_whole_words_and_escape_the_name() -> None:
    # found as a word (not opening the question): usable; a name the question does not hold: usable
    assert _usable("Ines", "When did Ines move?", lowercase=False)
    assert _usable("Al (Sr.)", "Did Al (Sr.) call?", lowercase=False)
    # a starter word that only opens the question is not a name
    assert not _usable("Will", "Will it rain in Porto?", lowercase=False)
    assert _usable("Will", "Did Will call?", lowercase=False)
    # said only in lower case: found ignoring case, but no case-true occurrence is a name
    assert not _usable("Will", "What will Ines do?", lowercase=False)
