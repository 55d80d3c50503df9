"""The predicate registry: the built-in vocabulary, user files merged over it, validation."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tkg.errors import ConfigError, NotFound
from tkg.extract import extract
from tkg.predicates import OBJECT_TYPES, REGISTRY, PredicateRegistry

SINGLE = ["lives_in", "works_at", "job_title", "reports_to", "from_place", "studies_at", "married_to",
          "engaged_to", "partner_of", "favorite", "age", "birthday"]
MULTI = ["sibling_of", "parent_of", "friend_of", "has_pet", "owns", "likes", "dislikes", "plays", "member_of",
         "visited", "plans"]
WHEN = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "extra.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_builtin_vocabulary_has_the_required_predicates_with_their_cardinality() -> None:
    reg = PredicateRegistry.load()
    assert set(SINGLE + MULTI) <= set(reg.names())
    assert all(reg.is_single(n) for n in SINGLE)
    assert not any(reg.is_single(n) for n in MULTI)
    assert all(reg.get(n).object_type in OBJECT_TYPES for n in reg.names())


def test_symmetric_and_inverse_relations() -> None:
    for name in ("married_to", "engaged_to", "partner_of", "sibling_of", "friend_of"):
        assert REGISTRY.get(name).symmetric, name
    parent = REGISTRY.get("parent_of")
    assert not parent.symmetric and parent.inverse == "child_of"
    assert "mother" in parent.inverse_phrases


def test_every_predicate_names_itself_in_questions() -> None:
    assert all(REGISTRY.get(n).phrases for n in REGISTRY.names())
    assert {"manager", "boss", "reports to"} <= set(REGISTRY.get("reports_to").phrases)
    assert {"home town", "hometown", "from", "grew up"} <= set(REGISTRY.get("from_place").phrases)


def test_lexicon_puts_longer_phrases_first_and_marks_inverses() -> None:
    lex = REGISTRY.lexicon()
    lengths = [len(phrase) for phrase, _, _ in lex]
    assert lengths == sorted(lengths, reverse=True)
    assert ("home town", "from_place", False) in lex
    assert ("mother", "parent_of", True) in lex


def test_unknown_predicate_raises_not_found_naming_the_known_ones() -> None:
    with pytest.raises(NotFound, match="lives_in"):
        REGISTRY.get("lives_at")
    assert "lives_at" not in REGISTRY and "lives_in" in REGISTRY


def test_slot_key_single_is_subject_predicate_qualifier() -> None:
    fav = REGISTRY.get("favorite")
    assert fav.slot_key("u1", "band") == ("u1", "favorite", "band")
    assert fav.slot_key("u1", "band", obj="Radiohead") == fav.slot_key("u1", "band", obj="Muse")
    assert fav.slot_key("u1", "band") != fav.slot_key("u1", "food")


def test_slot_key_multi_includes_the_normalised_object() -> None:
    likes = REGISTRY.get("likes")
    assert likes.slot_key("u1", obj="The Jazz") == likes.slot_key("u1", obj="jazz")
    assert likes.slot_key("u1", obj="jazz") != likes.slot_key("u1", obj="hiking")


def test_user_file_adds_a_predicate_the_extractor_then_uses(tmp_path: Path) -> None:
    path = _write(tmp_path, """
[predicates.allergic_to]
cardinality = "multi"
object_type = "thing"
phrases = ["allergic", "allergy"]
verbs = ["be allergic to"]
""")
    reg = PredicateRegistry.load(path)
    assert "allergic_to" in reg and "lives_in" in reg
    got = extract("I'm allergic to peanuts.", speaker="Priya", listeners=["Marco"], when=WHEN, registry=reg)
    assert [(c.subject, c.predicate, c.object) for c in got] == [("Priya", "allergic_to", "peanuts")]
    assert not extract("I'm allergic to peanuts.", speaker="Priya", listeners=["Marco"], when=WHEN,
                       registry=REGISTRY)


def test_user_file_extends_lists_overrides_scalars_and_disables(tmp_path: Path) -> None:
    path = _write(tmp_path, """
[predicates.lives_in]
verbs = ["crash at"]
max_object_words = 2

[predicates.age]
disabled = true
""")
    reg = PredicateRegistry.load(path)
    lives = reg.get("lives_in")
    assert "crash at" in lives.verbs and "live in" in lives.verbs
    assert lives.max_object_words == 2
    assert "age" not in reg
    got = extract("I'm 32.", speaker="Priya", listeners=["Marco"], when=WHEN, registry=reg)
    assert got == []


def test_replace_true_replaces_lists(tmp_path: Path) -> None:
    path = _write(tmp_path, """
[predicates.lives_in]
replace = true
verbs = ["crash at"]
""")
    lives = PredicateRegistry.load(path).get("lives_in")
    assert lives.verbs == ("crash at",)
    assert lives.cardinality == "single"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[predicates.x]\ncardinality = "many"\nobject_type = "thing"\n', "cardinality"),
        ('[predicates.x]\ncardinality = "multi"\nobject_type = "animal"\n', "object_type"),
        ('[predicates.x]\ncardinality = "multi"\n', "object_type"),
        ('[predicates.x]\ncardinality = "multi"\nobject_type = "thing"\nverbz = ["a"]\n', "unknown field"),
        ('[predicates.x]\ncardinality = "multi"\nobject_type = "thing"\nverbs = "live in"\n', "list"),
        ('[predicates.x]\ncardinality = "multi"\nobject_type = "thing"\nverbs = [1]\n', "list"),
        (
            '[predicates.x]\ncardinality = "multi"\nobject_type = "thing"\nsymmetric = "yes"\n',
            "true or false",
        ),
        (
            '[predicates.x]\ncardinality = "multi"\nobject_type = "thing"\nsymmetric = true\ninverse = "y"\n',
            "symmetric",
        ),
        ('[predicates.x]\ncardinality = "multi"\nobject_type = "thing"\nnegated = "nope"\n', "negated"),
        (
            '[predicates.x]\ncardinality = "multi"\nobject_type = "thing"\nmax_object_words = 0\n',
            "max_object_words",
        ),
        ('[predicates.Bad-Name]\ncardinality = "multi"\nobject_type = "thing"\n', "lower_snake_case"),
        ("[predicates\n", "not valid TOML"),
        ("[other]\nx = 1\n", "predicates"),
    ],
)
def test_bad_user_files_raise_config_error(tmp_path: Path, toml: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        PredicateRegistry.load(_write(tmp_path, toml))


def test_missing_user_file_raises_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        PredicateRegistry.load(tmp_path / "nope.toml")


def test_from_dict_rejects_an_empty_vocabulary() -> None:
    with pytest.raises(ConfigError, match="no \\[predicates"):
        PredicateRegistry.from_dict({"predicates": {}})
