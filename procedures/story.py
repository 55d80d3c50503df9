"""A topical summary: the turns that tell the story of one topic of one subject, dated, in time order.

"What happened with Hannah's job offer?" is not answered by turns spread over the group's history
(`procedures.longform`'s overview) but by the turns about the offer. Each turn of the subject (said by
them or naming them; every turn when the question names nobody) that says something is scored by how
its statements (not its questions) speak to the topic (`procedures.topic`): the topic's own words, their
relatives in the predicate registry, the values the graph holds for the subject in the topic's relations
(only those of the thing the question names, when it names one) and the turns that stated them, and its
closeness in meaning to the topic (the group's turn and sentence vectors against the topic's, as standard
scores among the candidates). Then once more with relevance feedback from the best-scored turns: their
vectors join the topic's (the closer of the two looks counts) and their rarer words echo it, so
"lumenkraft let four of us go" joins "I can keep freelancing for lumenkraft". A turn that says a change weighs
more; another speaker's turn less. The best few above a floor become dated, attributed bullets in time
order, each quoting its turn (a long one by the sentences that carry the topic); the evidence is those
turns, best first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tkg.fts import stop_words
from tkg.models import Evidence, Fact
from tkg.stores.base import Row
from tkg.text import STOPWORDS, loose_stem, split_sentences, terms

from .about import Subject, subject_of
from .backfill import turn_evidence
from .group_turns import group_turns
from .group_vectors import GroupVectors, group_vectors
from .result import ProcedureResult
from .retrieval import retrieve
from .slots import FAR_FUTURE, FAR_PAST, group_time, resolve_window
from .synthesis import format_day
from .topic import (
    PLAIN_STEMS,
    VALUE_KINDS,
    change_in,
    matches,
    relation_phrases,
    relatives,
    says_something,
    text_stems,
    values_said,
)

if TYPE_CHECKING:
    from planners.payloads import Payload
    from planners.question import Question
    from tkg.context import Context

MAX_BULLETS = 8
RELATED = 5  # closest turns kept as evidence when the procedure abstains
FLOOR = 2.5  # the score a turn needs to be part of the story
NEAR = 1.5  # standard scores of closeness that tie a turn to the topic without a word of it
# weights of what ties a turn to the topic (closeness counts one per standard deviation)
TOPIC_WORD, PHRASE, RELATIVE, VALUE, SOURCE, ECHO = 2.0, 2.0, 1.0, 1.5, 1.0, 1.5
CHANGE, OTHER_SPEAKER = 0.75, -1.0
MAX_RELATIVES = 2
FEEDBACK = 3  # best-scored turns whose vectors and rarer words join the topic's for the second look
RARE = 0.1  # a word in at most this share of the group's turns (and in two or more) is a rare one
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
WHOLE = 250  # a turn this short is quoted whole
FOLLOW = 80  # a sentence this short after a quoted one goes with it ("March 3 to 9.")


@dataclass
class Scored:
    row: Row
    score: float
    why: dict[str, Any]


@dataclass
class Closeness:
    """Standard scores of closeness to the topic per turn, and each turn's closest sentence."""

    z: dict[str, float]
    sentence: dict[str, str]


@dataclass
class Ties:
    """What ties a turn to the topic: its words and their relatives, the relations' phrases, the graph's
    values and their source turns, and (after feedback) the rarer words of the best turns."""

    own: set[str]
    related: frozenset[str]
    phrases: re.Pattern[str] | None
    values: set[str]
    sources: set[str]
    echoes: set[str] = field(default_factory=set)
    kinds: tuple[str, ...] = ()  # the kinds of value the topic names ("date", "time"): a turn stating one
    _fixed: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict, repr=False)

    def score(self, row: Row, text: str, stems: frozenset[str], near: float, other: bool) -> Scored:
        """``text``: what the turn states; ``stems``: the loose stems of its words."""
        key = (str(row["uuid"]), text)
        fixed = self._fixed.get(key)
        if fixed is None:  # what feedback leaves as it was (a story weighs each turn twice)
            found = self.phrases.search(text) if self.phrases is not None else None
            fixed = self._fixed[key] = {
                "topic": _sorted(stems & self.own), "phrase": found.group(0) if found else None,
                "relatives": _sorted(stems & (self.related - self.own))[:MAX_RELATIVES],
                "values": _sorted(stems & self.values), "source": row["uuid"] in self.sources,
                "states": values_said(text, self.kinds),
            }
        why: dict[str, Any] = {**fixed, "echoes": _sorted(stems & self.echoes), "change": change_in(text),
                               "near": round(near, 2)}
        words = (TOPIC_WORD * len(why["topic"]) + PHRASE * bool(why["phrase"] is not None)
                 + RELATIVE * len(why["relatives"]) + VALUE * bool(why["values"])
                 + TOPIC_WORD * bool(why["states"]) + SOURCE * why["source"])
        echo = ECHO * bool(why["echoes"])  # ties a turn only with a change: "lumenkraft let four of us go"
        tied = words > 0 or near >= NEAR or bool(echo and why["change"])
        score = words + echo + near + OTHER_SPEAKER * other + CHANGE * (why["change"] is not None and tied)
        return Scored(row, round(score, 3), {**why, "words": words > 0, "tied": tied})


