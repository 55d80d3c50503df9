"""What holds now, read from turns that say it in passing or take it back: a move denied is no home,
a workplace named by "my team at" or after a role, a role said without a job word, a sport done as
the clause's verb, a partner after a parting, a place named after "Moved in!", a letter's "Ben,"
that is no partner, a brother's airline read through him, and how someone gets to work. Our own letters
(tests/data/reader/marisol_ben.json) on each store, and our own sentences for the rules below.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import Asked
from planners.question import parse as parse_question
from procedures.choice import choose
from procedures.reader import Candidate
from procedures.span_patterns import members_said
from procedures.spans import spans_of
from procedures.stated import denies
from tkg.extract.engine import extract
from tkg.memory import Memory
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.predicates import PredicateRegistry

DATA = Path(__file__).parent / "data" / "reader" / "marisol_ben.json"


@pytest.fixture(scope="module")
def mb(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "marisol-ben", DATA)


def _ask(m: Memory, group: str, question: str) -> str:
    a = m.ask(question, group=group)
    return a.answer


def test_a_move_denied_is_no_home(mb: tuple[Memory, str]) -> None:
    m, group = mb  # "No, I have not moved to Lyon", then the letter is signed "With love from Lyon"
    assert _ask(m, group, "Where does Marisol live now?") == "Porto"


def test_a_workplace_named_by_a_team_or_after_a_role(mb: tuple[Memory, str]) -> None:
    m, group = mb  # the graph still holds Tidewell; "my team at Hollis", "Head of Research at Hollis"
    assert [f.object for f in m.state("Marisol", "works_at", group=group)] == ["Tidewell Shipping"]
    assert _ask(m, group, "Who does Marisol work for now?") == "Hollis"
    assert _ask(m, group, "What is Marisol's job title now?") == "Head of Research at Hollis"


def test_a_sport_done_as_the_verb(mb: tuple[Memory, str]) -> None:
    m, group = mb  # "I gave up swimming. I'm climbing more than ever, bouldering three nights a week."
    assert _ask(m, group, "What sport does Ben do now?") in ("climbing", "bouldering")


def test_a_partner_after_a_parting(mb: tuple[Memory, str]) -> None:
    m, group = mb  # Tiago, then "called it a day"; Inês; and "Ben," opens every letter
    assert "Marisol's partner" in [f.object for f in m.state("Marisol", "partner_of", group=group)]
    assert _ask(m, group, "Who is Marisol's partner?") == "Inês"


def test_moved_in_names_the_new_home(mb: tuple[Memory, str]) -> None:
    m, group = mb
    assert _ask(m, group, "Where does Ben live now?") == "Whitstable"
    # "My sister's big news: she's left Bristol and moved into a flat in Cardiff" is the sister's move
    assert "Cardiff" not in [f.object for f in m.state("Ben", "lives_in", group=group)]


def test_a_diet_said_by_its_adjective(mb: tuple[Memory, str]) -> None:
    m, group = mb  # "gone vegetarian for January", then "I'm fully vegan since March"
    assert _ask(m, group, "What is Ben's diet like now?") == "vegan"


def test_a_dog_had_from_a_rescue(mb: tuple[Memory, str]) -> None:
    m, group = mb  # "came home from the Thanet Lurcher Rescue with Biscuit": the tagger's one name
    assert _ask(m, group, "What dog does Ben have now?") == "Biscuit"


def test_how_someone_gets_to_work_is_a_means_of_transport(mb: tuple[Memory, str]) -> None:
    m, group = mb  # the graph's works_at edge is not how she gets there; "the cargo bike life for me now"
    question = "How does Marisol get to work now?"
    assert parse_question(question).asked == Asked("thing", "transport", recency=True)
    assert _ask(m, group, question) == "cargo bike"


def test_a_phone_named_by_its_make() -> None:
    doc = parse("Mine got nicked on the bus, so I bought a Samsung A54 yesterday.")
    assert "Samsung A54" in [s.text for sent in doc.sents for s in spans_of(sent, "thing", "phone")]


def test_a_partner_introduced_as_someone_new() -> None:
    for text, name in (("Someone new: Inês. We met at the rowing club.", "Inês"),
                       ("...maybe. her name's maya. she's a paramedic", "maya")):
        doc = parse(text)
        assert name in [s.text for sent in doc.sents for s in spans_of(sent, "person", "partner")]


def test_a_relative_s_workplace_read_through_him(mb: tuple[Memory, str]) -> None:
    m, group = mb  # sibling_of Tom ends a hop short; "my brother … He flies for Loganair now"
    assert [f.object for f in m.state("Ben", "sibling_of", group=group)] == ["Tom"]
    assert _ask(m, group, "Which airline does Ben's brother fly for now?") == "Loganair"


def test_a_name_with_digits_is_a_span() -> None:
    doc = parse("He flies for Jet2 out of Leeds now.")
    assert "Jet2" in [s.text for s in spans_of(doc[:], "organisation", "airline")]


@pytest.mark.parametrize(("text", "speaker_home"), [
    ("She's moved into a flat in Leeds.", False),
    ("Mum's big news: she's left the house in Whitby and moved into a flat in Scarborough.", False),
    ("We've moved into a flat in Leeds.", True),
    ("She helped a lot when I moved into a flat in Leeds.", True),
])
def test_whose_flat_a_move_into_names(text: str, speaker_home: bool) -> None:
    got = extract(text, speaker="Nadia", listeners=["Ola"], when=datetime(2023, 1, 15, tzinfo=UTC),
                  registry=PredicateRegistry.load())
    assert any(c.subject == "Nadia" and c.predicate == "lives_in" for c in got) is speaker_home


@pytest.mark.parametrize(("text", "word", "said"), [
    ("I'm climbing more than ever since I quit football, bouldering three nights a week.", "climbing", True),
    ("I've taken up bouldering.", "bouldering", True),
    ("I'm running late.", "running", False),
    ("She is running a café near the station.", "running", False),
])
def test_a_sport_said_by_its_gerund(text: str, word: str, said: bool) -> None:
    sent = next(parse(text).sents)
    assert (word in [s.text for s in spans_of(sent, "thing", "sport")]) is said
    assert all(s.text != word or s.cued for s in members_said(sent, "sport"))


def test_a_workplace_the_tagger_took_for_a_person() -> None:
    doc = parse("My team at Brenner won an internal award.")
    assert "Brenner" in [s.text for s in spans_of(doc[:], "organisation", "employer")]


def test_a_code_switched_phrase_names_no_one() -> None:
    doc = parse("ok lang ako, pagod lang")  # Tagalog's function words, written lower case
    assert [s.text for sent in doc.sents for s in spans_of(sent, "person", "")] == []
    doc = parse("the flat doesnae allow pets. she's fat noo")  # Scots as typed
    assert not {"doesnae", "noo"} & {s.text for sent in doc.sents for s in spans_of(sent, "person", "")}


def test_a_denial_of_the_state_not_of_a_liking() -> None:
    moved, liked = parse("I no longer work at Arup."), parse("I didn't like Paris at all.")
    assert denies(moved[:], moved[6])
    assert not denies(liked[:], liked[4])


def _cand(value: str, score: float, day: int) -> Candidate:
    when = datetime(2024, 1, day, tzinfo=UTC)
    ev = Evidence(f"D{day}:1", f"e{day}{value}", f"{value}.", when, 1.0, "g", speaker="Ola")
    return Candidate(value, score, when, ev, "turn", 0.9)


def test_a_name_said_often_is_not_said_to_be_the_answer() -> None:
    # one strong statement, and a name said weakly in ten turns (a letter's greeting): at most three
    # further sayings add to its support
    cands = [_cand("Helen", 0.9, 2)] + [_cand("Alasdair", 0.25, d) for d in range(3, 13)]
    chosen, how = choose(Asked("person", "partner"), cands, latest=False, window=None)
    assert [c.value for c in chosen] == ["Helen"], how
