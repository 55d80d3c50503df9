"""List and story questions as strangers ask them: a polite request ("Could you summarise…") is no
yes/no question; "list all the X", "which home health aides" name their head; a sport is what someone
takes up, cut to the sport; a name is tied to its kind by a copula or a comma after the kind's phrase;
a story's topic leaves out the span it is told over, and it is told from its first day to its last.
Our own sentences and our own conversation (tests/data/reader/ilse_corbin.json) on each store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from reliability.common import ingested

from planners.asked import asked_for, requests_summary
from planners.cues import without_span
from planners.query_text import names_in
from procedures.members import category, headed_facts, taken_up
from procedures.reader import not_a_thing
from procedures.story import MAX_BULLETS, Scored, spread
from procedures.topic import VALUE_KINDS, relatives, topic_words, values_said
from tkg.memory import Memory
from tkg.models import Fact
from tkg.nlp import parse
from tkg.predicates import PredicateRegistry

DATA = Path(__file__).parent / "data" / "reader" / "ilse_corbin.json"


def test_a_polite_request_is_asked_as_the_request() -> None:
    told = asked_for("Could you summarise how Ilse's job changed?")
    assert told.kind == "summary" and not told.yesno
    assert requests_summary("Can you please describe Ilse's year?")
    listed = asked_for("Can you list the cities Ilse has lived in?")
    assert (listed.kind, listed.head, listed.many, listed.yesno) == ("place", "city", True, False)
    assert asked_for("Can Ilse swim?").yesno  # a yes/no question about someone stays one


def test_the_head_of_a_list_is_its_plural_or_the_imperatives_object() -> None:
    assert asked_for("List all the pets Ilse has had.").head == "pet"  # a name ends the phrase
    assert asked_for("Name every band Corbin liked.").head == "band"
    aides = asked_for("Which home health aides have helped Ilse's father?")
    assert (aides.kind, aides.head, aides.many) == ("person", "aide", True)
    assert asked_for("What finishing time did Ilse get?").head == "race time"  # no plural: one race result


@pytest.mark.parametrize("question", [
    "Where has Ilse been on holiday during the diary?",  # the whole record, however it is kept
    "Which part-time job has Corbin had over the conversation?",
    "Where has Ilse stayed in these emails?",
])
def test_a_question_over_the_whole_record_asks_for_a_list(question: str) -> None:
    assert asked_for(question).many
    assert not asked_for("Where did Ilse go on holiday in June?").many


def test_a_storys_topic_leaves_out_the_span_it_is_told_over() -> None:
    assert topic_words("Can you summarise how Ilse's career developed over the apprenticeship?",
                       {"ilse"}) == ("career",)
    assert topic_words("What happened during the regatta?", set()) == ("regatta",)  # nothing else: kept
    family, _ = relatives(("living",), PredicateRegistry.load())
    assert "lives_in" in family  # the relation's own phrase, however common the word


def test_a_sport_taken_up_is_cut_to_the_sport() -> None:
    sent = list(parse("I started bouldering with some folk and picked up an e-scooter.").sents)[0]
    assert {s.text for s in category("sport", []).spans(sent)} == {"bouldering"}


def test_picking_up_a_thing_is_buying_it_but_picking_up_a_sport_takes_it_up() -> None:
    def up(text: str) -> set[str]:
        return {s.text for x in parse(text).sents for s in taken_up(x)}

    assert up("so I picked up running") == {"running"} and up("I took up the cello.") == {"cello"}
    assert up("I picked up a secondhand e-scooter for the commute") == set()


def test_a_date_is_no_member_of_a_list_of_things() -> None:
    doc = parse("I finished it in December and started the pottery course")
    assert not_a_thing(doc[4:5], "course") and not not_a_thing(doc[8:10], "course")


def test_a_copula_or_a_comma_after_the_kinds_phrase_ties_a_name() -> None:
    cat = category("carer", ["we found a carer through the council scheme, Odalys, she comes mornings",
                             "The new carer is Tamsin and she is lovely", "my cousin Brisa says hi"])
    assert {"odalys", "tamsin"} <= cat.names and "brisa" not in cat.names


def test_the_span_a_question_is_asked_over_is_cut_off() -> None:
    assert without_span("Which companies has Ilse worked for during these conversations?") \
        == "Which companies has Ilse worked for"
    assert without_span("How did Ilse's job change over the course of these chats?") \
        == "How did Ilse's job change"
    assert without_span("What happened with the Oslo trip?") == "What happened with the Oslo trip?"


def test_a_request_verb_opening_a_question_names_no_one() -> None:
    assert names_in("Summarise how the wedding plans of Ilse changed.") == ("Ilse",)
    assert names_in("Describe Corbin's year.") == ("Corbin",)


def test_a_topic_naming_a_kind_of_value_is_told_by_the_turns_stating_one() -> None:
    assert {VALUE_KINDS[w] for w in topic_words("How did Ilse's swim times and race dates change?", {"ilse"})
            if w in VALUE_KINDS} == {"time", "date"}
    said = values_said("new best of 24:10 at the Harbour gala on March 3rd", ["time", "date"])
    assert said == ["time", "date"]
    assert values_said("the pool was freezing again", ["time", "date"]) == []


def test_a_list_of_organisations_lists_no_edge_of_another_relation(mem: Memory) -> None:
    rowing = Fact("f1", "g", "Ilse", "member_of", "Harbour Rowing Club", "Ilse rows at the club", None)
    assert headed_facts(mem.ctx, "club", [rowing]) == [rowing]
    job = Fact("f3", "g", "Ilse", "works_at", "Fernhollow Press", "Ilse works at Fernhollow Press", None)
    club = Fact("f4", "g", "Ilse", "member_of", "evening pottery class", "Ilse joined a pottery class", None)
    assert headed_facts(mem.ctx, "company", [job, club]) == [job]  # "company" names works_at


def _scored(day: int, score: float) -> Scored:
    row = {"uuid": f"{day}-{score}", "valid_at": datetime(2024, 1, day, tzinfo=UTC)}
    return Scored(row, score, {})


def test_a_story_takes_the_best_turn_of_every_day_first() -> None:
    busy = [_scored(1, 9.0 - i / 10) for i in range(MAX_BULLETS)]  # one day that says most
    late = _scored(20, 3.0)
    chosen = spread(busy + [late])
    assert len(chosen) == MAX_BULLETS and late in chosen
    assert chosen[0].score == 9.0  # still best first


@pytest.fixture(scope="module")
def mg(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ilse-corbin", DATA)


@pytest.mark.parametrize(("question", "wanted", "unwanted"), [
    ("Which carers have looked after Ilse's father?", {"odalys", "tamsin"}, {"corbin", "priti"}),
    ("What sports has Ilse picked up?", {"bouldering", "swimming"}, {"scooter", "commute"}),
    ("List all the sports Ilse has taken up.", {"bouldering", "swimming"}, {"scooter"}),
    ("Which group activities has Ilse taken up?", {"choir", "bouldering"}, {"scooter", "commute"}),
])
def test_lists_of_strangers_phrasings(mg: tuple[Memory, str], question: str, wanted: set[str],
                                      unwanted: set[str]) -> None:
    m, group = mg
    ans = m.ask(question, group=group)
    low = ans.answer.lower()
    assert ans.mode == "aggregation" and not ans.abstained, ans.answer
    assert all(w in low for w in wanted), ans.answer
    assert not any(w in low for w in unwanted), ans.answer


def test_a_polite_summary_request_is_told_as_a_story(mg: tuple[Memory, str]) -> None:
    m, group = mg
    ans = m.ask("Could you summarise how Ilse's work situation changed over the friendship?", group=group)
    assert ans.procedure == "long_form" and not ans.answer.startswith("Yes"), ans.answer
    assert "Fernhollow offered me the editor job" in ans.answer and "manager Priti" in ans.answer


def test_a_story_of_times_is_told_by_the_turns_that_state_them(mg: tuple[Memory, str]) -> None:
    m, group = mg
    ans = m.ask("Summarise how Ilse's swim times progressed.", group=group)
    assert ans.procedure == "long_form" and not ans.abstained
    assert "9:15" in ans.answer and "8:40" in ans.answer, ans.answer


def test_a_count_of_a_heads_things_counts_the_list_of_them(mg: tuple[Memory, str]) -> None:
    m, group = mg
    ans = m.ask("How many sports has Ilse taken up?", group=group)
    assert ans.mode == "aggregation" and ans.answer.startswith("2: "), ans.answer
    assert "bouldering" in ans.answer and "swimming" in ans.answer
