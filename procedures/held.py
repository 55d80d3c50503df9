"""What a subject holds, read from their turns: how many of a thing after every count they state,
which listed values (or the person or thing chosen for "now") are still held, and who sold or bought
a thing and for how much.

Steps of `procedures.reading.read` that stand on their own: each returns a `Reading` (or the kept
candidates), or None when the turns do not say, and the reading goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planners.asked import Asked
from planners.question import Question
from tkg.models import Evidence
from tkg.nlp import parse
from tkg.text import content_terms

from .about import Subject
from .backfill import turn_evidence
from .choice import choose, left_on
from .event_turns import subject_turns
from .gather import count_held, denied, ending
from .group_turns import replies_to, turns_before, turns_with_terms
from .reader import Candidate, Reading, norm
from .slots import FAR_PAST
from .synthesis import dedupe
from .transactions import read_sale, sale_question

if TYPE_CHECKING:
    from tkg.context import Context

_TIME_UNITS = frozenset("minute hour day week month year decade".split())  # counted where their verb is said
# verbs that say no activity of their own ("how many weeks passed between…", "how long did it take")
_LIGHT_VERBS = frozenset("have do be get pass take spend last go".split())


def count_reading(ctx: Context, group: str, subject: Subject, q: Question, turns: list[Evidence],
                  ranked: list[Evidence], trace: dict[str, Any]) -> Reading | None:
    """How many of the asked things the subject has after every count their turns state
    (`procedures.gather.count_held`); turns naming the counted things by name are read too. A span of
    time ("how many years did she teach") is counted where one of the question's verbs is said, and
    anywhere when no such sentence states one. The evidence keeps the procedure's ranking (``ranked``);
    the turns counted follow when it lacks them."""
    def theirs(ev: Evidence) -> bool:
        return (ev.speaker or "").lower() in subject.aliases or subject.named_in(ev.text)

    head = q.asked.head
    done = frozenset(t.lemma_.lower() for t in parse(q.text) if t.pos_ == "VERB"
                     and t.lemma_.lower() not in _LIGHT_VERBS) if head in _TIME_UNITS else frozenset()
    pool = dedupe(turns + subject_turns(ctx, group, subject, content_terms(f"{head} {head}s")))
    tally = count_held(head, pool, theirs, done)
    if done and (tally is None or tally.total is None):  # no sentence with the verb states one
        done = frozenset()
        tally = count_held(head, pool, theirs)
    if tally is not None and tally.members:  # "a fox got Cleo": the turns that name them
        pool = dedupe(pool + subject_turns(ctx, group, subject, content_terms(" ".join(tally.members))))
        tally = count_held(head, pool, theirs, done)
    if tally is None or tally.total is None:
        return None
    trace["count"] = tally.steps
    return Reading(str(tally.total), False, dedupe(ranked + tally.evidence), trace, typed=True)


def still_held(ctx: Context, group: str, subject: Subject, chosen: list[Candidate], turns: list[Evidence],
               trace: dict[str, Any], *, latest: bool) -> list[Candidate]:
    """The listed values no later turn denies ("didn't get the job at Orbis") nor, for a list of
    what is held ``latest``, ends ("Biscuit died", "sold the Volvo")."""
    kept, ended = [], {}
    for c in chosen:
        if c.source == "graph":  # an edge's slot logic has already closed what ended or was called off
            kept.append(c)
            continue
        ev = _ended(ctx, group, subject, c, turns, latest=latest)
        if ev is None:
            kept.append(c)
        else:
            ended[c.value] = ev.source_ref
    if ended:
        trace["ended"] = ended
    return kept


def _ended(ctx: Context, group: str, subject: Subject, c: Candidate, turns: list[Evidence], *,
           latest: bool) -> Evidence | None:
    """The turn, said since ``c`` was, that denies its value or, for what is held ``latest``, ends it;
    read in ``turns`` and the subject's turns naming the value."""
    pool = dedupe(turns + subject_turns(ctx, group, subject, content_terms(c.value)))
    return denied(c.value, pool, c.when) or (ending(c.value, pool, c.when) if latest else None)


def held_since(ctx: Context, group: str, subject: Subject, asked: Asked, chosen: list[Candidate],
               cands: list[Candidate], turns: list[Evidence], how: dict[str, Any],
               ) -> tuple[list[Candidate], dict[str, Any]]:
    """The person or thing chosen for "now" (``chosen``, newest first, as ``how`` says), unless a later
    turn ends or denies it ("Theo and I have split up", "I sold my bass last month"): then the latest
    well-supported of the ``cands`` said since that turn, or none (no information), and how, naming
    the value that ended."""
    top = chosen[0]
    # a workplace or a role is taken back ("the offer got withdrawn"), not ended by any verb of ending
    # ("night shifts at st brigid's are killing me"); a home is left ("I left Sevenoaks in May")
    ended = _ended(ctx, group, subject, top, turns, latest=asked.kind in ("person", "thing", "place"))
    if ended is None:
        return chosen, how
    since = ended.valid_at or FAR_PAST
    since_then = [c for c in cands
                  if norm(c.value) != norm(top.value) and c.when is not None and c.when >= since]
    chosen, how = choose(asked, since_then, latest=True, window=None)
    return chosen, {**how, "ended": {top.value: ended.source_ref}}


def sale_reading(ctx: Context, q: Question, group: str, subject: Subject | None, turns: list[Evidence],
                 speakers: tuple[str, ...], ranked: list[Evidence], trace: dict[str, Any]) -> Reading | None:
    """Who sold or bought the question's thing, or its price (`procedures.transactions`), read from
    ``turns`` and the group's turns naming the thing; None when the question asks about no sale or
    no turn states one (the other steps read on)."""
    asked = sale_question(q.text, subject)
    if asked is None:
        return None
    named = turns_with_terms(ctx, group, [asked.head], 40)
    pool = dedupe(turns + [turn_evidence(r, 0.0, group) for r in named])
    got = read_sale(asked, subject, pool, speakers, turns_before(ctx, group, pool),
                    replies_to(ctx, group, pool))
    if got is None:
        return None
    value, said = got
    return Reading(value, False, dedupe(said + ranked), {**trace, "sale": {"asked": asked.want,
                                                                        "thing": asked.head}}, typed=True)


def taken_up(asked: Asked, cands: list[Candidate], how: dict[str, Any],
             ) -> tuple[list[Candidate], dict[str, Any]]:
    """"Now", and the subject left every well-supported value (``how`` names them): the latest
    well-supported value said since the last was left, in that turn or after ("sold my bass, bought a
    digital piano"), or none."""
    left = set(how["left"])
    said = {k: [c for c in cands if norm(c.value) == k] for k in left}
    since = max(left_on(said).values(), default=FAR_PAST)
    since_then = [c for c in cands if norm(c.value) not in left and c.when is not None and c.when >= since]
    chosen, again = choose(asked, since_then, latest=True, window=None)
    return chosen, ({**again, "left": how["left"]} if chosen else how)
