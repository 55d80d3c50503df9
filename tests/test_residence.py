"""Where someone lives, read from the clause that names a place (procedures/residence.py), and the
reader choosing by it: a move's "from" place, a place hung on a job or an event, a value taken back
("wait no") weigh less than a place the clause says the subject lives in. Our own sentences."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

import pytest

from planners.asked import asked_for
from procedures.about import Subject
from procedures.choice import choose
from procedures.reader import SUPPORT, candidates
from procedures.residence import lives_question, named_home, residence_scale, taken_back
from procedures.spans import spans_of
from tkg.models import Evidence
from tkg.nlp import parse


def _scale(text: str, place: str) -> float:
    doc = parse(text)
    tok = next(t for t in doc if t.text == place)
    return residence_scale(doc, tok.i, tok.i + 1)


@pytest.mark.parametrize(("text", "place"), [
    ("My cousin moved to Lyon last spring.", "Lyon"),
    ("We found a flat in Clapham with a tiny garden.", "Clapham"),
    ("Greetings from Tromsø, it is dark all day.", "Tromsø"),
    ("He lives in Ghent these days.", "Ghent"),
    ("We moved to Aarhus right after the wedding.", "Aarhus"),  # a move beside an event is a move
    ("Love, welcome to Tenby!", "Tenby"),  # said to someone who has just moved there
    ("We got a little cottage in Rhayader with a view.", "Rhayader"),  # a home noun
    ("now I live with a host family in Fulwood, they're lovely", "Fulwood"),  # hung on the family
])
def test_a_clause_that_says_where_someone_lives_keeps_its_place(text: str, place: str) -> None:
    assert _scale(text, place) == 1.0


@pytest.mark.parametrize(("text", "place"), [
    ("She moved there from Cork in the autumn.", "Cork"),  # the place the move left
    ("I applied for a job at Brightwave in Dublin.", "Dublin"),  # a job's place, not a home
    ("Honestly the best bakery in Lisbon, no contest.", "Lisbon"),  # a superlative's scope
    ("Our wedding will be in Sintra, outdoors.", "Sintra"),  # an event held somewhere
    ("We got married in Bruges, just the two families.", "Bruges"),
    ("I shut the front gate in Moffat for the last time on Friday.", "Moffat"),  # a home being left
    ("Honestly I cried when we were leaving Kendal.", "Kendal"),
])
def test_places_the_clause_does_not_make_a_home_weigh_less(text: str, place: str) -> None:
    assert _scale(text, place) < 0.65


def test_a_value_taken_back_in_the_turn() -> None:
    doc = parse("he's still down in Cork I think. no wait, he's in Galway now")
    cork, galway = (next(t.i for t in doc if t.text == p) for p in ("Cork", "Galway"))
    assert taken_back(doc, cork, [cork, galway])
    assert not taken_back(doc, galway, [cork, galway])
    plain = parse("he was in Cork, and I mean properly in Cork")  # no other value after the marker
    assert not taken_back(plain, 3, [3])


@pytest.mark.parametrize(("text", "status"), [
    ("Our wedding is set for next June, in a barn!", "engaged"),
    ("honestly too close to the wedding to switch jobs", "engaged"),
    ("The wedding was perfect, everyone cried.", "married"),
])
def test_a_wedding_ahead_is_an_engagement_and_one_done_a_marriage(text: str, status: str) -> None:
    assert [s.text for s in spans_of(next(parse(text).sents), "status", "status")] == [status]


def _ev(ref: str, text: str, when: datetime) -> Evidence:
    return Evidence(ref, ref, text, when, 1.0, "g", speaker="Maeve")


def test_the_reader_takes_the_home_not_the_wedding_or_the_place_left() -> None:
    """"Where does Maeve live now?": Galway, said in a move sentence; not Bruges (a wedding said
    later), not Cork (the place the move left), not Oslo (taken back)."""
    said = [datetime(2022, m, d, tzinfo=UTC) for m, d in ((4, 2), (9, 10), (9, 11))]
    turns = [
        _ev("D1:1", "I moved to Galway from Cork in March, the flat is lovely.", said[0]),
        _ev("D2:1", "We got married in Bruges last week, tiny ceremony.", said[1]),
        _ev("D3:1", "my sister is up in Oslo now. wait no, she's in Bergen", said[2]),
    ]
    asked = asked_for("Where does Maeve live now?")
    subject = Subject("Maeve", frozenset({"maeve"}), True)
    cues = {"live", "move", "flat", "home"}
    got = candidates(cast(Any, None), asked, subject, turns[:2], cues, ("Maeve", "Ciara"), set(), None,
                     residence=True)
    chosen, how = choose(asked, got, latest=True, window=None)
    assert [c.value for c in chosen] == ["Galway"], how
    plain = candidates(cast(Any, None), asked, subject, turns[:2], cues, ("Maeve", "Ciara"), set(), None)
    assert max(c.score for c in plain if c.value == "Bruges") > max(
        c.score for c in got if c.value == "Bruges")  # without the slot, no structure is read
    sister = candidates(cast(Any, None), asked, None, turns[2:], cues, ("Maeve", "Ciara"), set(), None)
    scores = {c.value: c.score for c in sister}
    assert scores["Bergen"] > scores["Oslo"]


def test_a_place_after_a_locative_is_not_the_club_asked_for() -> None:
    """"Which choir is Odile in?": the Harbour Singers, not the town a postcard comes from."""
    when = datetime(2023, 3, 1, tzinfo=UTC)
    turns = [_ev("D1:1", "I joined the Harbour Singers choir last month, we rehearse on Tuesdays.", when),
             _ev("D2:1", "I shall send a postcard from Ålesund and then come home.", when)]
    asked = asked_for("Which choir is Maeve singing in now?")
    subject = Subject("Maeve", frozenset({"maeve"}), True)
    voices = ("Maeve", "Ciara")
    got = candidates(cast(Any, None), asked, subject, turns, {"choir", "sing"}, voices, set(), None)
    scores = {c.value: c.score for c in got}
    assert scores["Ålesund"] < SUPPORT / 2 < SUPPORT < scores["Harbour Singers"]


@pytest.mark.parametrize("text", ["Up in Tromsø, finally.", "back there in Ghent lol", "Away from Cork."])
def test_a_fragment_whose_root_is_an_adverb_is_read_and_ends(text: str) -> None:
    """The climb past adverbs stops at the root (a token is compared by index, not identity)."""
    doc = parse(text)
    assert all(0.0 < residence_scale(doc, t.i, t.i + 1) <= 1.0 for t in doc)


def test_only_a_question_about_where_someone_lives_reads_the_clause() -> None:
    assert lives_question("Where was Odile living in May 2020?")
    assert lives_question("Which town does Odile live in now?")
    assert not lives_question("Which city did Odile's boss move to Leeds from?")  # the "from" place is asked
    assert not lives_question("In which city did Odile open her shop?")


def _home(text: str, place: str) -> bool:
    doc = parse(text)
    starts = [sp.start for sent in doc.sents for sp in spans_of(sent, "place", "")]
    at = next(t.i for t in doc if t.text == place)
    return named_home(doc, at + 1, starts)


@pytest.mark.parametrize(("text", "place"), [
    ("Tallinn update: been here six weeks now and the flat finally has curtains.", "Tallinn"),
    ("Zagreb news: we've lived there since spring and we love it.", "Zagreb"),
])
def test_here_and_there_refer_back_to_the_place_named_as_home(text: str, place: str) -> None:
    assert _home(text, place)


@pytest.mark.parametrize(("text", "place"), [
    ("Tallinn was lovely, we were there for a week.", "Tallinn"),  # a visit, not a home
    ("Zagreb is nice but we never lived there.", "Zagreb"),  # denied
    ("Tallinn is far from Riga, and we settled here a year ago.", "Tallinn"),  # Riga is nearer
])
def test_here_and_there_do_not_make_a_home_of_a_visit_a_denial_or_an_earlier_place(
        text: str, place: str) -> None:
    assert not _home(text, place)


def test_the_reader_reads_a_home_said_as_here() -> None:
    """"Where does Maeve live now?": Tallinn, named once and then said as "been here six weeks"."""
    turns = [_ev("D1:1", "Tallinn update: been here six weeks, the flat has curtains at last.",
                 datetime(2023, 5, 2, tzinfo=UTC))]
    asked = asked_for("Where does Maeve live now?")
    subject = Subject("Maeve", frozenset({"maeve"}), True)
    cues = {"live", "move", "flat", "home"}
    voices = ("Maeve", "Ciara")
    got = candidates(cast(Any, None), asked, subject, turns, cues, voices, set(), None, residence=True)
    plain = candidates(cast(Any, None), asked, subject, turns, cues, voices, set(), None)
    score = {c.value: c.score for c in plain}
    assert max(c.score for c in got if c.value == "Tallinn") > score["Tallinn"]


def test_a_spanish_opening_mark_is_no_part_of_a_value() -> None:
    """"¡Tesla no, jaja!": the tokenizer glues the mark to the word; the value is "Tesla"."""
    when = datetime(2023, 3, 1, tzinfo=UTC)
    turns = [_ev("D1:1", "Ya vendí la troca. ¡Tesla no, jaja! I drive a Tacoma now.", when)]
    asked = asked_for("What car does Maeve drive now?")
    subject = Subject("Maeve", frozenset({"maeve"}), True)
    got = candidates(cast(Any, None), asked, subject, turns, {"drive", "car"}, ("Maeve", "Ciara"), set(),
                     None)
    assert got and not any(c.value.startswith(("¡", "¿")) for c in got), [c.value for c in got]
