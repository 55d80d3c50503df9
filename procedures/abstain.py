"""Entity-grounded abstention: say "No information available" when the group cannot support
what the question is about — deterministically, with no model.

Three checks, each explained in the trace:

1. **The main entity exists.** Names in the question (capitalised words that are not question
   words, stop words, months or weekdays) are looked up: a speaker of the group, an entity of
   the group (`EntityIndex.find`), or a word some turn says. A *main* name — possessive
   ("Zed's"), the subject after the auxiliary ("where does Zed live"), a relative's name ("her
   uncle Zed"), or the only name — that
   none of these supports means abstention. Other unsupported names are only noted. With no
   main name, a question that names one speaker is about that speaker ('What is the game
   "Otter Quest" that Ines plays?').
2. **The main attribute belongs to the main entity.** When the main entity is a speaker, the
   question's rarer content words are looked up in every turn and each matching turn is read
   for whom it is about: its speaker when the matching sentences say "I"/"my", the listener
   when they say "you"/"your". If the best match is another speaker about themselves, while
   turns about the main entity match clearly worse, the question asks about the wrong person
   ("What did Melanie realise after her charity race?" when Caroline ran it): abstain, with
   that turn as evidence. Skipped when the question names both speakers or "X's friend". A
   question with three or more content words, none of which any turn says, abstains too.
   In a two-person chat the turns retrieval ranked best for the question vote too
   (`best_turns_owner`): when they are the other speaker's about themselves, or the asked one's
   question to "you", what is asked belongs to the other one (`procedures.owner_votes`). Not for
   an inference ("What job might Ines take up?": what either speaker said may inform it) nor a
   summary ("Describe Ines's year": it gathers what both said), and a summary's turns, chosen
   to cover the group's history rather than ranked by fit, cast no vote.
3. **The question fits the other speaker better** (`swapped_owner`). In a two-person chat the
   question is also retrieved with the asked speaker's name swapped for the other's. When the
   best turns for the question as asked lean to the other speaker, while those for the swapped
   question are the other speaker's about themselves and score about as well, the question took
   what one speaker said for the other's: abstain. Run even when the reader found a typed value
   (that value may be the other speaker's), but not for answers walked over graph edges, nor for
   a question about someone in the speaker's life ("Ines's husband": both may have one), nor a summary.

Lower-case topics never count as names, and the speakers themselves are always grounded.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from planners.asked import requests_summary
from planners.query_text import QUESTION_FRAME
from planners.question import Question
from tkg.models import Evidence
from tkg.predicates import PredicateRegistry
from tkg.text import STOPWORDS, content_terms, split_sentences, stem, stems_of
from tkg.time_words import MONTHS, WEEKDAYS

from .group_turns import turns_containing
from .owner_votes import (
    FIRST_PERSON,
    SECOND_PERSON,
    Grounding,
    best_turns_owner,
    swap_decides,
    swap_name,
    swapped_owner,
)
from .retrieval import retrieve
from .span_words import SPAN_MEMBERS

if TYPE_CHECKING:
    from planners.payloads import Payload
    from tkg.context import Context
    from tkg.entities import EntityIndex

# Words that say little about *which* fact is asked for: they never decide ownership.
GENERIC = frozenset(
    """
    do did does doing done make makes made making get gets got go goes went going gone feel feels felt think
    thinks thought say says said tell tells told like likes liked love loves loved want wants wanted
    have has had
    take takes took see sees saw seen use uses used kind type thing things time times recent recently new
    favorite favourite way ways something someone people person one many much often usually first last year
    years month months week weeks day days plan plans planned planning activity activities help helps helped
    start started enjoy enjoys enjoyed lot also ever still really name names reason mean means happen happened
    try tried give gave given find found know knew able since ago during after before around about
    conversation conversations chat chats
    mention mentions mentioned partake partakes according describe describes described attribute attributes
    """.split()
)
GENERIC = GENERIC | {stem(w) for w in GENERIC}  # a question's terms are stems ("conversations" -> "convers")
_AUX = r"(?:did|does|do|is|was|are|were|has|have|had|will|would|can|could|should|might)"
SAY_VERBS = re.compile(
    r"\b(?:say|says|said|suggest\w*|recommend\w*|advi[cs]e\w*|tell|told|mention\w*|share[sd]?|think|thinks|thought|ask\w*)\b",
    re.I,
)
_FRIEND = r"(?:friends?|buddy|pal|bestie)"
# someone in the speaker's life ("Ines's husband", "Tomas's new boss"): either speaker may speak of theirs
_RELATIVE = (r"(?:friends?|buddy|pal|bestie|sister|brother|mother|mom|mum|father|dad|sons?|daughters?|wife|"
             r"husband|partner|boss|manager|cousin|aunt|uncle|colleagues?|kids?|child|children|family|parents?|"
             r"grandma|grandpa|grandmother|grandfather|team|teammates?)")
_TITLE = r"(?:auntie|aunty|granny|nana|dr|doctor|mr|mrs|ms|miss|prof|professor|sir|coach)"
# a question that asks for an inference ("Would Ines enjoy kayaking?", "What job might Ines take up?"):
# what either speaker said may inform it, and its answer need not be a value some turn names
INFERENCE = re.compile(r"\b(?:would|could|might|likely)\b|^\s*does it seem\b", re.I)
_TIME_NAMES = frozenset(MONTHS) | frozenset(WEEKDAYS) | {"christmas", "easter", "thanksgiving", "halloween"}
OWNER_MARGIN = 0.6  # the main entity's best turn must reach this share of the other's best
OWNER_COVERAGE = 0.5  # the other's best turn must carry this share of the question's term weight
OWNER_MIN_TERMS = 2
ATTRIBUTE_MIN_TERMS = 1  # a question with this many content words, none (nor a synonym) said, is unsupported
SPEAKER_FUZZY = 85  # rapidfuzz ratio: "Johns" is the speaker John


def ground(
    ctx: Context, q: Question, group: str, *, index: EntityIndex | None = None, ownership: bool = True,
    evidence: list[Evidence] | None = None, payload: Payload | None = None, said_own: str | None = None,
    valued: bool = False,
) -> Grounding:
    """Whether the group supports the question's main entity and attribute (see module doc).

    `ownership=False` skips the second check (the answer already rests on the entity's own edges);
    `payload` (how the question retrieves) enables the third, the swapped-subject check;
    `said_own` (the speaker whose own first-person clauses state the reader's value) exempts it.
    `valued` (the reader read values of the asked kind, "Volvo" for "cars") keeps a question whose
    words no turn says: the values stand for the words.

    >>> ground(ctx, parse("Where does Zed live?"), "priya-marco").grounded  # doctest: +SKIP
    False
    """
    index = index if index is not None else ctx.entities(group)
    speakers = ctx.speakers(group)
    candidates = _candidates(q, index, speakers)
    checks: list[dict[str, Any]] = []
    unchecked = [
        c for c in candidates if _speaker_of(c, speakers) is None and index.find(c, "person") is None
    ]
    said = _turns_saying(ctx, group, [c.lower() for c in unchecked]) if unchecked else {}
    for c in candidates:
        via = (
            "speaker"
            if _speaker_of(c, speakers)
            else "entity"
            if index.find(c, "person")
            else "turn"
            if said.get(c.lower())
            else None
        )
        checks.append({"name": c, "via": via, "main": _is_main(c, q.text, candidates)})
    missing_main = [c for c in checks if c["via"] is None and c["main"]]
    if missing_main:
        name = missing_main[0]["name"]
        return Grounding(False, f"nothing in the group mentions {name!r}", name, checks)
    mains = [c["name"] for c in checks if c["main"]]
    spoken = {s for s in (_speaker_of(c["name"], speakers) for c in checks) if s}
    if not mains and len(spoken) == 1:  # "what series is Zed excited about?": the one speaker named
        mains = [c["name"] for c in checks if _speaker_of(c["name"], speakers)][:1]
    main = mains[0] if mains else None
    result = Grounding(True, "every main name is grounded" if checks else "no names to ground", main, checks)
    speaker = _speaker_of(main, speakers) if main else None
    named_speakers = {s for s in (_speaker_of(c, speakers) for c in candidates) if s}
    about_both = len(named_speakers) > 1 or bool(
        main and re.search(rf"\b{re.escape(main)}['’]s\s+(?:best\s+)?{_FRIEND}\b", q.text, re.I)
    )  # about both speakers, or about "X's friend" (who may be the other speaker)
    # an inference ("Would Zed enjoy jazz?") may rest on what either speaker said, and a summary
    # ("Describe Zed's year") gathers it: only their names are grounded
    either = bool(INFERENCE.search(q.text)) or requests_summary(q.text)
    ownership = ownership and not about_both and not either
    if ownership and speaker is not None and len(speakers) >= 2:
        _ownership(ctx, q, group, speaker, candidates, sum(speakers.values()), result, valued=valued)
        if result.grounded and len(speakers) == 2:
            best_turns_owner(speaker, evidence or [], result)
    elif ownership and main is not None:  # someone else: whether the group says what is asked at all
        result.ownership = {"speaker": None}
        _attribute_said(ctx, q, group, candidates, result, result.ownership, valued=valued)
    unsupported = (result.ownership or {}).get("verdict") == "attribute unsupported"
    relative = bool(main and re.search(rf"\b{re.escape(main)}['’]s\s+(?:\w+\s+)?{_RELATIVE}\b", q.text, re.I))
    if payload is not None and speaker is not None and len(speakers) == 2 and not (
        about_both or unsupported or relative or requests_summary(q.text)
    ):
        other = next(s for s in speakers if s != speaker)
        asked = retrieve(ctx, q.query, group, payload).hits
        info = result.ownership or {}
        exempt = (
            "the question asks for an inference" if INFERENCE.search(q.text)
            else f"{speaker} states the reader's value of themselves" if said_own == speaker
            else f"{speaker}'s own turns match the question's words best"
            if float(info.get("best_own") or 0) > float(info.get("best_other") or 0) else None
        )
        swapped = (retrieve(ctx, swap_name(q.text, speaker, other), group, payload).hits
                   if swap_decides(speaker, asked, result, exempt) else None)
        swapped_owner(speaker, other, asked, swapped, result, exempt=exempt)
    return result


def _candidates(q: Question, index: EntityIndex, speakers: dict[str, int]) -> list[str]:
    names = list(q.named)
    first = re.match(r"\s*([^\W_]+)", q.text)
    out = []
    for n in names:
        low = n.lower()
        if low in _TIME_NAMES or low in STOPWORDS or low in QUESTION_FRAME:
            continue
        if re.fullmatch(rf"{_RELATIVE}|{_TITLE}", low) and re.search(rf"\b{re.escape(n)}\s+[A-Z]", q.text):
            continue  # "Aunt Jean", "Dr Okafor": a relation or title before a name is no name itself
        opening = first is not None and first.group(1) == n
        if opening and _speaker_of(n, speakers) is None and index.find(n, "person") is None:
            continue  # "Summarize ...", "Name ...": a capitalised opening word is not a name
        out.append(n)
    return out


def _speaker_of(name: str, speakers: dict[str, int]) -> str | None:
    """The speaker a name refers to: full or first name, or a near spelling of either."""
    low = name.lower()
    for s in speakers:
        full = s.lower()
        if low == full or low == full.split(" ")[0]:
            return s
    for s in speakers:
        if len(low) >= 4 and fuzz.ratio(low, s.lower().split(" ")[0]) >= SPEAKER_FUZZY:
            return s
    return None


def _is_main(name: str, question: str, candidates: list[str]) -> bool:
    """Possessive ("Zed's"), the only name, a relative named ("her uncle Zed": the question takes him
    as mentioned), or the first name and the subject ("does Zed ...")."""
    n = re.escape(name)
    if len(candidates) == 1 or re.search(rf"\b{n}['’]s?\b", question) \
            or re.search(rf"\b{_RELATIVE}\s+{n}\b", question, re.I):
        return True
    if candidates[0] != name:
        return False
    return bool(re.search(rf"\b(?:{_AUX}|about)\s+{n}\b", question, re.I) or re.match(rf"\s*{n}\b", question))


def _turns_saying(ctx: Context, group: str, needles: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Turns containing each needle as a word start (the store matches substrings)."""
    if not needles:
        return {}
    out: dict[str, list[dict[str, Any]]] = {n: [] for n in needles}
    for row in turns_containing(ctx, group, sorted(set(needles))):
        needle = row["needle"]
        if _says((row["text"] or "").lower(), needle):
            out.setdefault(needle, []).append(row)
    return out


def about_speaker(text: str, needles: list[str]) -> bool:
    """Whether the sentences of a turn that carry the needles speak of the speaker ("I", "my")
    rather than of the listener ("you", "your"); first person wins ties."""
    sentences = [s for s in _sentences(text) if any(_says(s.lower(), n) for n in needles)] or [text]
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)?", " ".join(sentences).lower().replace("\u2019", "'"))
    return sum(w in FIRST_PERSON for w in words) >= sum(w in SECOND_PERSON for w in words)


@lru_cache(maxsize=10_000)
def _sentences(text: str) -> tuple[str, ...]:
    """A turn's sentences, kept per text: the owner check reads the same turns question after question."""
    return tuple(split_sentences(text))


_INFLECTION = r"(?:e|s|es|ed|d|ing|er|ers|ly|y|ies|ation|ations)?"


def _says(text: str, needle: str) -> bool:
    """Whether `text` (lower-case) has a word that is `needle` plus at most an inflection; a final
    "e" may drop before it ("live" in "living")."""
    return _needle_pattern(needle).search(text) is not None


@lru_cache(maxsize=10_000)
def _needle_pattern(needle: str) -> re.Pattern[str]:
    """`_says`'s pattern for ``needle``, compiled once (the gate tests a few needles against every
    turn that contains them, question after question)."""
    base = re.escape(needle[:-1]) + "e?" if needle.endswith("e") and len(needle) >= 4 else re.escape(needle)
    return re.compile(rf"(?<![^\W_]){base}{_INFLECTION}(?![^\W_])")


@lru_cache(maxsize=8)
def _vocabulary(registry: PredicateRegistry) -> dict[str, frozenset[str]]:
    """Each stem a predicate's words say (its phrases, verbs, nouns, possessive tails) → the stems of
    all of them: words of one closed relation stand in for each other ("job" for "work")."""
    out: dict[str, set[str]] = {}
    for p in registry.predicates():
        words = content_terms(" ".join((*p.phrases, *p.verbs, *p.nouns, *p.possessive)).replace("{name}", ""))
        for w in words:
            out.setdefault(w, set()).update(words)
    return {w: frozenset(ws) for w, ws in out.items()}


def _synonym_said(ctx: Context, group: str, terms: list[str], info: dict[str, Any], head: str = "") -> bool:
    """Whether some turn says a word of the same predicate as one of the question's unsaid ``terms``,
    or a member of the category the question asks for by its ``head`` ("Yaris" for "what car")."""
    vocabulary = _vocabulary(ctx.registry)
    said_as = {w for t in terms for w in vocabulary.get(t, ()) if len(w) >= 3} | SPAN_MEMBERS.get(head, set())
    near = sorted(said_as - set(terms) - GENERIC)
    said = sorted(w for w, rows in _turns_saying(ctx, group, near).items() if rows) if near else []
    if said:
        info["synonyms_said"] = said
    return bool(said)


def _attribute_said(
    ctx: Context, q: Question, group: str, names: list[str], result: Grounding, info: dict[str, Any],
    *, valued: bool = False,
) -> dict[str, list[dict[str, Any]]] | None:
    """The turns saying each of the question's content words (``info`` gets the words and their
    turn counts); None when there are none to check, or when no turn says any of them nor a word
    of the same predicate and the reader read no value: then the attribute is unsupported."""
    terms = sorted(
        t for t in q.terms - stems_of(names)
        if t not in GENERIC and t not in _TIME_NAMES and len(t) >= 3 and not t.isdigit()
    )
    info["terms"] = terms
    if not terms:
        info["verdict"] = "no content words to check"
        return None
    found = _turns_saying(ctx, group, terms)
    df = {t: len({r["uuid"] for r in found.get(t, [])}) for t in terms}
    info["df"] = df
    unsaid = not any(df.values()) and not valued
    if len(terms) >= ATTRIBUTE_MIN_TERMS and unsaid \
            and not _synonym_said(ctx, group, terms, info, q.asked.head):
        result.grounded, result.reason = False, f"no turn says any of {', '.join(terms)}"
        info["verdict"] = "attribute unsupported"
        return None
    return found


def _ownership(
    ctx: Context, q: Question, group: str, speaker: str, names: list[str], turns: int, result: Grounding,
    *, valued: bool = False,
) -> None:
    info: dict[str, Any] = {"speaker": speaker}
    result.ownership = info
    found = _attribute_said(ctx, q, group, names, result, info, valued=valued)
    if found is None:
        return
    terms, df = info["terms"], info["df"]
    idf = {t: math.log((turns + 1) / (df[t] + 0.5)) for t in terms if df[t]}
    per_turn: dict[str, tuple[float, set[str], dict[str, Any]]] = {}
    for t, rows in found.items():
        for r in rows:
            score, hit, row = per_turn.get(r["uuid"], (0.0, set(), r))
            if t not in hit:
                per_turn[r["uuid"]] = (score + idf[t], hit | {t}, row)
    total = sum(idf.values())
    first = speaker.lower().split(" ")[0]
    mine: float = 0.0
    others: list[tuple[float, set[str], dict[str, Any]]] = []
    quoting = SAY_VERBS.search(q.text) is not None  # "what did X suggest": X's words, whoever they are about
    for score, hit, row in per_turn.values():
        by_speaker = str(row.get("speaker") or "").lower().split(" ")[0] == first
        own_voice = about_speaker(row.get("text") or "", sorted(hit))
        if by_speaker and (own_voice or quoting):
            mine = max(mine, score)  # the speaker about themselves
        elif not by_speaker and not own_voice and not quoting:
            mine = max(mine, score)  # the other one about "you"
        elif not by_speaker:
            others.append((score, hit, row))
        # the speaker talking about "you" is about the listener, but not clearly enough to count
    best = max(others, key=lambda x: (x[0], str(x[2].get("source_ref") or "")), default=None)
    info.update(best_own=round(mine, 3), best_other=round(best[0], 3) if best else 0.0, total=round(total, 3),
                other_terms=len(best[1]) if best else 0)
    if best is None or len(best[1]) < min(OWNER_MIN_TERMS, len(idf)) or best[0] < OWNER_COVERAGE * total:
        info["verdict"] = "no other speaker's turn matches clearly"
        return
    if mine >= OWNER_MARGIN * best[0]:
        info["verdict"] = f"{speaker}'s own turns match too"
        return
    row = best[2]
    said_by = str(row.get("speaker") or "someone else")
    info.update(verdict=f"the attribute belongs to {said_by}", turn=row.get("source_ref"))
    result.grounded = False
    result.reason = (f"what the question asks about {speaker} is what {said_by} said about themselves "
                     f"({row.get('source_ref')})")
    result.evidence = [
        Evidence(source_ref=row.get("source_ref"), episode=row.get("episode_uuid") or "",
                 text=row.get("text") or "", valid_at=row.get("valid_at"), score=round(best[0], 3),
                 group=group, speaker=said_by, kind="turn")
    ]  # fmt: skip
