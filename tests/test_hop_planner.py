"""The hop planner: phrasings of relation chains, inverse relations, as-of text, names."""

from __future__ import annotations

import dataclasses

import pytest

from planners.gates import relation_chain_gate
from planners.hop_planner import MAX_HOPS, Hop, HopPlan, find_mentions, plan_hops
from planners.lexicon import DEFAULT_LEXICON, SYMMETRIC, ExtraPhrase, build_lexicon

NAMES = [
    "Priya", "Marco", "Dana", "Lisbon", "Aiko", "Jonah", "Nadia", "Mei", "Oslo", "Porto", "Felix", "Beatriz",
]
R = Hop("reports_to")
R_INV = Hop("reports_to", inverse=True)
LIVES = Hop("lives_in")
LIVES_INV = Hop("lives_in", inverse=True)

CASES: list[tuple[str, str, tuple[Hop, ...], str]] = [
    # possessive chains
    ("Priya's manager's home town", "Priya", (R, Hop("from_place")), "entity"),
    ("What is Priya's manager's hometown?", "Priya", (R, Hop("from_place")), "entity"),
    ("Where does Marco's sister live?", "Marco", (Hop("sibling_of"), LIVES), "entity"),
    ("Can you tell me where Marco's brother lives?", "Marco", (Hop("sibling_of"), LIVES), "entity"),
    ("Where is Aiko's husband from?", "Aiko", (Hop("married_to"), Hop("from_place")), "entity"),
    ("What does Jonah's wife do for a living?", "Jonah", (Hop("married_to"), Hop("job_title")), "literal"),
    ("What does Jonah's wife do?", "Jonah", (Hop("married_to"), Hop("job_title")), "literal"),
    ("How old is Priya's daughter?", "Priya", (Hop("parent_of"), Hop("age")), "literal"),
    ("What is Dana's manager's name?", "Dana", (R,), "entity"),
    # "the X of Y"
    ("What is the home town of Priya's boss?", "Priya", (R, Hop("from_place")), "entity"),
    ("Who is the boss of the person who reports to Mei?", "Mei", (R_INV, R), "entity"),
    ("What is the favorite band of Marco's girlfriend?", "Marco",
     (Hop("partner_of"), Hop("favorite", qualifier="band")), "entity"),
    ("What's the name of the cat that belongs to Marco's son?", "Marco",
     (Hop("parent_of"), Hop("has_pet", qualifier="cat")), "entity"),
    # relative clauses
    ("Who is the person who moved to Lisbon?", "Lisbon", (LIVES_INV,), "entity"),
    ("Who does the person who lives in Lisbon work for?", "Lisbon", (LIVES_INV, Hop("works_at")), "entity"),
    ("Where did the person who moved to Oslo grow up?", "Oslo", (LIVES_INV, Hop("from_place")), "entity"),
    ("Where does the woman who manages Nadia live?", "Nadia", (R, LIVES), "entity"),
    ("Where does the person who Beatriz reports to live?", "Beatriz", (R, LIVES), "entity"),
    ("Who manages the person who lives in Porto?", "Porto", (LIVES_INV, R), "entity"),
    ("What is the job of the person Jonah is dating?", "Jonah", (Hop("partner_of"), Hop("job_title")),
     "literal"),
    # single hops and inverses
    ("What is the name of Priya's dog?", "Priya", (Hop("has_pet", qualifier="dog"),), "entity"),
    ("What's Priya's dog called?", "Priya", (Hop("has_pet", qualifier="dog"),), "entity"),
    ("Who is Dana's manager?", "Dana", (R,), "entity"),
    ("Who reports to Dana?", "Dana", (R_INV,), "entity"),
    ("Who are Dana's direct reports?", "Dana", (R_INV,), "entity"),
    ("Who manages Priya?", "Priya", (R,), "entity"),
    ("Who does Dana manage?", "Dana", (R_INV,), "entity"),
    ("Who lives in Lisbon?", "Lisbon", (LIVES_INV,), "entity"),
    ("Who is Marco's mother?", "Marco", (Hop("parent_of", inverse=True),), "entity"),
    ("Who is married to Priya?", "Priya", (Hop("married_to"),), "entity"),
    ("Where does Priya live now?", "Priya", (LIVES,), "entity"),
    ("What sport does Priya's best friend play?", "Priya",
     (Hop("friend_of"), Hop("plays", qualifier="sport")), "entity"),
    ("Which band is Marco's brother a member of?", "Marco", (Hop("sibling_of"), Hop("member_of")), "entity"),
    # targets
    ("How many pets does Priya's sister have?", "Priya", (Hop("sibling_of"), Hop("has_pet")), "count"),
    ("How many people report to Dana?", "Dana", (R_INV,), "count"),
    ("When is Felix's birthday?", "Felix", (Hop("birthday"),), "literal"),
    ("When was Felix born?", "Felix", (Hop("birthday"),), "literal"),
    ("Where was Felix born?", "Felix", (Hop("from_place"),), "entity"),
    ("When did Marco's sister move?", "Marco", (Hop("sibling_of"), LIVES), "time"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "seed", "hops", "target"), CASES)
