"""The temporal benchmark's answer key: replay what was said, then ask questions we can answer.

The replay reads only the `Change`s attached to generated turns, so a fact the generator meant
but never got to say is not in the key. Question kinds:

``current`` value now · ``correction`` (current value set by "actually, …") · ``as_of`` a past
date or month · ``late_as_of`` a year only a late-arriving turn mentions · ``history_count`` /
``history_list`` (how many / which cities or companies) · ``chain2`` / ``chain3`` (where does X's
manager / manager's manager live) · ``chain_past`` (where did X's manager live on a past date) ·
``pets_now`` (current pets; lost ones must not be named) · ``pets_count``.

Example::

    >>> from tkg.bench.temporal_gen import generate
    >>> qs = build_questions(generate(400, seed=1))
    >>> {q.kind for q in qs} >= {"as_of", "chain2", "current"}
    True
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from . import temporal_text as tx
from .metrics import number_forms
from .temporal_gen import Change, TemporalData, Turn

KINDS = ("current", "correction", "as_of", "late_as_of", "history_count", "history_list", "chain2", "chain3",
         "chain_past", "pets_now", "pets_count")
MODE_LABELS = {"as_of": "time_anchored", "late_as_of": "time_anchored", "history_count": "aggregation",
               "history_list": "aggregation", "pets_count": "aggregation", "chain2": "relation_chain",
               "chain3": "relation_chain"}
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Question:
    qid: str
    group: str
    kind: str
    text: str
    expected: tuple[tuple[str, ...], ...]  # every item must appear (any of its spellings)
    forbidden: tuple[str, ...] = ()
    subject: str = ""
    slot: str = ""
    evidence: tuple[str, ...] = ()  # turns that said the answer

    @property
    def mode(self) -> str | None:
        return MODE_LABELS.get(self.kind)


@dataclass
class Interval:
    value: str
    start: datetime
    end: datetime | None
    ref: str
    corrected: bool = False


@dataclass
class Person:
    """One person's history: intervals per single-valued slot, multi-valued sets, late facts."""

    slots: dict[str, list[Interval]] = field(default_factory=lambda: defaultdict(list))
    late: list[Interval] = field(default_factory=list)
    now: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    ever: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    refs: dict[tuple[str, str], str] = field(default_factory=dict)

    def at(self, slot: str, when: datetime) -> Interval | None:
        for iv in self.slots.get(slot, []):
            if iv.start <= when and (iv.end is None or when < iv.end):
                return iv
        return None

    def current(self, slot: str) -> Interval | None:
        ivs = self.slots.get(slot) or []
        return ivs[-1] if ivs and ivs[-1].value else None


def replay(turns: list[Turn]) -> dict[str, dict[str, Person]]:
    """group → person → history, from the changes the turns carry (in turn order)."""
    world: dict[str, dict[str, Person]] = defaultdict(lambda: defaultdict(Person))
    for t in turns:
        for c in t.changes:
            _apply(world[t.group][c.person], c, t.ref)
    return world


def _apply(p: Person, c: Change, ref: str) -> None:
    if c.op == "late":
        p.late.append(Interval(c.value, c.start, c.end, ref))
    elif c.op == "set":
        ivs = p.slots[c.slot]
        if c.corrects is not None and ivs and ivs[-1].value == c.corrects:
            ivs.pop()  # the wrong value was never true
        if ivs and ivs[-1].end is None:
            ivs[-1].end = c.start
        ivs.append(Interval(c.value, c.start, None, ref, corrected=c.corrects is not None))
    elif c.op == "add":
        p.now[c.slot].add(c.value)
        p.ever[c.slot].add(c.value)
        p.refs[(c.slot, c.value)] = ref
    elif c.op == "remove":
        p.now[c.slot].discard(c.value)


def _day_phrase(rng: random.Random, start: datetime, end: datetime) -> str | None:
    """A date phrase whose whole span lies inside [start, end) with a day to spare, or None."""
    first = (start + 2 * DAY).replace(hour=0, minute=0, second=0, microsecond=0)
    last = (end - 2 * DAY).replace(hour=0, minute=0, second=0, microsecond=0)
    if last < first:
        return None
    month = first.replace(day=1) if first.day == 1 else (first.replace(day=1) + 32 * DAY).replace(day=1)
    month_end = (month + 32 * DAY).replace(day=1)
    if month_end <= last and rng.random() < 0.5:
        return f"in {month:%B %Y}"
    d = first + DAY * rng.randint(0, (last - first).days)
    return f"on {d.day} {d:%B %Y}" if rng.random() < 0.6 else f"on {d:%Y-%m-%d}"


def _past(p: Person, slot: str) -> list[Interval]:
    return [iv for iv in p.slots.get(slot, [])[:-1] if iv.end is not None and iv.end - iv.start >= 5 * DAY]


