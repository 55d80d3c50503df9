"""Whether a sentence states what it says: denied ("didn't get the job"), called off ("the move
fell through"), or only asked, wished, planned or imagined. The reader and the premise check
weigh a span by this; `procedures/spans.py` only says what a span is.
"""

from __future__ import annotations

from typing import Any

from tkg.text import any_of

_NEGATION = any_of("not|never|no longer|didn'?t|don'?t|doesn'?t|won'?t|isn'?t|wasn'?t|aren'?t|can'?t|"
                   "couldn'?t|haven'?t|hasn'?t|nope|fell through|called off|cancel+ed")
_HYPOTHETICAL = any_of("if|would|might|maybe|perhaps|someday|one day|thinking (?:of|about)|considering|"
                       "dream(?:ing)? of|wish|hope to|hoping to|planning to|plan to|want to|wanna|"
                       "might|could|should i|whether")
_RETRACTED = any_of("fell through|called off|cancel+ed|never happened|not happening|off the table|scrapped|"
                    "no longer")


def negated(sent: Any, token: Any | None = None) -> bool:
    """The sentence calls off what it says ("the move fell through"), or the clause holding
    ``token`` is denied ("didn't get the job"; "he wants to stay in brisbane and I don't" does not
    deny Brisbane). Without a token, any denial in the sentence counts."""
    if _RETRACTED.search(sent.text):
        return True
    if token is None:
        return bool(_NEGATION.search(sent.text)) or any(t.dep_ == "neg" for t in sent)
    t, hops = token, 0
    while hops < 4:
        if any(c.dep_ == "neg" or c.lower_ in ("never", "not", "n't") for c in t.children):
            return True
        if t.head is t or t.dep_ in ("ROOT", "conj", "ccomp", "advcl"):
            break
        t, hops = t.head, hops + 1
    return False


def hypothetical(sent: Any) -> bool:
    """The sentence is a question, a condition, a wish or a plan rather than a statement of fact."""
    return sent.text.rstrip().endswith("?") or bool(_HYPOTHETICAL.search(sent.text))
