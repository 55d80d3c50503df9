"""Changes read off the parse (tkg/extract/parsed.py) and the asked kinds they answer: job offers
and starts, homes had now, vehicles picked up, in texting, formal and non-native styles."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from planners.asked import asked_for
from planners.cues import time_cue
from tkg.extract.engine import extract
from tkg.extract.parsed import load_parser
from tkg.nlp import pipeline
from tkg.predicates import PredicateRegistry

REG = PredicateRegistry.load()


def facts(text: str) -> set[tuple[str, str, str]]:
    got = extract(text, speaker="Nadia", listeners=["Omar"], when=datetime(2024, 3, 4, tzinfo=UTC),
                  registry=REG)
    return {(c.predicate, c.object, c.polarity) for c in got}


# each sentence with the facts it states, "predicate=object; …" (all asserted by the speaker)
SAID = {
    "Brightwell rang this morning. They offered me the junior analyst job!":
        "works_at=Brightwell; job_title=junior analyst",
    "Corvex made me an offer yesterday, I start in May.": "works_at=Corvex",
    "got the job at ferrow lol, start monday": "works_at=ferrow",
    "I got the job at Halvard Labs, I started on Monday.": "works_at=Halvard Labs",
    "Quillon passed me on probation today!!": "works_at=Quillon",
    "fair. so brightwell passed me on probation today!! officially staying": "works_at=brightwell",
    "ok sit down. brightwell called yesterday. they offered me the junior analyst job!!!":
        "works_at=brightwell; job_title=junior analyst",
    "I've been offered deputy head from January.": "job_title=deputy head",
    "Now I have small flat in Gdansk, only for me.": "lives_in=Gdansk",
    "Bought it on Friday, a 2018 Honda Jazz, blue.": "owns=Honda Jazz",
    "picked up the e-bike yesterday, so fast": "owns=e-bike",
    "Okay. Lukas is... my boyfriend. Since two months, more or less.": "partner_of=Lukas",
}


@pytest.mark.parametrize("text", sorted(SAID))
def test_changes_said_indirectly(text: str) -> None:
    want = {(*pair.split("="), "assert") for pair in SAID[text].split("; ")}
    assert want <= facts(text)


@pytest.mark.parametrize("text", [
    "She offered me a lift home after the party.",  # an offer of no job
    "Tom made me an offer I couldn't refuse on his old guitar.",  # a person's offer
    "Corvex made me an offer but I turned it down.",  # declined in the turn
    "I didn't get the job at Corvex.",
    "My aunt has a house in Spain.",  # someone else's home, and not said as now
    "I picked up my sister from the station.",  # no vehicle
])
def test_no_change_read(text: str) -> None:
    assert not {f for f in facts(text) if f[0] in ("works_at", "job_title", "lives_in", "owns")}


# what each question asks for, "kind/head"
ASKED = {
    "what is daniel driving these days": "thing/car",
    "What does Omar use to get around now?": "thing/vehicle",
    "What does Nadia ride to work these days?": "thing/vehicle",
    "What's Daniel's job now?": "role/job",
    "Who's Omar's girlfriend now?": "person/girlfriend",
    "What is Nadia doing for work these days?": "role/job",
}


def test_asked_kind() -> None:
    got = {question: f"{asked.kind}/{asked.head}" for question in ASKED for asked in [asked_for(question)]}
    assert got == ASKED


def test_use_to_is_a_time_cue_only_in_the_past() -> None:
    assert time_cue("What does Omar use to get around now?") is None
    assert time_cue("Where did Omar use to live?") is not None
    assert time_cue("What car did he used to drive?") == "used to"


def test_withdrawn_offer_ends_the_job_it_gave() -> None:
    when = datetime(2024, 3, 4, tzinfo=UTC)
    earlier = extract("I got a job offer! Senior analyst at Corvex Partners in Leeds, starting in June.",
                      speaker="Nadia", listeners=["Omar"], when=when, registry=REG)
    assert ("works_at", "Corvex Partners") in {(c.predicate, c.object) for c in earlier}

    def said(text: str) -> set[tuple[str, str, str]]:
        got = extract(text, speaker="Nadia", listeners=["Omar"], when=when, registry=REG, history=earlier)
        return {(c.predicate, c.object, c.polarity) for c in got}

    assert ("works_at", "Corvex Partners", "retract") in said(
        "Forget what I said about Corvex, the offer got withdrawn.")
    assert ("works_at", "Corvex Partners", "retract") in said("corvex pulled the offer, gutted")
    assert not said("My friend's offer from Corvex fell through.")


def test_the_parser_loads_before_ingest_only_for_turns_a_rule_may_parse() -> None:
    """Ingest loads the parser before its clock starts, and only when some turn carries a rule's cue."""
    assert load_parser(["see you at the gym tomorrow", "lol same"]) == 0.0
    took = load_parser(["see you at the gym tomorrow", "Corvex made me an offer on Monday"])
    assert took >= 0.0 and pipeline.cache_info().currsize == 1
    assert load_parser(["they hired me"]) == 0.0  # loaded already: nothing to load
