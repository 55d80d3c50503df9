"""A graph answer must speak of what the question asks (procedures/coverage.py).

Our own conversation: Dara visited Lisbon, then, weeks later, started going to the gym. The
extractor finds the visit (an edge) but not the gym (small talk), so a date or list taken from
the one `visited` edge would answer a question about the gym with the day of the trip.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from test_bulk_load import WordHashEmbedder

from planners.question import parse
from procedures.coverage import coverage
from tkg.memory import Memory
from tkg.models import EpisodeInput
from tkg.predicates import PredicateRegistry

T0 = datetime(2024, 3, 4, 18, 0, tzinfo=UTC)
TURNS = [
    ("Dara", "I visited Lisbon last weekend, the trams were lovely."),
    ("Emil", "Lisbon is on my list too!"),
    ("Dara", "Big news: I started going to the gym yesterday, three mornings a week."),
    ("Emil", "Good for you, the gym is hard to start."),
]


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    path = tmp_path_factory.mktemp("coverage") / "c.kuzu"
    memory = Memory.open(f"kuzu://{path}", embedder=WordHashEmbedder())  # type: ignore[arg-type]
    memory.ingest_episodes([
        EpisodeInput(group="dara", speaker=s, text=t, timestamp=T0 + timedelta(days=30 * (i // 2), minutes=i),
                     source_ref=f"D{i // 2 + 1}:{i % 2 + 1}", session=f"session_{i // 2 + 1}",
                     listeners=("Emil",) if s == "Dara" else ("Dara",))
        for i, (s, t) in enumerate(TURNS)])  # fmt: skip
    return memory


@pytest.mark.parametrize(("question", "asked", "said"), [
    ("When did Dara start to go to the gym?", {"start", "gym"}, set()),
    ("When did Dara visit Lisbon?", {"lisbon"}, {"lisbon"}),
    ("Which cities has Dara visited?", set(), set()),  # the head noun names the values' kind
    ("Where did Dara eat in March 2024?", {"eat"}, set()),  # the time says when, not what
    ("Which places has Dara visited at the moment?", set(), set()),  # and so does a recency cue
])  # fmt: skip
def test_what_a_question_asks_about_beyond_its_relation(
    question: str, asked: set[str], said: set[str]
) -> None:
    got = coverage(
        parse(question), ["Dara"], "visited", ["Lisbon Dara visited Lisbon"], PredicateRegistry.load()
    )
    assert got == (asked, said)


def test_the_visit_still_answers_when_the_question_asks_about_it(mem: Memory) -> None:
    facts = mem.history("Dara", "visited", group="dara")
    assert [f.object for f in facts] == ["Lisbon"]
    ans = mem.ask("When did Dara visit Lisbon?", group="dara")
    assert ans.procedure == "temporal" and ans.trace["steps"].get("from_graph")
    assert ans.evidence[0].source_ref == "D1:1"


def test_a_date_is_not_taken_from_an_edge_that_does_not_say_what_is_asked(mem: Memory) -> None:
    ans = mem.ask("When did Dara start to go to the gym?", group="dara")  # "go to" names `visited`
    steps = ans.trace["steps"]
    assert not steps.get("from_graph")
    assert any("does not say what the question asks about" in f["reason"] for f in steps["fallbacks"])
    assert ans.evidence[0].source_ref == "D2:1"  # the gym turn, not the Lisbon one
    assert "2024" in ans.answer and "4 March" not in ans.answer
