"""The offline mode classifier (held-out accuracy, determinism) and the LLM classifier boundary."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from planners.classifier import (
    LLM_SYSTEM_PROMPT,
    LLMClassifier,
    NaiveBayesClassifier,
    default_classifier,
    evaluate_classifier,
    featurize,
    is_heldout,
    load_questions,
    split,
)
from tkg.errors import ProviderError
from tkg.models import MODES


def test_question_set_is_ours_and_big_enough() -> None:
    rows = load_questions()
    assert len(rows) >= 300
    assert len({r.question for r in rows}) == len(rows), "duplicate questions"
    counts = Counter(r.mode for r in rows)
    assert set(counts) == set(MODES)
    assert min(counts.values()) >= 40, counts


def test_split_is_deterministic_disjoint_and_by_text() -> None:
    rows = load_questions()
    train, held = split(rows)
    assert {r.question for r in train}.isdisjoint({r.question for r in held})
    assert len(train) + len(held) == len(rows)
    assert 0.1 < len(held) / len(rows) < 0.3
    # membership depends on the text alone, so reordering or adding rows never moves a question
    _, held_reversed = split(list(reversed(rows)))
    assert {r.question for r in held_reversed} == {r.question for r in held}
    assert all(is_heldout(r.question) for r in held)


def test_heldout_accuracy_at_least_90_percent() -> None:
    report = evaluate_classifier()
    assert report["accuracy"] >= 0.90, json.dumps(report["errors"], indent=1)
    confusion = report["confusion"]
    assert sum(sum(row.values()) for row in confusion.values()) == report["n_heldout"]
    correct = sum(confusion[m][m] for m in MODES)
    assert correct == report["n_heldout"] - len(report["errors"])
    assert report["accuracy"] == pytest.approx(correct / report["n_heldout"])


def test_evaluate_accepts_any_classify_function() -> None:
    report = evaluate_classifier(lambda q: "single_fact")
    held = [r for r in load_questions() if is_heldout(r.question)]
    expected = sum(r.mode == "single_fact" for r in held) / len(held)
    assert report["accuracy"] == pytest.approx(expected)
    assert report["confusion"]["aggregation"]["single_fact"] == sum(r.mode == "aggregation" for r in held)


def test_training_is_deterministic() -> None:
    train, _ = split(load_questions())
    a, b = NaiveBayesClassifier().fit(train), NaiveBayesClassifier().fit(list(reversed(train)))
    for q in ("Where does Priya live now?", "Tell me everything about Dana.", "Who is Marco?"):
        assert a.scores(q) == pytest.approx(b.scores(q))
        assert sum(a.scores(q).values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("question", "other_name"),
    [("Where does Priya live now?", "Zbigniew"), ("How many cats does Priya have?", "Oluwaseun")],
)
def test_names_do_not_change_the_label(question: str, other_name: str) -> None:
    clf = default_classifier()
    assert clf.classify(question) == clf.classify(question.replace("Priya", other_name))
    assert featurize(question) == featurize(question.replace("Priya", other_name))


def test_features_carry_cues_and_mask_dates() -> None:
    feats = featurize("Where did Priya live in March 2023?")
    assert "CUE:time" in feats and "CUE:date" in feats
    assert "xdate" in feats and "march" not in feats
    assert "CUE:none" in featurize("Where does Priya work?")


def test_llm_classifier_reads_closed_labels() -> None:
    calls: list[tuple[str, str]] = []

    def complete(system: str, prompt: str) -> str:
        calls.append((system, prompt))
        return " Relation chain.\n"

    assert LLMClassifier(complete).classify("Where does Marco's sister live?") == "relation_chain"
    system, prompt = calls[0]
    assert system == LLM_SYSTEM_PROMPT and all(m in system for m in MODES)
    assert "Where does Marco's sister live?" in prompt


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("aggregation", "aggregation"),
        ("The mode is LATEST_VERSION", "latest_version"),
        ("time-anchored", "time_anchored"),
        ("I think this is a question about pets", "single_fact"),
        ("", "single_fact"),
    ],
)
def test_llm_classifier_falls_back_on_unparseable_output(output: str, expected: str) -> None:
    assert LLMClassifier(lambda s, p: output).classify("anything") == expected


def test_llm_classifier_lets_provider_errors_through() -> None:
    def failing(system: str, prompt: str) -> str:
        raise ProviderError("rate limited")

    with pytest.raises(ProviderError):
        LLMClassifier(failing).classify("Where does Priya live?")
