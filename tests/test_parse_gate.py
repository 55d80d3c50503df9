"""What the reader does not parse it could not have read anything from.

A thing's spans need one of a few words (`procedures.span_words.thing_words`, or the question's
verb), and `tkg.nlp.may_say` tells from the pipeline's tokens and its lemma tables alone whether a
text may say one: for every token of a parsed text, its lower case and its lemma are among the
forms `may_say` considers, so a text it turns down holds no span `spans_of` (or a verb's object)
would find. The premise check skips a turn for the event only when no sentence of it could state
one of the event's words (`procedures.premise._may_say_event`).
"""

from __future__ import annotations

import pytest

from planners.asked import Asked
from procedures.premise import _may_say_event
from procedures.presupposed import GOING, heading_to
from procedures.reader import may_hold
from procedures.span_objects import objects_of
from procedures.span_words import NAMING, thing_words
from procedures.spans import spans_of
from tkg.nlp import _token_forms, lemma_forms, may_say, parse
from tkg.text import content_terms

TEXTS = [
    "I did it! We're gonna bake sourdough loaves, and Ana's kids ran off with the biggest ones.",
    "She'd been studying piano for years; now she's learning the cello and plays in a quartet.",
    "ain't nothin' better than y'all visiting. Got a new bookcase for my novels though.",
    "My dog Biscuit and our kitten, named Pip, sleep all day lol",
    "Went hiking up Ben Nevis 🏔️ then flew to Lisbon; the wolves' den was empty.",
    "Collected three more vinyl records at the fair — my collection keeps growing!!",
    "no capitals here at all, just feelings about life and stuff",
]


@pytest.mark.parametrize("text", TEXTS)
def test_every_token_reads_as_one_of_its_forms(text: str) -> None:
    forms = _token_forms(text)
    for tok in parse(text):
        assert tok.lower_ in forms and tok.lemma_.lower() in forms, (tok.text, tok.lemma_)
        assert tok.lemma_.lower() in lemma_forms(tok.lower_)


def test_may_say_by_lower_case_and_lemma() -> None:
    assert may_say("We did it!", {"do"})  # the attribute ruler's lemma
    assert may_say("we're gonna win", {"go"})  # "gon" takes "go"
    assert may_say("Three novels, two loaves", {"loaf"})  # a suffix rule
    assert may_say("The wolves howled", {"wolf"})
    assert not may_say("Got a new bookcase", {"book", "books"})  # a longer word is not the word
    assert not may_say("anything at all", set())


HEADS = ["book", "instrument", "pet", "record", "dog", ""]
VERBS = [None, "collect", "learn", "bake", "run", "do"]


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("verb", VERBS)
def test_a_turn_turned_down_holds_no_thing(head: str, verb: str | None) -> None:
    asked = Asked(kind="thing", head=head)
    for text in TEXTS:
        found = [sp.text for sent in parse(text).sents for sp in spans_of(sent, "thing", head)]
        found += [sp.text for sent in parse(text).sents for sp in (objects_of(sent, verb) if verb else [])]
        if not may_hold(asked, text, verb):
            assert found == [], (head, verb, text, found)


def test_the_gate_turns_turns_down() -> None:
    asked = Asked(kind="thing", head="instrument")
    assert may_hold(asked, TEXTS[1], None)  # "piano", "cello": members of the category
    assert not may_hold(asked, TEXTS[4], None)
    assert may_hold(asked, TEXTS[4], "fly")  # "flew": the question's verb, whose objects are read
    assert may_hold(Asked(kind="pet_name", head="dog"), TEXTS[6], None)  # other kinds: any text
    assert thing_words("") == frozenset() and NAMING <= thing_words("book")
    assert may_hold(Asked(kind="thing", head="pet"), TEXTS[3], None)  # "named Pip"


EVENTS = [({"bake"}, {}), ({"hike"}, {}), ({"move", "leave"}, {"lisbon": True}), ({"trip"}, {"porto": True})]


@pytest.mark.parametrize("event,placed", EVENTS)
def test_a_turn_skipped_for_the_event_states_none_of_it(event: set[str], placed: dict[str, bool]) -> None:
    for text in TEXTS:
        if _may_say_event(text.lower(), event, placed):
            continue
        for sent in parse(text).sents:
            low = sent.text.lower()
            assert not content_terms(sent.text) & event
            assert not (event & GOING and any(p and heading_to(low, n) for n, p in placed.items()))