def _group_questions(group: str, people: dict[str, Person], rng: random.Random) -> dict[str, list[Question]]:
    out: dict[str, list[Question]] = defaultdict(list)

    def add(
        kind: str,
        text: str,
        expected: list[list[str]],
        who: str,
        slot: str = "",
        forbidden: tuple[str, ...] = (),
        evidence: tuple[str, ...] = (),
    ) -> None:
        qid = f"{group}:{kind}:{len(out[kind])}"
        out[kind].append(
            Question(
                qid, group, kind, text, tuple(tuple(e) for e in expected), forbidden, who, slot, evidence
            )
        )

    for who in sorted(people):
        p = people[who]
        for slot, templates in tx.Q_CURRENT.items():
            iv = p.current(slot)
            if iv:
                kind = "correction" if iv.corrected else "current"
                add(kind, rng.choice(templates).format(p=who), [[iv.value]], who, slot, evidence=(iv.ref,))
        partner = p.current("partner")
        if partner:
            stage, _, name = partner.value.partition(":")
            add(
                "current",
                tx.Q_PARTNER[stage].format(p=who),
                [[name]],
                who,
                "partner",
                evidence=(partner.ref,),
            )
        for slot, templates in tx.Q_AS_OF.items():
            past = _past(p, slot)
            if past:
                iv = rng.choice(past)
                assert iv.end is not None
                when = _day_phrase(rng, iv.start, iv.end)
                if when:
                    add(
                        "as_of",
                        rng.choice(templates).format(p=who, when=when),
                        [[iv.value]],
                        who,
                        slot,
                        evidence=(iv.ref,),
                    )
        for iv in p.late[:1]:
            add(
                "late_as_of",
                rng.choice(tx.Q_LATE).format(p=who, year=iv.start.year),
                [[iv.value]],
                who,
                "lives_in",
                evidence=(iv.ref,),
            )
        for slot in ("lives_in", "works_at"):
            values = list(
                dict.fromkeys(
                    [iv.value for iv in (p.late if slot == "lives_in" else []) + p.slots.get(slot, [])]
                )
            )
            refs = tuple(iv.ref for iv in p.slots.get(slot, []))
            if len(values) >= 2:
                add(
                    "history_count",
                    tx.Q_HISTORY_COUNT[slot].format(p=who),
                    [list(number_forms(len(values)))],
                    who,
                    slot,
                    evidence=refs,
                )
                if len(values) <= 6:
                    add(
                        "history_list",
                        tx.Q_HISTORY_LIST[slot].format(p=who),
                        [[v] for v in values],
                        who,
                        slot,
                        evidence=refs,
                    )
        bosses, above = [], p  # "where does X's manager (or manager's manager) live"
        for kind, templates in (("chain2", tx.Q_CHAIN2), ("chain3", tx.Q_CHAIN3)):
            boss = above.current("reports_to")
            if not (boss and boss.value in people):
                break
            bosses.append(boss)
            above = people[boss.value]
            if home := above.current("lives_in"):
                add(kind, rng.choice(templates).format(p=who), [[home.value]], who,
                    "reports_to." * len(bosses) + "lives_in", evidence=(*(b.ref for b in bosses), home.ref))
        _chain_past(p, who, people, rng, add)
        if p.now["pets"]:
            lost = tuple(sorted(p.ever["pets"] - p.now["pets"]))
            refs = tuple(p.refs[("pets", v)] for v in sorted(p.now["pets"]))
            add(
                "pets_now",
                rng.choice(tx.Q_PETS_NOW).format(p=who),
                [[v] for v in sorted(p.now["pets"])],
                who,
                "pets",
                forbidden=lost,
                evidence=refs,
            )
        if p.now["pets"]:
            add(
                "pets_count",
                rng.choice(tx.Q_PETS_COUNT).format(p=who),
                [list(number_forms(len(p.now["pets"])))],
                who,
                "pets",
            )
    return out


def _chain_past(
    p: Person, who: str, people: dict[str, Person], rng: random.Random, add: Callable[..., None]
) -> None:
    """"Where did X's manager live on <date>?": both hops as of a date inside both intervals."""
    for iv in _past(p, "reports_to"):
        if iv.value not in people or iv.end is None:
            continue
        for home in people[iv.value].slots.get("lives_in", []):
            start, end = max(iv.start, home.start), min(iv.end, home.end or iv.end)
            when = _day_phrase(rng, start, end) if end > start else None
            if when:
                add("chain_past", rng.choice(tx.Q_CHAIN_PAST).format(p=who, when=when), [[home.value]], who,
                    "reports_to.lives_in@", evidence=(iv.ref, home.ref))
                return


def build_questions(data: TemporalData, *, limit: int | None = None) -> list[Question]:
    """Every answerable question (or ``limit`` of them, spread evenly over the kinds), in a seeded order."""
    world = replay(data.turns)
    by_kind: dict[str, list[Question]] = defaultdict(list)
    for group in data.groups:
        rng = random.Random(f"tkg-temporal-q:{data.seed}:{group}")
        for kind, qs in _group_questions(group, world.get(group, {}), rng).items():
            by_kind[kind].extend(qs)
    rng = random.Random(f"tkg-temporal-pick:{data.seed}")
    for qs in by_kind.values():
        rng.shuffle(qs)
    picked: list[Question] = []
    kinds = [k for k in KINDS if by_kind.get(k)]
    depth = 0
    while kinds and (limit is None or len(picked) < limit):
        kinds = [k for k in kinds if depth < len(by_kind[k])]
        for k in kinds:
            if limit is not None and len(picked) >= limit:
                break
            picked.append(by_kind[k][depth])
        depth += 1
    return picked
