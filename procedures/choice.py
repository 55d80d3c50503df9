"""Choosing among the reader's candidate values: the best supported, the latest well-supported for
"now", the one said by a window's end for "as of", the first said after an event for "after X",
or every well-supported value for a list. The candidates come from `procedures.reader`; the
trace names how the choice was made and which turns dated it (`procedures.lead` shows them first).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from planners.asked import Asked
from tkg.words import countries_of, is_common_word, is_country, near, town_size

from .gather import merge_variants
from .reader import FAR_FUTURE, NAMED_KINDS, SUPPORT, THING_SUPPORT, WINDOW_SUPPORT, Candidate, norm
from .slots import FAR_PAST
from .span_words import SPAN_MEMBERS
from .synthesis import format_day

TOWN = 100_000  # the people a town has at least, said with a home to say where that is
REPEATS = 3  # the most further sayings that add to a value's support
DENIAL_OWNER = 0.5  # a denial counts when its clause is about the subject at least this surely
ALL_LEFT = "every well-supported value was left since"  # "now", and the subject left every value said


def choose(asked: Asked, cands: list[Candidate], *, latest: bool, window: tuple[datetime, datetime] | None,
           members: bool = False) -> tuple[list[Candidate], dict[str, Any]]:
    """The answering candidates: the best, the latest well-supported, the one valid in the window,
    or every well-supported value for a list (with ``members``, every value tied to the asked
    category that reaches the support, however far below the best)."""
    groups: dict[str, list[Candidate]] = {}
    for c in cands:
        groups.setdefault(norm(c.value), []).append(c)
    _merge_nested(groups)
    if asked.many:  # a list names each value once, however it was spelled
        merge_variants(groups)
    # each further turn that says a value backs it a little, a few at most: a name said in every
    # letter's greeting ("Alasdair,") is said often, not said to be the answer
    support = {k: max(c.score for c in cs) + 0.15 * min(len(cs) - 1, REPEATS) for k, cs in groups.items()}
    # a thing needs more support than a name, unless its category's own members type it ("vegan", "cello")
    need = THING_SUPPORT if asked.kind == "thing" and not asked.many and asked.head not in SPAN_MEMBERS \
        else SUPPORT
    strong = {k: s for k, s in support.items() if s >= need}
    trace: dict[str, Any] = {"values": {groups[k][0].value: round(s, 3) for k, s in
                                        sorted(support.items(), key=lambda kv: -kv[1])[:8]}}
    if not strong:
        return [], {**trace, "chosen_by": "nothing reached the support needed", "support_needed": need}
    best = max(strong.values())
    # "now" and "as of" weigh every well-supported value by when it was said; the best and a
    # list keep only values near the best
    # (sorted, so that ties break the same way in every process: never by a set's hash order)
    keep = sorted(strong) if (latest or window is not None) and not asked.many else sorted(
        k for k, s in strong.items() if s >= 0.5 * best)

    def top(k: str, until: datetime | None = None) -> Candidate:  # its statement by then, if one is dated
        said = [c for c in groups[k] if until is None or c.when is None or c.when <= until]
        return max(said or groups[k], key=lambda c: c.score)

    def statements(k: str, until: datetime | None = None) -> list[Candidate]:  # well supported, newest first
        return sorted((c for c in groups[k] if c.when and c.score >= SUPPORT * 0.8
                       and (until is None or c.when <= until)),
                      key=lambda c: c.when or FAR_PAST, reverse=True)

    def last_said(k: str, until: datetime | None = None) -> datetime:
        return next((c.when for c in statements(k, until) if c.when), FAR_PAST)

    def said_then(k: str) -> float:  # how well its latest saying says it (statements come newest first)
        said = statements(k)
        return max((c.score for c in said if c.when == said[0].when), default=0.0)

    def dated(said: list[Candidate]) -> list[str]:  # the turns that date a choice by time, for the evidence
        return list(dict.fromkeys(c.evidence.source_ref for c in said if c.evidence.source_ref))

    if asked.many:  # every edge of the kind, and the turns' values near the best of them
        said = [s for k, s in strong.items() if all(c.source != "graph" for c in groups[k])]
        keep = sorted(k for k, s in strong.items() if any(c.source == "graph" for c in groups[k])
                      or members or s >= 0.4 * max(said, default=0.0))
        chosen = sorted((top(k) for k in keep), key=lambda c: (c.when or FAR_PAST, norm(c.value)))
        if asked.within:  # "which places in Ireland": none elsewhere
            chosen = [c for c in chosen if inside(c.value, asked.within)]
        return chosen, {**trace, "chosen_by": "every well-supported value"}
    if window is not None and window[1] >= FAR_FUTURE:  # "after X": the first value said after it
        after = [
            c for k in keep for c in groups[k] if c.when and c.when >= window[0] and c.score >= SUPPORT * 0.8
        ]
        if after:
            first = min(after, key=lambda c: (c.when or FAR_PAST, -c.score, norm(c.value)))
            return [top(norm(first.value))], {
                **trace,
                "chosen_by": f"the first said after {format_day(window[0])}",
                "dated_by": dated([first]),
            }
    elif window is not None:
        start, end = window
        before = [k for k in keep if any(c.when and c.when <= end for c in groups[k])]
        if not before:  # the slot is held (a value was said later)
            # a value left later ("last ever shift at the warehouse" in July) was held then, up to when it
            # was left: the first one left after the window; else the best one said by then, if fair
            left = [c for k in keep for c in groups[k] if c.left and c.when and c.when > end]
            if left:
                first = min(left, key=lambda c: (c.when or FAR_PAST, -c.score, norm(c.value)))
                return [first], {**trace, "chosen_by": f"the first left after {format_day(end)}",
                                 "dated_by": dated([first])}
            fair = [k for k, s in support.items() if s >= WINDOW_SUPPORT and asked.kind in NAMED_KINDS
                    and any(c.when and c.when <= end and c.score >= WINDOW_SUPPORT for c in groups[k])]
            trace["chosen_by"] = f"the best fairly supported value said by {format_day(end)}" if fair else \
                f"nothing well supported was said by {format_day(end)}"
            return ([top(max(fair, key=lambda k: (support[k], k)), end)] if fair else []), trace
        # values said the same day (one conversation) are said together: the better supported answers
        k = max(before, key=lambda k: (last_said(k, end).date(), strong[k], k))
        return [top(k, end)], {**trace, "chosen_by": f"the latest said by {format_day(end)}",
                          "dated_by": dated(statements(k, end))}
    if latest:
        # a value its subject denied ("no, I have not moved to Oslo") or left ("handed the keys of Rose
        # Cottage to the young couple") is not the current one unless it is said again on a later day
        denied = left_on(groups)
        held = [k for k in keep if k not in denied or last_said(k).date() > denied[k].date()]
        if not held and all(any(c.left for c in groups[k]) for k in keep):
            return [], {**trace, "chosen_by": ALL_LEFT, "left": sorted(keep)}
        keep = held or keep
        # two values last said in the same turn: the one that turn says better ("the Hilux was too much
        # truck, so I traded it in for a Jimny"), not the one said more often before it
        k = max(keep, key=lambda k: (last_said(k), said_then(k), strong[k], k))
        return [top(k)], {**trace, "chosen_by": "the latest well-supported value",
                          "dated_by": dated(statements(k))}
    if 1 < asked.nth <= len(keep):  # "her second puppy": the second value told, in the order first told
        told = sorted(keep, key=lambda k: (min(c.when or FAR_PAST for c in groups[k]), k))
        return [top(told[asked.nth - 1])], {**trace, "chosen_by": f"value {asked.nth} in the order told"}
    k = max(keep, key=lambda k: (strong[k], last_said(k), k))
    return [top(k)], {**trace, "chosen_by": "the best-supported value"}


def phrase(asked: Asked, chosen: list[Candidate]) -> str:
    """The answer text: one value, or a list joined with commas and "and"."""
    values = list(dict.fromkeys(c.value for c in chosen))
    if asked.count:
        return values[0]
    if len(values) == 1:
        return values[0]
    return ", ".join(values[:-1]) + " and " + values[-1]


def left_on(groups: dict[str, list[Candidate]]) -> dict[str, datetime]:
    """The values (keys of ``groups``) their subject denied or left, each with the last time they did."""
    left: dict[str, datetime] = {}
    for k, cs in groups.items():
        for c in cs:
            if (c.denied or c.left) and c.when and c.owner >= DENIAL_OWNER:
                left[k] = max(left.get(k, c.when), c.when)
    return left


def _merge_nested(groups: dict[str, list[Candidate]]) -> None:
    """A value said inside a longer one in the same turn joins it: "manager" in "engineering
    manager", "Raman" in "Priya Raman" (the longer says more)."""
    keys = sorted(groups, key=lambda k: -len(k.split()))
    for short in sorted(groups, key=lambda k: len(k.split())):
        for long in keys:
            if long == short or len(long.split()) <= len(short.split()) or short not in groups \
                    or long not in groups:
                continue
            if f" {short} " in f" {long} " and {c.evidence.episode for c in groups[short]} & {
                    c.evidence.episode for c in groups[long]}:
                groups[long].extend(groups.pop(short))
                break


