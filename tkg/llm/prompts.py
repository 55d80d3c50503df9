"""The prompts that let a model rank or phrase evidence tkg already holds, and their parsers.

A model only ever sees evidence tkg retrieved; its reply is read against the numbers it was shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tkg.models import NO_INFORMATION

_SYNTHESIS_SYSTEM = f"""You answer questions about a person's conversation history.
Use ONLY the numbered evidence in the message. Never add facts that the evidence does not state.
Evidence items may disagree over time (an item may start with its date); prefer the most recent one
unless the question asks about an earlier time.
If the evidence does not mention the main person or thing the question is about, answer exactly:
{NO_INFORMATION}
Reply in exactly two lines:
ANSWER: <a short answer, a few words or one sentence>
CITED: <the numbers of the evidence items you used, comma-separated, or none>"""

_RANK_SYSTEM = """You rank passages from a conversation history by how useful they are for answering a \
question.
Do not answer the question. Do not invent passages.
Reply with one line: the passage numbers, most useful first, comma-separated (for example: 3, 1, 2).
Leave out passages that do not help at all."""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _numbered(items: Sequence[str]) -> str:
    return "\n".join(f"[{i}] {_one_line(t)}" for i, t in enumerate(items, start=1))


def synthesis_prompt(question: str, evidence_texts: Sequence[str]) -> tuple[str, str]:
    """(system, prompt) asking a model to answer from numbered evidence only, with citations.

    >>> system, prompt = synthesis_prompt("Where does Ana live?", ["Ana: I moved to Oslo."])
    >>> prompt.splitlines()[1]
    '[1] Ana: I moved to Oslo.'
    """
    evidence = _numbered(evidence_texts) if evidence_texts else "(no evidence)"
    prompt = f"Evidence:\n{evidence}\n\nQuestion: {_one_line(question)}"
    return _SYNTHESIS_SYSTEM, prompt


_CITED_LINE = re.compile(r"^\s*CITED\s*:(.*)$", re.IGNORECASE | re.MULTILINE)
_ANSWER_LINE = re.compile(
    r"^\s*ANSWER\s*:(.*?)(?=^\s*CITED\s*:|\Z)", re.IGNORECASE | re.MULTILINE | re.DOTALL
)
_BRACKETED = re.compile(r"\s*\[(\d+)\]")


def _is_no_information(answer: str) -> bool:
    return re.sub(r"[^a-z ]", "", answer.lower()).strip() == NO_INFORMATION.lower()


def parse_synthesis(text: str, n: int | None = None) -> tuple[str, list[int]]:
    """(answer, cited evidence indexes, 0-based) from a reply to `synthesis_prompt`.

    Citations out of range (when `n`, the number of evidence items, is given) are dropped;
    an abstention comes back as exactly `NO_INFORMATION` with no citations.

    >>> parse_synthesis("ANSWER: Oslo [1].\\nCITED: 1, 3", n=2)
    ('Oslo.', [0])
    """
    answer_match = _ANSWER_LINE.search(text)
    cited_match = _CITED_LINE.search(text)
    if answer_match:
        answer = answer_match.group(1)
    else:  # a model that ignored the format: the whole reply minus any CITED line
        answer = _CITED_LINE.sub("", text)
    numbers = [int(m) for m in _BRACKETED.findall(answer)]
    if cited_match:
        numbers += [int(m) for m in re.findall(r"\d+", cited_match.group(1))]
    answer = _one_line(_BRACKETED.sub("", answer))
    if _is_no_information(answer) or not answer:
        return NO_INFORMATION, []
    cited: list[int] = []
    for number in numbers:
        index = number - 1
        if index >= 0 and (n is None or index < n) and index not in cited:
            cited.append(index)
    return answer, cited


def rank_prompt(question: str, passages: Sequence[str]) -> tuple[str, str]:
    """(system, prompt) asking a model to order numbered passages by usefulness.

    >>> rank_prompt("Who is Bo?", ["Bo is my brother.", "It rained."])[1].splitlines()[-1]
    'Question: Who is Bo?'
    """
    prompt = f"Passages:\n{_numbered(passages)}\n\nQuestion: {_one_line(question)}"
    return _RANK_SYSTEM, prompt


def parse_ranking(text: str, n: int, *, complete: bool = True) -> list[int]:
    """0-based passage indexes in the model's order, from a reply to `rank_prompt`.

    Numbers outside 1..n and repeats are ignored. With `complete` (the default) the
    passages the model left out follow in their original order, so ranking never
    loses evidence; ``complete=False`` returns only those the model listed.

    >>> parse_ranking("3, 1", 4)
    [2, 0, 1, 3]
    >>> parse_ranking("[3] > [1]", 4, complete=False)
    [2, 0]
    """
    order: list[int] = []
    for match in re.findall(r"\d+", text):
        index = int(match) - 1
        if 0 <= index < n and index not in order:
            order.append(index)
    if complete:
        order += [i for i in range(n) if i not in order]
    return order
