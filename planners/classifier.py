"""Mode classifiers: an offline one trained in-repo, and an optional LLM one.

The offline classifier is a multinomial naive Bayes over word n-grams plus the cue
features the gates use, trained at first use on our own labelled question shapes
(`data/questions.jsonl`, about made-up people). Names and dates are masked before
featurising so the model learns the *shape* of a question, not who it is about.
Training is deterministic (no randomness, no weights file) and takes a few milliseconds.
The train/held-out split is by a hash of the question text, so adding questions never
moves existing ones between the halves.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from tkg.models import MODES
from tkg.text import tokenize

from . import cues
from .gates import relation_chain_gate, relation_markers
from .lexicon import DEFAULT_LEXICON
from .modes import MODE_DESCRIPTIONS

_IMPORT = re.compile(r"^\s*(?:from|import)\s+(\.*)([\w.]*)", re.M)
HELDOUT_BUCKETS = 5  # 1 in 5 questions (by hash) is held out


class ModeClassifier(Protocol):
    def classify(self, question: str) -> str: ...


@dataclass(frozen=True)
class Labelled:
    question: str
    mode: str


def load_questions() -> list[Labelled]:
    """The labelled question-shape set shipped in `planners/data/questions.jsonl`."""
    text = resources.files("planners").joinpath("data/questions.jsonl").read_text("utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [Labelled(r["question"], r["mode"]) for r in rows]


def is_heldout(question: str) -> bool:
    """Whether `question` belongs to the held-out part (stable under additions)."""
    return int(hashlib.sha256(question.encode("utf-8")).hexdigest(), 16) % HELDOUT_BUCKETS == 0


def split(examples: Iterable[Labelled]) -> tuple[list[Labelled], list[Labelled]]:
    train: list[Labelled] = []
    held: list[Labelled] = []
    for ex in examples:
        (held if is_heldout(ex.question) else train).append(ex)
    return train, held


_STARTERS = frozenset(
    "what who whom whose where when which why how is are was were does do did has have had can could "
    "would will should tell list name give summarize summarise describe count catch fill recap explain "
    "write paint overview in since as".split()
)
_CAPITALISED = re.compile(r"\b[A-Z][\w&'-]*[a-z][\w&-]*")


def _mask(question: str) -> str:
    anchor = cues.find_time_anchor(question)
    if anchor is not None:
        question = anchor.cut(question, " xdate ")

    def repl(m: re.Match[str]) -> str:
        word = m.group(0)
        if m.start() == 0 and word.lower() in _STARTERS:
            return word
        return "xname's" if word.endswith("'s") else "xname"

    return _CAPITALISED.sub(repl, question.replace("’", "'"))


def featurize(question: str) -> list[str]:
    """Word uni/bigrams of the masked question, its opening words, cue flags (doubled, so
    a cue outweighs any one word), the possessive count and the linked-relation count.

    >>> featurize("Where does Priya live now?")[:4]
    ['where', 'does', 'xname', 'live']
    """
    words = tokenize(_mask(question))
    feats = list(words)
    feats += [f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)]
    feats += [f"^{w}" for w in words[:1]] + ["^" + "_".join(words[:2])]
    flags = {
        "recency": cues.recency_cue(question),
        "time": cues.time_cue(question),
        "date": cues.find_time_anchor(question),
        "summary": cues.summary_cue(question),
        "count": cues.count_cue(question),
        "chain": relation_chain_gate(question).fired or None,
    }
    cue_feats = [f"CUE:{k}" for k, v in flags.items() if v] or ["CUE:none"]
    words_raw = tokenize(question)
    possessives = sum(w in ("'s", "'") for w in words_raw)
    links = len(relation_markers(words_raw, DEFAULT_LEXICON))
    return feats + cue_feats * 2 + [f"POSS:{min(possessives, 2)}", f"LINKS:{min(links, 3)}"]


class NaiveBayesClassifier:
    """Multinomial naive Bayes over `featurize` features, Laplace-smoothed."""

    def __init__(self, alpha: float = 0.3) -> None:
        self.alpha = alpha
        self.labels: tuple[str, ...] = MODES
        self._log_prior: dict[str, float] = {}
        self._log_like: dict[str, dict[str, float]] = {}
        self._log_unseen: dict[str, float] = {}

    def fit(self, examples: Sequence[Labelled]) -> NaiveBayesClassifier:
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        per_label = Counter(ex.mode for ex in examples)
        for ex in examples:
            counts[ex.mode].update(featurize(ex.question))
        vocab = {f for c in counts.values() for f in c}
        for label in self.labels:
            total = sum(counts[label].values()) + self.alpha * (len(vocab) + 1)
            self._log_prior[label] = math.log((per_label[label] + 1) / (len(examples) + len(self.labels)))
            self._log_like[label] = {f: math.log((n + self.alpha) / total) for f, n in counts[label].items()}
            self._log_unseen[label] = math.log(self.alpha / total)
        return self

    def scores(self, question: str) -> dict[str, float]:
        """Posterior probability per mode."""
        feats = featurize(question)
        logp = {
            label: self._log_prior[label]
            + sum(self._log_like[label].get(f, self._log_unseen[label]) for f in feats)
            for label in self.labels
        }
        top = max(logp.values())
        exp = {k: math.exp(v - top) for k, v in logp.items()}
        z = sum(exp.values())
        return {k: v / z for k, v in exp.items()}

    def classify(self, question: str) -> str:
        """The most probable mode,
        e.g. ``default_classifier().classify("How many pets does Priya have?")``."""
        scores = self.scores(question)
        return max(self.labels, key=lambda label: (scores[label], -self.labels.index(label)))

    def to_dict(self) -> dict[str, Any]:
        """The fitted model as plain JSON data (`from_dict` gives back one that scores alike)."""
        return {"alpha": self.alpha, "labels": list(self.labels), "log_prior": self._log_prior,
                "log_like": self._log_like, "log_unseen": self._log_unseen}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NaiveBayesClassifier:
        """The model `to_dict` wrote; a model for other modes than today's is refused (ValueError)."""
        if tuple(data["labels"]) != MODES:
            raise ValueError(f"a classifier for modes {data['labels']}, not {list(MODES)}")
        clf = cls(float(data["alpha"]))
        clf._log_prior = {str(k): float(v) for k, v in data["log_prior"].items()}
        clf._log_like = {str(k): {str(f): float(x) for f, x in v.items()}
                         for k, v in data["log_like"].items()}
        clf._log_unseen = {str(k): float(v) for k, v in data["log_unseen"].items()}
        return clf