def with_town(home: Candidate, cands: list[Candidate]) -> str:
    """A home that is no large town ("a place in St Thomas", "a flat in Pankow"), said in the same
    turn as a large town that another turn gives as their home ("Exeter is wet and lovely"; "I start
    in Exeter"), and near it where GeoNames knows the home: the home and the town, as an address gives
    them ("St Thomas, Exeter"); any other home as it is."""
    size = town_size(home.value)
    if size >= TOWN:
        return home.value
    said = {norm(c.value) for c in cands if c.evidence.source_ref == home.evidence.source_ref}
    # a town said as a home of theirs somewhere, not only in passing ("my sister's up from London")
    towns = [c for c in cands if norm(c.value) in said and c.score >= SUPPORT
             and town_size(c.value) >= max(TOWN, 5 * size) and near(home.value, c.value) is not False]
    town = max(towns, key=lambda c: (c.score, c.value), default=None)
    return f"{home.value}, {town.value}" if town is not None else home.value


# the heads of a question that asks for the town itself ("which city does she live in")
_TOWN_HEADS = frozenset("city town country state county region".split())


def address(asked: Asked, home: Candidate, cands: list[Candidate],
            window: tuple[datetime, datetime] | None) -> str:
    """A home as an address gives it: a small place with its town (`with_town`), and, unless the
    town itself is asked for, a large town with the place in it that was said by then (`with_area`)."""
    until = window[1] if window is not None and window[1] < FAR_FUTURE else None
    said = with_town(home, cands)
    if asked.head in _TOWN_HEADS - {"country"}:  # (or the town the home is said with: "Sagene, Oslo")
        town = town_of(home, cands, until)
        return town if town != home.value else said
    return said if said != home.value or asked.head in _TOWN_HEADS else with_area(home, cands, until)


