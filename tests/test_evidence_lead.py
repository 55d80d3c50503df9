"""Which turns lead a reading's evidence (`procedures.lead`): a typed value chosen by time leads
with its own statements, the newest restatement included, and a value an edge states with the
edge's turn, on each store; any other answer keeps the procedure's ranking. Our own conversation,
tests/data/reader/ines_bruno.json: a move, then the new city said again in words the question does
not use ("Braga still, just swapped flats"), between turns that share the question's words ("do you
still live near the station?")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from procedures.about import Subject
from procedures.lead import leading, names
from procedures.reader import Candidate
from tkg.memory import Memory
from tkg.models import Evidence

DATA = Path(__file__).parent / "data" / "reader" / "ines_bruno.json"


@pytest.fixture(scope="module")
def ib(mem: Memory) -> str:
    """The conversation's group in the module's store."""
    return ingested(mem, "ines-bruno", DATA)


def test_now_leads_with_the_statements_of_the_latest_value(mem: Memory, ib: str) -> None:
    a = mem.ask("Which city does Ines live in now?", group=ib)
    assert "braga" in a.answer.lower() and not a.abstained, a.trace.get("reading")
    lead = a.trace["reading"]["evidence_lead"]
    refs = [e.source_ref for e in a.evidence]
    assert refs[: len(lead["turns"])] == lead["turns"] and "latest" in lead["why"]
    assert {"D2:1", "D3:2"} <= set(lead["turns"])  # the move, and "Braga still" that shares no word with it


def test_as_of_leads_only_with_what_was_said_by_then(mem: Memory, ib: str) -> None:
    a = mem.ask("Which city did Ines live in in 2021?", group=ib)
    assert "porto" in a.answer.lower(), a.trace.get("reading")
    lead = a.trace["reading"]["evidence_lead"]["turns"]
    assert lead[0] == "D1:1" and all(ref.startswith("D1:") for ref in lead)  # nothing said after 2021
    assert [e.source_ref for e in a.evidence][0] == "D1:1"


def test_a_value_an_edge_states_leads_with_the_edges_turn(mem: Memory, ib: str) -> None:
    a = mem.ask("Where does Ines live?", group=ib)  # no "now": the best-supported value, from the graph
    reading = a.trace.get("reading") or {}
    assert "braga" in a.answer.lower() and "dated_by" not in reading["choice"], reading
    assert reading["evidence_lead"]["why"] == "an edge of the graph states it"
    assert [e.source_ref for e in a.evidence][0] == reading["evidence_lead"]["turns"][0] == "D2:1"


def _turn(ref: str, text: str, day: int, speaker: str = "Ines") -> Evidence:
    return Evidence(ref, f"ep-{ref}", text, datetime(2023, 1, day, tzinfo=UTC), 0.0, "g", speaker=speaker)


def test_restatements_lead_for_places_not_for_people_and_edges_lead_without_time() -> None:
    ines = Subject("Ines", frozenset({"ines"}), speaker=True)
    moved = _turn("D1", "i moved to Braga with Tiago", 1)
    again = _turn("D3", "Braga still, and Tiago says hi", 3)
    other = _turn("D4", "Bruno went to Braga too", 4, speaker="Bruno")  # neither said by nor naming Ines
    by_time = {"chosen_by": "the latest well-supported value", "dated_by": ["D1"]}
    place, person = (Candidate(v, 1.0, moved.valid_at, moved, "turn") for v in ("Braga", "Tiago"))
    edge = Candidate("Braga", 2.5, moved.valid_at, moved, "graph")
    day = datetime(2023, 1, 2, tzinfo=UTC)

    def lead(kind: str | None, cand: Candidate, how: dict[str, object],
             window: tuple[datetime, datetime] | None = None,
             ranked: list[Evidence] | None = None) -> list[str]:
        trace: dict[str, object] = {}
        got = [e.source_ref or "" for e in leading(kind, how, [cand], [cand], [moved, again, other], ines,
                                                    window, trace, ranked=ranked)]
        assert bool(got) == ("evidence_lead" in trace)
        return got

    assert lead("place", place, by_time) == ["D1", "D3"]
    assert lead("place", place, by_time, window=(day.replace(year=1990), day)) == ["D1"]  # as of the 2nd
    assert lead("place", place, by_time, window=(day, datetime(2200, 1, 1, tzinfo=UTC))) == ["D1"]  # after
    assert lead("person", person, by_time) == ["D1"]  # a name said again is not a restatement of the relation
    assert lead(None, place, by_time) == []  # an untyped value or a list keeps the procedure's ranking
    best = {"chosen_by": "the best-supported value"}
    assert lead("place", place, best) == [] and lead("place", edge, best) == ["D1"]  # an edge vouches for it
    # a value read from a turn the procedure ranked below its first three leads; one ranked high does not
    assert lead("place", place, best, ranked=[again, other, again, moved]) == ["D1"]
    assert lead("place", place, best, ranked=[again, moved]) == []
    assert names("BRAGA still!", "Braga") and not names("Bragança", "Braga")