def _sorted(found: set[str] | frozenset[str]) -> list[str]:
    return sorted(found) if found else []


def story(ctx: Context, q: Question, group: str, payload: Payload, subject: Subject | None,
          words: tuple[str, ...], *, as_of: datetime | None = None, timed: bool = True) -> ProcedureResult:
    """The topical summary of ``words`` for ``subject`` (see the module doc); with a time anchor, told by the
    turns said then, else (the anchor dates the thing: "the trip booked for October") by all of them."""
    names = {w for n in q.named for w in terms(n)}
    own = {loose_stem(w) for w in words}
    named = {loose_stem(w) for w in words if w in names}
    family, related = relatives(tuple(w for w in words if w not in names), ctx.registry)
    facts = [f for f in _family_facts(ctx, group, subject, family, as_of)
             if not named or matches(f.object, named)]  # "the Oslo trip": not every plan
    ties = Ties(own, related, relation_phrases(family, ctx.registry),
                {s for f in facts for w in terms(f.object)
                 if len(w) > 2 and w not in STOPWORDS and (s := loose_stem(w)) not in PLAIN_STEMS} - own,
                {ep for f in facts for ep in f.episodes[:1]},
                kinds=tuple(dict.fromkeys(VALUE_KINDS[w] for w in words if w in VALUE_KINDS)))
    topic = " ".join(words)
    rows = _candidates(ctx, group, q, topic, payload, subject, as_of, timed)
    stated = {r["uuid"]: _statements(r.get("text") or "") for r in rows}
    stems = {u: text_stems(text) for u, text in stated.items()}
    other = {r["uuid"]: bool(subject and subject.speaker and not subject.said_by(r.get("speaker")))
             for r in rows}
    gv = group_vectors(ctx, group)
    near = _closeness(gv, ctx.embed_query(topic), rows) if gv is not None else Closeness({}, {})

    def ranked() -> list[Scored]:
        out = [ties.score(r, stated[r["uuid"]], stems[r["uuid"]], near.z.get(r["uuid"], 0.0),
                          other[r["uuid"]]) for r in rows]
        return sorted(out, key=lambda s: (-s.score, str(s.row["uuid"])))

    scored = ranked()
    best = [str(s.row["uuid"]) for s in scored if s.why["tied"]][:FEEDBACK]
    if best:  # relevance feedback: the best turns' rarer words and vectors join the topic's
        speakers = {w for sp in ctx.speakers(group) for w in terms(sp)}
        echoes = _rare_words(kept_rows(ctx, group, rows), [stated[u] for u in best], speakers)
        ties.echoes = echoes - own - related
        if gv is not None:
            again = _closeness(gv, _feedback(gv, ctx.embed_query(topic), best), rows)
            near = Closeness({u: max(z, again.z.get(u, z)) for u, z in near.z.items()}, near.sentence)
        scored = ranked()
    said = any(s.why["words"] for s in scored)  # a topic no turn words is not in the conversation
    eligible = [s for s in scored if said and s.why["tied"] and s.score >= FLOOR]
    chosen = spread(eligible)
    trace: dict[str, Any] = {
        "procedure": "long_form", "summary": "topic", "topic": list(words), "relations": sorted(family),
        "echoes": sorted(ties.echoes), "worded": said, "subject": subject.name if subject else None,
        "facts": len(facts),
        "candidates": len(rows), "selected": len(chosen),
        "chosen": [{"ref": s.row.get("source_ref"), "score": s.score, **s.why} for s in chosen],
    }
    if not chosen and timed and q.anchor is not None:
        return story(ctx, q, group, payload, subject, words, as_of=as_of, timed=False)
    if not chosen:  # the closest turns stay as evidence, as related turns (not as support)
        why = "no turn of the subject is about the topic" if said else "no turn says the topic's words"
        related_turns = [turn_evidence(s.row, s.score, group) for s in scored[:RELATED]]
        trace.update(reason=why, evidence="related turns")
        return ProcedureResult("", related_turns, facts, True, trace)
    told = [turn_evidence(s.row, s.score, group) for s in chosen]
    # the evidence: the best turns, as many as the bullets, and the days' turns the bullets add, best first
    shown = {id(s): s for s in eligible[:MAX_BULLETS] + chosen}
    evidence = [turn_evidence(s.row, s.score, group) for s in sorted(shown.values(), key=lambda s: -s.score)]
    keys = own | related | ties.values
    timeline = sorted(told, key=lambda e: (e.valid_at or _EPOCH, e.source_ref or ""))
    bullets = [_bullet(e, keys, near.sentence.get(e.episode, "")) for e in timeline]
    return ProcedureResult("\n".join(bullets), evidence, facts, False, trace)