def test_phrasings(question: str, seed: str, hops: tuple[Hop, ...], target: str) -> None:
    plan = plan_hops(question, NAMES)
    assert plan is not None, question
    assert (plan.seed, plan.hops, plan.target) == (seed, hops, target)
    assert plan.seed_surface.lower() == seed.lower()
    assert plan.as_of_text is None


@pytest.mark.parametrize(
    ("question", "as_of"),
    [
        ("Where did Priya's manager live in March 2023?", "March 2023"),
        ("As of June 5, 2022, where did Priya's manager live?", "June 5, 2022"),
        ("Where did Priya's manager live before 2021?", "before 2021"),
        ("Where did Priya's manager live last summer?", "last summer"),
        ("Where did Priya's manager live two years ago?", "two years ago"),
    ],
)
def test_as_of_text_is_lifted_out(question: str, as_of: str) -> None:
    plan = plan_hops(question, NAMES)
    assert plan is not None and plan.as_of_text == as_of
    assert plan.hops == (R, LIVES)


def test_names_are_matched_case_insensitively_and_fuzzily() -> None:
    assert plan_hops("where does priya's boss live?", NAMES) == HopPlan(
        "Priya", "priya", (R, LIVES), "entity"
    )
    typo = plan_hops("Where does Beatrz live?", NAMES)
    assert typo is not None and (typo.seed, typo.seed_surface) == ("Beatriz", "Beatrz")


def test_nicknames_need_aliases() -> None:
    assert plan_hops("Where does Meg live?", ["Megan"]) is None
    assert plan_hops("Where does Dan live?", ["Dana"]) is None  # a different person, not a typo
    plan = plan_hops("Where does Meg live?", ["Megan"], aliases={"Meg": "Megan"})
    assert plan is not None and (plan.seed, plan.seed_surface) == ("Megan", "Meg")


def test_multiword_names_win_over_their_parts() -> None:
    mentions = find_mentions("Who works at Northwind Labs?", ["Northwind", "Northwind Labs"])
    assert [(m.surface, m.canonical) for m in mentions] == [("Northwind Labs", "Northwind Labs")]
    plan = plan_hops("Who works at Northwind Labs?", ["Northwind", "Northwind Labs"])
    assert (
        plan is not None and plan.seed == "Northwind Labs" and plan.hops == (Hop("works_at", inverse=True),)
    )


@pytest.mark.parametrize(
    "question",
    [
        "Where does Zed's sister live?",  # no known entity
        "Who is Priya?",  # no relation
        "What did Priya say about the weather?",  # relation outside the vocabulary
        "When did Marco's sister move to Oslo?",  # trailing object is not parsed
        "Who is the sister of Priya's boss's wife's friend's dad?",  # more than MAX_HOPS
    ],
)
def test_no_plan(question: str) -> None:
    assert plan_hops(question, NAMES) is None


def test_depth_limit_is_inclusive() -> None:
    plan = plan_hops("Who is Priya's boss's wife's friend's dad?", NAMES)
    assert plan is not None and len(plan.hops) == MAX_HOPS == 4


def test_symmetric_predicates_are_stored_forward() -> None:
    for question in ("Who is married to Priya?", "Who is Priya married to?", "Who is dating Priya?"):
        plan = plan_hops(question, NAMES)
        assert plan is not None and plan.hops[-1].predicate in SYMMETRIC and not plan.hops[-1].inverse


def test_extra_phrases_extend_the_vocabulary() -> None:
    assert plan_hops("Who is Priya's mentor?", NAMES) is None
    lexicon = build_lexicon({"mentor_of": ["mentor"]})
    plan = plan_hops("Who is Priya's mentor?", NAMES, lexicon=lexicon)
    assert plan is not None and plan.hops == (Hop("mentor_of"),)
    inverse = build_lexicon([ExtraPhrase("mentors", "mentor_of", inverse=True, kind="verb")])
    plan = plan_hops("Who mentors Priya?", NAMES, lexicon=inverse)
    assert plan is not None and plan.hops == (Hop("mentor_of"),)
    # built-in phrases are not overridden
    assert build_lexicon({"likes": ["manager"]}).nouns["manager"] == DEFAULT_LEXICON.nouns["manager"]


def test_plans_are_frozen_data() -> None:
    plan = plan_hops("Who is Dana's manager?", NAMES)
    assert plan is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.seed = "Marco"  # type: ignore[misc]
    assert hash(plan) == hash(dataclasses.replace(plan))


def test_multi_hop_plans_fire_the_relation_chain_gate() -> None:
    for question, _, hops, _ in CASES:
        if len(hops) >= 2 and "name" not in question:
            assert relation_chain_gate(question).fired, question
