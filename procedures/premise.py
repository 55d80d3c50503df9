"""False premises: a question that takes for granted what the conversation never affirmed.

"What is the name of Tobias's dog?" when no turn gives Tobias a dog, "When did Marisol move to
Lisbon?" when the move fell through, "What breed is Sofia's dog Fagiolo?" when Fagiolo was only
the name she would give a dog one day: each is answered "No information available". The check
is general: the things the question presupposes (the names it mentions besides its subject, the
relative or pet it asks about, and for a "when" question the event itself) must be stated by
some sentence about the subject that is neither asked, wished, planned nor denied.

Example::

    >>> presupposed_nouns("What is the name of Tobias's dog?", "dog")
    {'dog', 'puppy', 'pup'}
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planners.asked import Asked
from tkg.models import Evidence
from tkg.nlp import parse

from .about import Subject, about
from .query_text import names_in
from .spans import ANIMALS, hypothetical, negated
from .synthesis import content_terms, stem

if TYPE_CHECKING:
    pass

# relatives and animals a question may presuppose, with the words that state one
KIN: dict[str, frozenset[str]] = {
    "child": frozenset({"child", "children", "kid", "kids", "baby", "son", "daughter", "newborn", "toddler"}),
    "baby": frozenset({"baby", "newborn", "pregnant", "child", "son", "daughter"}),
    "son": frozenset({"son", "boy", "kid", "kids", "child", "children"}),
    "daughter": frozenset({"daughter", "girl", "kid", "kids", "child", "children"}),
    "girlfriend": frozenset({"girlfriend", "gf", "dating", "seeing", "partner"}),
    "boyfriend": frozenset({"boyfriend", "bf", "dating", "seeing", "partner"}),
    "wife": frozenset({"wife", "married", "wedding"}), "husband": frozenset({"husband", "married", "wedding"}),
    "dog": frozenset({"dog", "puppy", "pup"}), "cat": frozenset({"cat", "kitten", "kitty"}),
}
_PRESUPPOSING = frozenset({"pet_name", "animal", "person"})
_DOG_WORDS = ANIMALS - {"cat", "kitten", "kitty", "tabby", "horse", "pony", "rabbit", "bunny", "hamster", "parrot",
                        "budgie", "bird", "fish", "tortoise", "turtle", "snake", "lizard", "gecko", "hen",
                        "chicken", "ferret", "goldfish", "guinea"}


def presupposed_nouns(question: str, head: str) -> set[str]:
    """The words that would state the relative or animal ``head`` that the question takes as given."""
    if head == "dog":
        return set(KIN["dog"])
    if head in KIN:
        return set(KIN[head])
    return {head, head + "s"} if head else set()


@dataclass(frozen=True)
class Premise:
    holds: bool
    reason: str
    evidence: Evidence | None = None


def _stated(sent: Any) -> bool:
    """The sentence states what it says: no question, wish, plan or denial anywhere in it (a
    presupposition needs a plain statement; "no dog yet, but if I get one…" is none)."""
    return not hypothetical(sent) and not negated(sent)


def check(asked: Asked, question: str, subject: Subject | None, turns: list[Evidence],
          speakers: tuple[str, ...]) -> Premise:
    """Whether every presupposition of ``question`` is stated about its subject in ``turns``."""
    focus = [n for n in names_in(question) if subject is None or n.lower() not in subject.aliases]
    focus = [n for n in focus if n.lower() not in {s.lower() for s in speakers}]
    nouns: set[str] = set()
    if asked.kind in _PRESUPPOSING and (asked.head in KIN or asked.head in ANIMALS):
        nouns = presupposed_nouns(question, asked.head)
        if asked.head == "dog":
            nouns |= _DOG_WORDS
    event = sorted(content_terms(question, drop=[*focus, *(subject.aliases if subject else ())]))
    event_verb = {stem(w) for w in event} if asked.kind == "date" and focus else set()
    need_names = {n.lower(): False for n in focus}
    need_noun = not nouns
    seen_any: Evidence | None = None
    for ev in turns:
        low = ev.text.lower()
        if not any(n in low for n in need_names) and not any(w in low for w in nouns):
            continue
        for sent in parse(ev.text).sents:
            text = sent.text.lower()
            a = about(subject, speaker=ev.speaker, sentence=sent.text, turn=ev.text, others=speakers) if subject else 1.0
            for n in need_names:
                if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text) and _stated(sent) and (
                        not event_verb or {stem(w) for w in re.findall(r"[a-z]+", text)} & event_verb):
                    need_names[n] = True
                    seen_any = seen_any or ev
            said = [w for w in nouns if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]
            if said and a >= 0.8 and _stated(sent):
                need_noun = True
                seen_any = seen_any or ev
    missing = [n for n, ok in need_names.items() if not ok]
    if missing:
        what = "stated" if not event_verb else f"stated with {'/'.join(sorted(event_verb))}"
        return Premise(False, f"no sentence states {', '.join(missing)} ({what}, not asked, planned or denied)")
    if not need_noun:
        who = subject.name if subject else "the subject"
        return Premise(False, f"no sentence about {who} states a {asked.head}")
    return Premise(True, "every presupposition is stated", seen_any)