def spread(eligible: list[Scored]) -> list[Scored]:
    """At most `MAX_BULLETS` of the ``eligible`` turns (best first): the best of each day they were said
    on first, so a story that changed over months is told from its start to its end rather than by the
    day that said most about it, then the best of the rest."""
    days: dict[Any, Scored] = {}
    for s in eligible:
        days.setdefault(_day(s.row), s)
    firsts = sorted(days.values(), key=lambda s: -s.score)[:MAX_BULLETS]
    taken = {id(s) for s in firsts}
    rest = [s for s in eligible if id(s) not in taken]
    return sorted(firsts + rest[: MAX_BULLETS - len(firsts)], key=lambda s: -s.score)


def _day(row: Row) -> Any:
    when = row.get("valid_at")
    return when.date() if isinstance(when, datetime) else when


def story_subject(q: Question, speakers: dict[str, int]) -> Subject | None:
    """The question's subject (`subject_of`), except that a speaker it names wins over someone else it
    names: "Nell and Arjun's relationship" is told in Nell's turns, with Arjun among its topic words."""
    found = subject_of(q, speakers)
    if found is None or found.speaker:
        return found
    for name in q.named:
        low = name.lower()
        match = next((s for s in speakers if s.lower() == low or s.lower().split()[0] == low), None)
        if match is not None:
            return Subject(match, frozenset({match.lower(), match.lower().split()[0]}), speaker=True)
    return found


def kept_rows(ctx: Context, group: str, rows: list[Row]) -> list[Row]:
    """Every turn of the group when they are kept in memory, else ``rows``."""
    kept = group_turns(ctx, group)
    return kept.rows if kept is not None else rows


def _rare_words(turns: list[Row], best: list[str], speakers: set[str]) -> set[str]:
    """Loose stems of the words of ``best`` that two or more, but at most `RARE` of, the group's turns say,
    other than stop words, the speakers' names and the words `procedures.topic` finds too common (names a
    topic's turns share, like an employer's: "lumenkraft", "investor")."""
    common = STOPWORDS | stop_words() | speakers
    wanted = {s for text in best for w in terms(text) if len(w) > 3 and w not in common
              and (s := loose_stem(w)) not in PLAIN_STEMS}
    seen: dict[str, int] = {}
    for r in turns:
        for stem_ in matches(r.get("text") or "", wanted):
            seen[stem_] = seen.get(stem_, 0) + 1
    limit = max(2, int(RARE * len(turns)))
    return {w for w, n in seen.items() if 2 <= n <= limit}


@lru_cache(maxsize=50_000)
def _statements(text: str) -> str:
    """The sentences of a turn that state something (its questions ask), kept per text."""
    return " ".join(s for s in split_sentences(text) or [text] if not s.rstrip().endswith("?"))


def _family_facts(ctx: Context, group: str, subject: Subject | None, family: frozenset[str],
                  as_of: datetime | None) -> list[Fact]:
    """Every version of the subject's facts in the topic's relations (the graph's side of its story)."""
    if subject is None or not family:
        return []
    entity = ctx.entities(group).find(subject.name, "person")
    if entity is None:
        return []
    rows = ctx.store.named("fact.history",
                           {"group_id": group, "subject_uuids": [entity.uuid], "predicate": ""})
    facts = [Fact.from_row(r, group) for r in rows]
    return [f for f in facts
            if f.predicate in family and (as_of is None or (f.valid_at is not None and f.valid_at <= as_of))]


