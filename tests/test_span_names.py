"""An organisation is named by a word of its own: lower-case everyday words the tagger calls a
company ("nah school's a drag") are none, while "pixelhaus" and "Royal Mail" stay. Our own sentences."""

from __future__ import annotations

import pytest

from procedures.spans import spans_of
from tkg.nlp import parse


@pytest.mark.parametrize(("text", "named"), [
    ("nah school's a drag this term.", []),
    ("meh work's a grind lately.", []),
    ("i got the job at pixelhaus", ["pixelhaus"]),
    ("I work at the Royal Mail now", ["Royal Mail"]),
])
def test_an_organisation_needs_a_word_of_its_own(text: str, named: list[str]) -> None:
    found = [s.text for sent in parse(text).sents for s in spans_of(sent, "organisation", "company")]
    assert found == named
