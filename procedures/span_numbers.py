"""Numbers in a parsed sentence as written: numerals and runs of number words ("34", "sixty-two"),
and sums of money ("£4,200", "80 quid", "4.2k", "2 million"), the value a "how much did it cost"
question asks for. `procedures/spans.py` asks these for the number kind.
"""

from __future__ import annotations

import re
from typing import Any

from .span_base import Span, entity_spans
from .span_words import NUMBER_WORDS


def number_runs(sent: Any) -> list[Span]:
    """Numbers as written: "34", "sixty-two", "twenty five" (a run of number words and hyphens)."""
    out: list[Span] = []
    run: list[Any] = []
    toks = list(sent) + [None]
    for t in toks:
        # a number word counts as a numeral only ("one dog"), not as a pronoun ("the one you drove")
        is_num = t is not None and (t.like_num and not t.text[:1].isalpha()
                                    or t.lower_ in NUMBER_WORDS and t.pos_ == "NUM")
        if is_num or (t is not None and t.text == "-" and run):
            run.append(t)
            continue
        while run and run[-1].text == "-":
            run.pop()
        if run:
            doc = run[0].doc
            out.append(Span(doc.text[run[0].idx : run[-1].idx + len(run[-1].text)], "number", 0.8,
                            run[0].i, run[-1].i + 1))
        run = []
    return out


_CURRENCY = frozenset("£ $ € ¥ usd gbp eur".split())
_THOUSANDS = re.compile(r"^[£$€]?\d[\d,.]*[km]$", re.I)  # "4.2k", "£2m"
_MONEY_VERBS = frozenset("sell pay cost buy raise price charge earn spend offer worth rent salary".split())
_MONEY_AFTER = frozenset("k grand quid bucks pounds pound dollars dollar euros euro million m mil bn billion "
                         "thousand".split())


def amounts(sent: Any) -> list[Span]:
    """Sums of money as written: "£4,200", "$80", "4.2k", "2 million", "eleven hundred pounds" (a
    MONEY entity, or a number with a currency sign before it or a money word after it)."""
    doc = sent.doc
    out = [s for s in entity_spans(sent, ("MONEY",), "number", 0.9)
           if any(c.isdigit() for c in s.text) or any(t.lower_ in NUMBER_WORDS for t in doc[s.start:s.end])]
    seen = {i for s in out for i in range(s.start, s.end)}
    # "sold it, 4.2k", "got it for 4.2k": money; "ran a 5K": a race
    priced = any(t.lemma_.lower() in _MONEY_VERBS for t in sent)
    out += [Span(t.text, "number", 0.9, t.i, t.i + 1) for t in sent
            if t.i not in seen and _THOUSANDS.match(t.text)
            and (priced or t.i > sent.start and doc[t.i - 1].lower_ == "for")]
    seen |= {s.start for s in out}
    for s in number_runs(sent):
        if s.start in seen:
            continue
        before = doc[s.start - 1].lower_ if s.start > sent.start else ""
        after = doc[s.end].lower_ if s.end < sent.end else ""
        glued = doc[s.start].lower_[-1:] == "k" or doc[s.start].text[:1] in "£$€"  # "4.2k", "£80"
        if before in _CURRENCY or glued:
            out.append(Span(doc.text[doc[s.start - 1].idx if before in _CURRENCY else doc[s.start].idx:
                                     doc[s.end - 1].idx + len(doc[s.end - 1].text)], "number", 0.9,
                            s.start - (before in _CURRENCY), s.end))
        elif after in _MONEY_AFTER:
            out.append(Span(doc.text[doc[s.start].idx: doc[s.end].idx + len(doc[s.end].text)], "number", 0.85,
                            s.start, s.end + 1))
    return out
