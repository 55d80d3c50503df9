"""The offline mode classifier, fitted once and kept on disk for the processes after.

Fitting `planners.classifier.default_classifier` featurises every training question, a large
part of a cold `tkg ask`. The fitted model is kept as JSON in ``$TKG_CACHE_DIR/planners/``,
named by `training_digest` (the labelled set and the source of the code that featurises it), so
a changed question or rule never reads an old model; an unreadable or foreign file is fitted
again. JSON keeps every float exactly, so the kept model classifies as the fitted one does.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from planners.classifier import NaiveBayesClassifier, default_classifier, training_digest

from .embed_cache import default_cache_path
from .nlp import keep_text


def model_path() -> Path:
    """Where the fitted model of today's training set and code is kept."""
    return default_cache_path().parent / "planners" / f"classifier-{training_digest()[:16]}.json"


@lru_cache(maxsize=1)
def offline_classifier() -> NaiveBayesClassifier:
    """The offline classifier, read back from its kept copy or fitted (and kept) when there is none."""
    path = model_path()
    try:
        return NaiveBayesClassifier.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    clf = default_classifier()
    keep_text(path, json.dumps(clf.to_dict()))
    return clf
