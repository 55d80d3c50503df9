"""What every span of the reader is: its text, kind, how sure its typing is and where it stands,
and the two ways `procedures.spans` makes one (a cleaned phrase; a named entity of a label).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .span_words import DET


@dataclass(frozen=True)
class Span:
    text: str
    kind: str
    sure: float  # how sure the typing is, 0–1
    start: int  # token offsets in the doc
    end: int
    cued: bool = False  # its own words say the asked relation ("turned 40", "nine years old")


def clean(tokens: Any) -> tuple[str, int, int] | None:
    """A phrase without leading determiners, stop words, possessives, punctuation and emoji, as
    the sentence writes it ("sixty-seven", not "sixty - seven")."""
    toks = list(tokens)
    while toks and (toks[0].lower_ in DET or toks[0].tag_ in ("PRP$", "POS", "DT") or not toks[0].is_alpha
                    and not toks[0].like_num or (toks[0].is_stop and len(toks) > 1)):
        toks = toks[1:]
    while toks and (
        toks[-1].is_punct or toks[-1].tag_ == "POS" or not (toks[-1].is_alpha or toks[-1].like_num)
    ):
        toks = toks[:-1]
    if not toks:
        return None
    doc = toks[0].doc
    return doc.text[toks[0].idx : toks[-1].idx + len(toks[-1].text)], toks[0].i, toks[-1].i + 1


def entity_spans(sent: Any, labels: tuple[str, ...], kind: str, sure: float) -> list[Span]:
    """The named entities of the sentence with one of ``labels``, cleaned, as spans of ``kind``."""
    out = []
    for ent in sent.ents:
        if ent.label_ in labels:
            cleaned = clean(ent)
            if cleaned:
                out.append(Span(cleaned[0], kind, sure, cleaned[1], cleaned[2]))
    return out