def training_digest() -> str:
    """A sha256 over what `default_classifier` is built from: the labelled set and the source of
    every module of `planners` and of each `tkg` module they import, directly or not (found in the
    sources' import lines, type-only ones too). A kept copy of the fitted model is valid only under
    the same digest."""
    h = hashlib.sha256(resources.files("planners").joinpath("data/questions.jsonl").read_bytes())
    todo = sorted(n for n in sys.modules if n == "planners" or n.startswith("planners."))
    seen = set(todo)
    while todo:
        name = todo.pop()
        path = _source_file(name)
        source = path.read_bytes() if path else b""
        h.update(name.encode() + b"\0" + source)
        package = name if path and path.name == "__init__.py" else name.rpartition(".")[0]
        for dots, module in _IMPORT.findall(source.decode("utf-8")):
            used = module if not dots else f"{package.rsplit('.', len(dots) - 1)[0]}.{module}".rstrip(".")
            if used.startswith("tkg.") and used not in seen and _source_file(used):
                seen.add(used)
                todo.append(used)
    return h.hexdigest()


def _source_file(name: str) -> Path | None:
    """The file of first-party module `name`, found under its top package without importing it."""
    top, _, rest = name.partition(".")
    root = getattr(sys.modules.get(top), "__file__", None)
    if not root:
        return None
    base = Path(root).parent.joinpath(*rest.split(".")) if rest else Path(root).parent
    for path in (base.with_suffix(".py") if rest else None, base / "__init__.py"):
        if path is not None and path.is_file():
            return path
    return None


@lru_cache(maxsize=1)
def default_classifier() -> NaiveBayesClassifier:
    """The offline classifier trained on the training half of the shipped set."""
    train, _ = split(load_questions())
    return NaiveBayesClassifier().fit(train)


def evaluate_classifier(classify: Callable[[str], str] | None = None) -> dict[str, Any]:
    """Accuracy and confusion matrix (true → predicted → count) on the held-out part.

    >>> evaluate_classifier()["accuracy"] >= 0.9
    True
    """
    classify = classify or default_classifier().classify
    train, held = split(load_questions())
    confusion = {t: dict.fromkeys(MODES, 0) for t in MODES}
    errors = []
    for ex in held:
        pred = classify(ex.question)
        confusion[ex.mode][pred] += 1
        if pred != ex.mode:
            errors.append({"question": ex.question, "expected": ex.mode, "predicted": pred})
    correct = sum(confusion[m][m] for m in MODES)
    return {
        "accuracy": correct / len(held) if held else 0.0,
        "n_train": len(train),
        "n_heldout": len(held),
        "labels": list(MODES),
        "confusion": confusion,
        "errors": errors,
    }


LLM_SYSTEM_PROMPT = (
    "You label a question about a user's conversation history with exactly one mode.\n"
    + "\n".join(f"- {mode}: {desc}" for mode, desc in MODE_DESCRIPTIONS.items())
    + "\nAnswer with the mode name only."
)
_LABEL = re.compile(r"\b(" + "|".join(MODES) + r")\b")
_JOINED = re.compile(r"\b(single|relation|latest|time|long)[\s-]+(fact|chain|version|anchored|form)\b")


class LLMClassifier:
    """Asks a model for the mode; the caller supplies `complete(system, prompt) -> text`.

    Temperature 0 is the provider's job. Output is read against the closed label set:
    the first mode name that appears wins; anything else falls back to `single_fact`.
    Provider errors propagate (a failed call is not a classification).

    >>> LLMClassifier(lambda system, prompt: "aggregation").classify("How many cats?")
    'aggregation'
    """

    fallback = "single_fact"

    def __init__(self, complete: Callable[[str, str], str]) -> None:
        self.complete = complete

    def classify(self, question: str) -> str:
        text = self.complete(LLM_SYSTEM_PROMPT, f"Question: {question}\nMode:")
        m = _LABEL.search(_JOINED.sub(r"\1_\2", str(text).lower()))
        return m.group(1) if m else self.fallback
