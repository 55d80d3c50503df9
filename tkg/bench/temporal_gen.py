"""A seeded generator of multi-session conversations whose facts change, with an answer key.

Each group is a few colleagues chatting over a year or so, session after session. Between
chit-chat they move (lives_in), change jobs and titles, get new managers in re-organisations
(reports_to), adopt and lose pets, date, get engaged and married, change favourites, plan and
postpone trips, buy and sell things, correct themselves ("actually, it's Ghent, not Bruges") and
mention where they lived years ago (late-arriving facts). Every change is recorded with the turn
that said it, so the answer key (`temporal_questions`) is computed from what was actually said,
never from what was planned. The same ``(size, seed)`` always gives the same conversations.

Example::

    >>> data = generate(40, seed=7)
    >>> len(data.turns), data.turns[0].ref
    (40, 'S1:1')
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial

from ..models import EpisodeInput
from . import temporal_text as tx

SINGLE = ("lives_in", "works_at", "job_title", "reports_to", "favorite:food", "favorite:band", "partner")
MULTI = ("pets", "likes", "plans", "owns")


@dataclass(frozen=True)
class Change:
    """What one turn makes true: ``set`` a single slot, ``add``/``remove`` in a multi slot, or
    ``late`` (a past interval [start, end) learned after the fact)."""

    person: str
    slot: str
    value: str
    op: str
    start: datetime
    end: datetime | None = None
    corrects: str | None = None  # the value a correction replaces (never true)


@dataclass(frozen=True)
class Turn:
    group: str
    speaker: str
    listeners: tuple[str, ...]
    text: str
    at: datetime
    ref: str  # "S<session>:<turn>"
    session: int
    changes: tuple[Change, ...] = ()
    template: str = "filler"  # e.g. "MOVE/2", so failures can be traced to a sentence shape

    def episode(self) -> EpisodeInput:
        return EpisodeInput(group=self.group, speaker=self.speaker, text=self.text, timestamp=self.at,
                            source_ref=self.ref, source_description="tkg temporal benchmark",
                            listeners=self.listeners, session=f"session_{self.session}", position=self.ref)


@dataclass
class GroupWorld:
    """One group's people and what they have said so far (the generator's running state)."""

    name: str
    people: list[str]
    rng: random.Random
    state: dict[str, dict[str, str]] = field(default_factory=dict)
    sets: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    queue: dict[str, deque[Callable[[datetime], tuple[str, str, list[Change]]]]] = field(default_factory=dict)
    used_pets: set[str] = field(default_factory=set)
    late_done: set[str] = field(default_factory=set)
    homes: dict[str, set[str]] = field(default_factory=dict)  # every city a person has named as home
    turns_left: int = 0  # in the current session: a slip is only made when there is room to correct it
    said: set[tuple[str, str]] = field(default_factory=set)  # (person, kind) changed this session: once each
    pending_fix: dict[str, tuple[str, str, datetime]] = field(
        default_factory=dict
    )  # person -> (wrong, right, at)


@dataclass
class TemporalData:
    turns: list[Turn]
    groups: dict[str, list[str]]  # group -> people
    seed: int

    def episodes(self) -> list[EpisodeInput]:
        return [t.episode() for t in self.turns]


def _pick(rng: random.Random, templates: list[str], name: str) -> tuple[str, str]:
    i = rng.randrange(len(templates))
    return templates[i], f"{name}/{i}"


class _Speaker:
    """Turns one person's next fact into a sentence and the changes it makes."""

    def __init__(self, w: GroupWorld) -> None:
        self.w = w

    def _say(self, person: str, at: datetime, templates: list[str], shape: str, changes: list[Change],
             **values: str) -> tuple[str, str, list[Change]]:
        template, tid = _pick(self.w.rng, templates, shape)
        st, sets = self.w.state[person], self.w.sets[person]
        for c in changes:
            if c.slot == "lives_in":
                self.w.homes.setdefault(person, set()).add(c.value)
            if c.op == "set":
                st[c.slot] = c.value
            elif c.op == "add":
                sets[c.slot].add(c.value)
            elif c.op == "remove":
                sets[c.slot].discard(c.value)
        return template.format(**values), tid, changes

    def move(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        rng, here = self.w.rng, self.w.state[p].get("lives_in")
        city = rng.choice([c for c in tx.CITIES if c != here])
        if here and self.w.turns_left >= 3 and rng.random() < 0.2:  # a slip, corrected on the next own turn
            wrong = rng.choice([c for c in tx.CITIES if c not in (here, city)])
            self.w.pending_fix[p] = (wrong, city, at)
            return self._say(p, at, tx.MOVE, "MOVE", [Change(p, "lives_in", wrong, "set", at)], city=wrong)
        return self._say(p, at, tx.MOVE, "MOVE", [Change(p, "lives_in", city, "set", at)], city=city)

    def fix(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        wrong, right, said = self.w.pending_fix.pop(p)
        return self._say(p, at, tx.CORRECTION, "CORRECTION",
                         [Change(p, "lives_in", right, "set", said, corrects=wrong)], city=right, wrong=wrong)

    def late(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        self.w.late_done.add(p)
        year = self.w.rng.randint(2014, 2017)
        seen = self.w.homes.get(p, set())
        city = self.w.rng.choice([c for c in tx.CITIES if c not in seen])
        start, end = datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
        return self._say(p, at, tx.LATE_HOME, "LATE_HOME", [Change(p, "lives_in", city, "late", start, end)],
                         city=city, year=str(year))

    def job(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        company = self.w.rng.choice([c for c in tx.COMPANIES if c != self.w.state[p].get("works_at")])
        return self._say(p, at, tx.JOB, "JOB", [Change(p, "works_at", company, "set", at)], company=company)

    def title(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        title = self.w.rng.choice([t for t in tx.TITLE_LIST if t != self.w.state[p].get("job_title")])
        return self._say(p, at, tx.TITLE, "TITLE", [Change(p, "job_title", title, "set", at)], title=title)

    def manager(self, p: str, boss: str, at: datetime) -> tuple[str, str, list[Change]]:
        return self._say(p, at, tx.MANAGER, "MANAGER", [Change(p, "reports_to", boss, "set", at)], name=boss)

    def pet_get(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        free = [n for n in tx.PETS if n not in self.w.used_pets] or tx.PETS
        pet, species = self.w.rng.choice(free), self.w.rng.choice(tx.SPECIES)
        self.w.used_pets.add(pet)
        self.w.state[p][f"species:{pet}"] = species
        return self._say(
            p, at, tx.PET_GET, "PET_GET", [Change(p, "pets", pet, "add", at)], pet=pet, species=species
        )

    def pet_lost(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        pet = self.w.rng.choice(sorted(self.w.sets[p]["pets"]))
        species = self.w.state[p].get(f"species:{pet}", "dog")
        return self._say(
            p, at, tx.PET_LOST, "PET_LOST", [Change(p, "pets", pet, "remove", at)], pet=pet, species=species
        )

    def partner(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        rng, current = self.w.rng, self.w.state[p].get("partner", "")
        stage, _, name = current.partition(":")
        if not current:
            name = rng.choice(tx.PARTNERS)
            return self._say(
                p, at, tx.DATING, "DATING", [Change(p, "partner", f"dating:{name}", "set", at)], name=name
            )
        if stage == "dating" and rng.random() < 0.25:
            return self._say(p, at, tx.BREAKUP, "BREAKUP", [Change(p, "partner", "", "set", at)], name=name)
        nxt, templates, tname = (
            ("engaged", tx.ENGAGED, "ENGAGED") if stage == "dating" else ("married", tx.MARRIED, "MARRIED")
        )
        return self._say(
            p, at, templates, tname, [Change(p, "partner", f"{nxt}:{name}", "set", at)], name=name
        )

    def favorite(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        cat = self.w.rng.choice(sorted(tx.FAVORITES))
        value = self.w.rng.choice(
            [v for v in tx.FAVORITES[cat] if v != self.w.state[p].get(f"favorite:{cat}")]
        )
        return self._say(
            p, at, tx.FAVORITE, "FAVORITE",
            [Change(p, f"favorite:{cat}", value, "set", at)],
            cat=cat,
            value=value,
        )

    def likes(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        thing = self.w.rng.choice(tx.HOBBIES)
        return self._say(p, at, tx.LIKES, "LIKES", [Change(p, "likes", thing, "add", at)], thing=thing)

    def trip(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        plans = sorted(self.w.sets[p]["plans"])
        if plans and self.w.rng.random() < 0.6:
            place = self.w.rng.choice(plans)
            if self.w.rng.random() < 0.5:
                return self._say(p, at, tx.POSTPONE, "POSTPONE", [], place=place)
            return self._say(
                p, at, tx.CANCEL, "CANCEL", [Change(p, "plans", place, "remove", at)], place=place
            )
        place = self.w.rng.choice(tx.TRIPS)
        return self._say(p, at, tx.PLAN, "PLAN", [Change(p, "plans", place, "add", at)], place=place)

    def vehicle(self, p: str, at: datetime) -> tuple[str, str, list[Change]]:
        owned = sorted(self.w.sets[p]["owns"])
        if owned:
            v = self.w.rng.choice(owned)
            return self._say(p, at, tx.SELL, "SELL", [Change(p, "owns", v, "remove", at)], vehicle=v)
        v = self.w.rng.choice(tx.VEHICLES)
        return self._say(p, at, tx.BUY, "BUY", [Change(p, "owns", v, "add", at)], vehicle=v)


def _reorg(w: GroupWorld, say: _Speaker) -> None:
    """A new reporting chain: order[0] reports outside the group, the rest to someone above them."""
    order = w.people[:]
    w.rng.shuffle(order)
    bosses = {order[0]: w.rng.choice(tx.OUTSIDE_BOSSES)}
    for i, p in enumerate(order[1:], 1):
        bosses[p] = order[i - 1] if i < 3 else w.rng.choice(order[: i - 1] or order[:1])
    for p, boss in bosses.items():
        if w.state[p].get("reports_to") != boss:
            w.queue[p].append(partial(say.manager, p, boss))


def _next_fact(w: GroupWorld, say: _Speaker, p: str, at: datetime) -> tuple[str, str, list[Change]]:
    if p in w.pending_fix:
        return say.fix(p, at)
    if w.queue[p]:
        return w.queue[p].popleft()(at)
    rng, pets = w.rng, w.sets[p]["pets"]
    options: list[tuple[float, Callable[[str, datetime], tuple[str, str, list[Change]]]]] = [
        (3.0, say.move),
        (2.0, say.job),
        (1.0, say.title),
        (1.5 if len(pets) < 3 else 0.0, say.pet_get),
        (1.0 if pets else 0.0, say.pet_lost),
        (1.0 if not w.state[p].get("partner", "").startswith("married") else 0.0, say.partner),
        (1.5, say.favorite),
        (0.8, say.likes),
        (0.8, say.trip),
        (0.5, say.vehicle),
        (0.6 if p not in w.late_done else 0.0, say.late),
    ]
    if rng.random() < 0.06:
        _reorg(w, say)
        if w.queue[p]:
            return w.queue[p].popleft()(at)
    weights = [0.0 if (p, fn.__name__) in w.said else weight for weight, fn in options]
    if not any(weights):  # everything already changed this session: chit-chat instead
        return _filler(w, p, at)
    choice = rng.choices([o[1] for o in options], weights=weights)[0]
    w.said.add((p, choice.__name__))
    return choice(p, at)


def _filler(w: GroupWorld, p: str, at: datetime) -> tuple[str, str, list[Change]]:
    text, tid = _pick(w.rng, tx.FILLER, "FILLER")
    others = [x for x in w.people if x != p]
    return text.format(l=w.rng.choice(others) if others else p), tid, []


def _intro(w: GroupWorld, say: _Speaker) -> None:
    for p in w.people:
        steps: list[Callable[[datetime], tuple[str, str, list[Change]]]] = [
            partial(say.move, p), partial(say.job, p), partial(say.title, p), partial(say.favorite, p)]
        if w.rng.random() < 0.6:
            steps.append(partial(say.pet_get, p))
        if w.rng.random() < 0.5:
            steps.append(partial(say.partner, p))
        w.rng.shuffle(steps)
        w.queue[p].extend(steps)
    _reorg(w, say)


def generate_group(name: str, n_turns: int, seed: int, people: int = 4) -> tuple[list[Turn], list[str]]:
    """``n_turns`` turns of one group's conversations (deterministic in ``name`` and ``seed``)."""
    rng = random.Random(f"tkg-temporal:{seed}:{name}")
    w = GroupWorld(name, rng.sample(tx.PEOPLE, people), rng)
    for p in w.people:
        w.state[p], w.sets[p], w.queue[p] = {}, {s: set() for s in MULTI}, deque()
    say = _Speaker(w)
    _intro(w, say)
    at = datetime(2020, 1, 1, 18, tzinfo=UTC) + timedelta(days=rng.randint(0, 365))
    turns: list[Turn] = []
    session = 0
    while len(turns) < n_turns:
        session += 1
        pair = rng.sample(w.people, 2)
        w.said.clear()
        length = min(rng.randint(6, 14), n_turns - len(turns))
        for i in range(length):
            speaker, listener = pair[i % 2], pair[(i + 1) % 2]
            w.turns_left = length - i - 1
            when = at + timedelta(seconds=30 * i)
            if speaker in w.pending_fix or rng.random() < 0.45:
                text, tid, changes = _next_fact(w, say, speaker, when)
            else:
                text, tid = _pick(rng, tx.FILLER, "FILLER")
                text, changes = text.format(l=listener), []
            turns.append(
                Turn(
                    name,
                    speaker,
                    (listener,),
                    text,
                    when,
                    f"S{session}:{i + 1}",
                    session,
                    tuple(changes),
                    tid,
                )
            )
        at += timedelta(days=rng.randint(4, 30))
    return turns, w.people


def generate(size: int, seed: int = 0, *, per_group: int = 200, people: int = 4) -> TemporalData:
    """``size`` turns in total over ``ceil(size / per_group)`` groups named ``temporal-<seed>-<i>``."""
    if size < 1:
        raise ValueError("size must be at least 1")
    n_groups = -(-size // per_group)
    turns: list[Turn] = []
    groups: dict[str, list[str]] = {}
    for g in range(n_groups):
        name = f"temporal-{seed}-{g:05d}"
        count = size // n_groups + (1 if g < size % n_groups else 0)
        group_turns, groups[name] = generate_group(name, count, seed, people)
        turns.extend(group_turns)
    return TemporalData(turns, groups, seed)
