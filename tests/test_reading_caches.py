"""What the reader keeps between checks finds what a fresh computation finds.

A name's whole-word pattern is compiled once per process (procedures/about.py), a sentence's noun
chunks are kept with its parsed doc (procedures/spans.py), a word's stem (tkg/text.py) and how surely
a sentence is about a subject are kept per argument: none may change which names are found, what is
left when they are taken out, which chunks and role spans a sentence has, a stem or a weight.
"""

from __future__ import annotations

import re

from procedures.about import Subject, about, word_pattern
from procedures.span_roles import noun_chunks
from procedures.spans import spans_of
from tkg.nlp import parse, pipeline, token_stems
from tkg.text import stem

SENTENCES = [
    "Morning Lena! How was the move?",
    "my sister lena just moved to oslo, lena-marie stayed in Bergen",
    "Helena and Lenard met C++ fans at the A.J. Burke dinner",
    "LENA said the c++ course was fine; a.j. burke agreed.",
    "nobody is named here",
]
ALIASES = ["lena", "c++", "a.j. burke", "a.j.", "burke"]


def fresh(word: str) -> str:
    return rf"(?<!\w){re.escape(word)}(?!\w)"


def test_compiled_name_patterns_match_as_the_uncompiled_ones() -> None:
    for text in SENTENCES:
        low = text.lower()
        for a in ALIASES:
            assert [m.span() for m in word_pattern(a).finditer(low)] == [
                m.span() for m in re.finditer(fresh(a), low)]
            assert word_pattern(a, re.I).sub(" ", text) == re.sub(fresh(a), " ", text, flags=re.I)
    assert word_pattern("lena") is word_pattern("lena")  # compiled once
    assert word_pattern("lena").search("lena-marie") and not word_pattern("lena").search("helena")


def test_subject_checks_answer_as_before() -> None:
    s = Subject("Lena", frozenset({"lena", "lena berg"}), speaker=True)
    assert [s.named_in(t) for t in SENTENCES] == [True, True, False, True, False]
    assert s.only_addressed(SENTENCES[0]) and not s.only_addressed(SENTENCES[1])
    assert "lena" not in s.unnamed(SENTENCES[3]).lower()
    expected = SENTENCES[3]
    for a in s.aliases:
        expected = re.sub(fresh(a), " ", expected, flags=re.I)
    assert s.unnamed(SENTENCES[3]) == expected


def test_kept_noun_chunks_are_the_chunks_found_afresh() -> None:
    doc = parse("I'm a senior cartographer now at Lumen Studio. My new supervisor is a kind man.")
    sents = list(doc.sents)

    def shape(chunks: tuple[object, ...] | list[object]) -> list[tuple[str, int, int]]:
        return [(c.text, c.start, c.end) for c in chunks]  # type: ignore[attr-defined]

    for sent in sents:
        kept = noun_chunks(sent)
        assert noun_chunks(sent) is kept
        assert shape(kept) == shape(list(sent.noun_chunks))
    roles = [spans_of(sent, "role", "") for sent in sents]
    doc.user_data.clear()
    assert roles == [spans_of(sent, "role", "") for sent in sents]
    assert "senior cartographer" in [s.text for s in roles[0]]


def test_kept_stems_are_the_stems_made_afresh() -> None:
    words = ["moved", "painting", "shoes", "races", "bus", "lives", "moved"]
    assert [stem(w) for w in words] == [stem.__wrapped__(w) for w in words]
    assert stem.cache_info().hits >= 1


def test_kept_about_weights_are_the_weights_made_afresh() -> None:
    lena = Subject("Lena", frozenset({"lena"}), speaker=True)
    for speaker in ("Lena", "Tomas"):
        for i, sentence in enumerate(SENTENCES):
            args = {"speaker": speaker, "sentence": sentence, "turn": " ".join(SENTENCES[i:]),
                    "others": ("Lena", "Tomas"), "previous": SENTENCES[i - 1]}
            assert about(lena, **args) == about.__wrapped__(lena, **args) == about(lena, **args)
    assert about.cache_info().hits >= len(SENTENCES) * 2


def test_kept_token_stems_are_the_stems_of_a_fresh_tokenization() -> None:
    for text in SENTENCES:
        assert token_stems(text) == frozenset(stem(t.lower_) for t in pipeline().tokenizer(text))
    assert token_stems(SENTENCES[0]) is token_stems(SENTENCES[0])  # kept per text