def _candidates(ctx: Context, group: str, q: Question, topic: str, payload: Payload, subject: Subject | None,
                as_of: datetime | None, timed: bool) -> list[Row]:
    """The subject's turns that say something, said by the time the question names (its anchor, ``as_of``):
    said by them or naming them (every turn when the question names nobody, or names someone no turn names);
    a group too large to keep gives its best-retrieved turns."""
    kept = group_turns(ctx, group)
    if kept is not None:
        rows = kept.rows
    else:
        wide = retrieve(ctx, topic or q.query, group, replace(payload, depth=payload.depth * 3, neighbours=0))
        rows = [{"uuid": h.episode_uuid, "text": h.text, "speaker": h.speaker, "valid_at": h.valid_at,
                 "source_ref": h.source_ref} for h in wide.hits]
    start, end = FAR_PAST, as_of or FAR_FUTURE
    window = resolve_window(q.anchor.text, group_time(ctx, group)) if q.anchor is not None and timed else None
    if window is not None:  # "what happened to his job in August 2023": the story told then
        start, end = max(start, window[0]), min(end, window[1])
    rows = [r for r in rows if says_something(r.get("text") or "")
            and (start == FAR_PAST and end == FAR_FUTURE
                 or (r.get("valid_at") is not None and start <= r["valid_at"] <= end))]
    if subject is None:
        return rows
    theirs = [r for r in rows if subject.said_by(r.get("speaker")) or subject.named_in(r.get("text") or "")]
    return theirs or rows


def _closeness(gv: GroupVectors, vector: Any, rows: list[Row]) -> Closeness:
    """How close each turn (its text or its closest sentence) lies to ``vector``, as standard scores among
    ``rows``, with the closest sentence of each turn."""
    wanted = {str(r["uuid"]) for r in rows}
    scores = gv.scores(vector)
    best: dict[str, float] = {}
    sentence: dict[str, tuple[float, str]] = {}
    turns = gv.turns
    top, closest = turns.best(scores)
    for k, turn in enumerate(turns.turns):  # turns in the order their rows first come
        if turn not in wanted:
            continue
        best[turn] = max(-1.0, float(top[k]))
        at = closest.get(k)
        if at is not None and float(scores[at]) > -1.0:
            sentence[turn] = (float(scores[at]), str(gv.rows[at].get("text") or ""))
    if len(best) < 2:
        return Closeness({}, {})
    values = np.array(list(best.values()))
    mean, std = float(values.mean()), float(values.std()) or 1.0
    return Closeness({u: (s - mean) / std for u, s in best.items()}, {u: t for u, (_, t) in sentence.items()})


def _feedback(gv: GroupVectors, vector: Any, turns: list[str]) -> np.ndarray:
    """The topic's unit vector plus the mean unit vector of ``turns`` (Rocchio's relevance feedback)."""
    query = np.asarray(vector, dtype=np.float32)
    query = query / (float(np.linalg.norm(query)) or 1.0)
    rows = [i for i, r in enumerate(gv.rows)
            if r.get("kind") == "turn" and str(r.get("episode_uuid")) in turns]
    if not rows:
        return query
    return np.asarray(query + gv.matrix[rows].mean(axis=0), dtype=np.float32)


def _bullet(e: Evidence, keys: set[str], closest: str) -> str:
    """"- 20 May 2024 — Hannah: <the turn, or the sentences of a long one that carry the topic>"."""
    who = f"{e.speaker}: " if e.speaker else ""
    text = " ".join(e.text.split())
    if len(text) <= WHOLE:
        return f"- {format_day(e.valid_at)} — {who}{text}"
    sentences = [s.strip() for s in split_sentences(text) or [text]]
    keep = {i for i, s in enumerate(sentences) if not s.endswith("?") and matches(s, keys)}
    if not keep:
        keep = {i for i, s in enumerate(sentences) if closest and s in closest or closest in s} or {0}
    keep |= {i + 1 for i in keep if i + 1 < len(sentences) and len(sentences[i + 1]) <= FOLLOW
             and not matches(sentences[i + 1], keys)}
    return f"- {format_day(e.valid_at)} — {who}{' '.join(sentences[i] for i in sorted(keep))}"