def town_of(home: Candidate, cands: list[Candidate], until: datetime | None) -> str:
    """For "which city": a home that is a part of a town said as a home by then ("our flat in Pankow.
    Still Berlin"), the town; any other home as it is."""
    size = town_size(home.value)
    towns = [c for c in _homes(cands, until) if town_size(c.value) >= max(TOWN, 5 * size)
             and not is_country(c.value) and _part_of(home, c, False)]
    town = _latest(towns)
    return town.value if town is not None else home.value


def with_area(home: Candidate, cands: list[Candidate], until: datetime | None) -> str:
    """A home given as a large town or a country ("Berlin is home now"), where a smaller place in
    it was said as a home too, since any other large town was ("our flat in Pankow"): the smaller
    place and the town, as an address gives them ("Pankow, Berlin"); the latest one said by
    ``until`` (by now when None). Any other home as it is."""
    size, country = town_size(home.value), is_country(home.value)
    if size < TOWN and not country:
        return home.value
    big = norm(home.value)
    homes = _homes(cands, until)
    # the last time another large town was said as a home: a place said before it was in that town
    since = max((c.when or FAR_PAST for c in homes if norm(c.value) != big
                 and (town_size(c.value) >= TOWN or is_country(c.value))), default=FAR_PAST)
    areas = [c for c in homes if (c.when or FAR_PAST) >= since and norm(c.value) != big
             and not is_country(c.value) and (country or town_size(c.value) * 5 < size)
             and not is_common_word(c.value) and _part_of(c, home, country)]
    area = _latest(areas)
    return f"{area.value}, {home.value}" if area is not None else home.value


def _homes(cands: list[Candidate], until: datetime | None) -> list[Candidate]:
    """The well-supported homes said by ``until`` (by now when None), not left or denied there."""
    return [c for c in cands if c.score >= SUPPORT and c.when is not None and not (c.left or c.denied)
            and (until is None or c.when <= until)]


def _latest(cands: list[Candidate]) -> Candidate | None:
    """The one said last; said the same day, the better said ("our flat in Pankow", not "my gym is out
    in Spandau")."""
    return max(cands, key=lambda c: ((c.when or FAR_PAST).date(), c.score, c.value), default=None)


def _part_of(area: Candidate, home: Candidate, country: bool) -> bool:
    """A place of a town is near it (`near`: "Pankow" of Berlin, not an Irish "Dublin" for London), of a
    country in it; one GeoNames does not know is said in a turn naming the home ("a flat in Kreuzkiez,
    Berlin")."""
    known = countries_of(area.value)
    if country and known:
        return bool(known & countries_of(home.value))
    close = None if country else near(area.value, home.value)
    if close is not None:
        return close
    return not known and f" {norm(home.value)} " in f" {norm(area.evidence.text)} "


def inside(place: str, region: str) -> bool:
    """Whether ``place`` may be one of the places inside ``region``: not the region itself, nor
    another country; inside a country, no town GeoNames has only elsewhere; inside a town, no other
    large town. A name GeoNames does not know ("Salthill") may be anywhere.

    >>> [inside(p, "Ireland") for p in ("Galway", "Salthill", "Rzeszów", "Poland", "Ireland")]
    [True, True, False, False, False]
    >>> [inside(p, "Perth") for p in ("Fremantle", "Scarborough", "Melbourne", "Australia")]
    [True, True, False, False]
    """
    if norm(place) == norm(region):
        return False
    where, country = countries_of(place), countries_of(region)
    if is_country(place) or where and is_country(region) and not where & country:
        return False
    return is_country(region) or town_size(place) < TOWN
