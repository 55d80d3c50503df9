"""Partners brought in by a noun that calls them something ("this physiotherapist called Joel"), a
breed asked of one animal when another was adopted, and a question copied from a turn answered by
its reply. Our own messages (tests/data/reader/wren_ada.json) on each store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from planners.question import Question
from planners.question import parse as parse_question
from procedures.about import Subject
from procedures.reader import Reading
from procedures.result import ProcedureResult
from procedures.sentence_value import answered_by_reply
from tkg.memory import Memory
from tkg.models import Evidence

DATA = Path(__file__).parent / "data" / "reader" / "wren_ada.json"
WREN = Subject("Wren", frozenset({"wren"}), speaker=True)


@pytest.fixture(scope="module")
def wren(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "wren-ada", DATA)


@pytest.mark.parametrize("question", ["Who is Wren's partner now?", "Who is Wren seeing these days?"])
def test_someone_chatted_up_and_called_by_name_is_the_partner(wren: tuple[Memory, str],
                                                              question: str) -> None:
    """"I got chatting to this physiotherapist called Joel" brings in a partner; the Tom she rang about
    the boiler is no one's partner."""
    m, group = wren
    got = m.ask(question, group=group)
    assert got.answer == "Joel", (got.answer, got.trace.get("reading"))
    assert got.evidence[0].source_ref in ("D1:1", "D2:1")


def test_a_breed_of_the_animal_asked_or_no_information(wren: tuple[Memory, str]) -> None:
    """"What breed of dog" after a cat was adopted: an animal's kind is no breed of a dog."""
    m, group = wren
    dog = m.ask("What breed of dog did Wren adopt?", group=group)
    assert dog.abstained, (dog.answer, dog.trace.get("reading"))
    cat = m.ask("What breed of cat did Wren adopt?", group=group)
    assert cat.answer == "ragdoll", (cat.answer, cat.trace.get("reading"))


def test_a_question_copied_from_a_turn_is_answered_by_its_reply(wren: tuple[Memory, str]) -> None:
    """"how long have you been rowing now?" states nothing; Wren's reply, the next turn, answers it
    and leads the evidence; a question with no reply after it answers nothing."""
    m, group = wren
    q = parse_question("How long has Wren been rowing?")
    rowing = "how long have you been rowing now?"
    asking = next(e for e in m.search(rowing, group=group, k=20) if e.source_ref == "D2:3")

    def read(question: Question, answer: str, evidence: list[Evidence], who: Subject = WREN
             ) -> Reading | None:
        return answered_by_reply(m.ctx, question, group, who, ProcedureResult(answer, evidence), {}, [])

    got = read(q, rowing, [asking])
    assert got is not None and not got.abstained
    assert got.answer == "About four months, since the new year." and got.support[0].source_ref == "D2:4"
    again = read(q, rowing, [asking, got.support[0]])
    assert again is not None and [e.source_ref for e in again.support] == ["D2:4", "D2:3"]  # once each
    alone = Evidence("D9:9", "no-such-turn", "any news?", asking.valid_at, 1.0, group, speaker="Ada")
    unanswered = read(q, "any news?", [alone])
    assert unanswered is not None and unanswered.abstained
    assert read(q, "About four months.", [asking]) is None
    other = read(parse_question("What boat does Wren row?"), rowing, [asking])
    assert other is not None and other.abstained  # it asks something else: its reply answers nothing asked
    ada = Subject("Ada", frozenset({"ada"}), speaker=True)  # Wren replied: nothing of Ada's is stated
    not_hers = read(parse_question("How long has Ada been rowing?"), rowing, [asking], ada)
    assert not_hers is not None and not_hers.abstained
