"""Spans of an asked kind in one parsed sentence: places, organisations, people, roles, numbers…

The reader (`procedures/reader.py`) asks each evidence sentence for values of the kind the
question wants (`planners.asked`), and gets back spans with how sure the typing is: a named
entity of the right label or a gazetteer place is sure, a capitalised word near the question's
head noun less so. Nothing here decides which span answers; it only says what each span *is*.

Example::

    >>> from tkg.nlp import parse
    >>> [c.text for c in spans_of(parse("We finally moved to Porto last May.")[:], "place", "")]
    ['Porto']
"""

from __future__ import annotations

from typing import Any

from planners.head_words import ANIMALS, kind_of_noun
from tkg.vehicle_words import MOTOR_NAMES
from tkg.words import is_common_word, is_name_place, is_place_name

from .span_base import (
    Span,
    after_locative,
    chat_words,
    clausal,
    clean,
    describing_word,
    entity_spans,
    foreign_sentence,
    foreign_words,
    nameless,
    plausible,
    pronominal,
    proper_runs,
    says,
    small_word,
    titled,
)
from .span_context import (
    apposed_people,
    articled,
    dwelling_places,
    given_names,
    joined_names,
    named_in_context,
    one_who_speaks,
    unknown_town,
)
from .span_numbers import numbers
from .span_patterns import members_said, statuses
from .span_pets import (
    NAMED_PRONOUNS,
    calls_an_animal,
    given_to_a_pet,
    name_fragment,
    names_given,
    of_a_person,
    of_a_pet,
    owner_or_place,
    small_name_after,
)
from .span_places import on_street, places
from .span_roles import chunks_with, roles
from .span_words import (
    CHAT_WORDS,
    DET,
    FAVOURITE,
    NER_KINDS,
    NO_ORG,
    NOT_PEOPLE,
    OPEN_MEMBERS,
    SPAN_MEMBERS,
    TITLES,
    WHEN_LABELS,
    pet_words,
)
from .span_workplaces import (
    a_car,
    former_workplaces,
    institutions,
    joined_by_n,
    misread_workplace,
    named_workplaces,
    town_named,
    work_names,
    workplaces,
)
from .swaps import given_up, replaced

# the tagger's kinds of name a name said with its category noun may be given ("my dog Biscuit")
_NAMED_AS = ("PERSON", "ORG", "GPE", "PRODUCT", "WORK_OF_ART", "NORP")


def _named_near(sent: Any, heads: frozenset[str] | set[str]) -> list[Span]:
    """Names in a sentence that says one of ``heads``: "my dog Biscuit", "meet Churro, our kitten";
    without one, only a name given by "her name is …" or "named it …" (the thing was named before)."""
    if not says(sent, heads):
        given = names_given(sent, [])
        # "…a litter of heading dogs. He's called Skip": named right after a sentence that says one
        before = sent.start > 0 and says(sent.doc[sent.start - 1].sent, heads)
        return [s for s in given if s.start > sent.start  # "her name is pip", "she named it pickle"
                and (sent.doc[s.start - 1].lemma_ == "be" or sent.doc[s.start - 1].lower_ in NAMED_PRONOUNS
                     # ("a gecko!!! his name's toast": the tagger's possessive, after a sentence on the pet)
                     or before and sent.doc[s.start - 1].lower_ in _NAMED_BY | {"'s", "\u2019s"})
                and not of_a_person(sent.doc, s.start, heads) and not of_a_pet(sent.doc, s.start, heads)] \
            + name_fragment(sent, heads) + _named_before(sent, heads)
    names = [s for s in entity_spans(sent, _NAMED_AS, "name", 0.7)  # not "a kitten, grey, very small"
             if s.end - s.start > 1 or not small_word(sent.doc[s.start])]
    taken = {i for s in names for i in range(s.start, s.end)}
    for t in sent:  # "Biscuit (the old spaniel) is nine": the category in apposition names it, even first
        if t.i not in taken and t.text[:1].isupper() and t.is_alpha and any(
                c.dep_ == "appos" and says((c,), heads) for c in t.children):
            names.append(Span(t.text, "name", 0.8, t.i, t.i + 1))
            taken.add(t.i)
    for s in proper_runs(sent):
        if not any(i in taken for i in range(s.start, s.end)):
            names.append(Span(s.text, "name", 0.6, s.start, s.end))
    names += small_name_after(sent, taken)  # "dev's dog rollo"
    # "a bakery on Mill Lane": where it is, not its name; "staffy brain": what it is, not its name
    names = [s for s in names if not on_street(sent, s) and not calls_an_animal(s, sent.doc)]
    return names + names_given(sent, names)


_NAMED_BY = frozenset({"called", "named"})


def _named_before(sent: Any, heads: frozenset[str] | set[str]) -> list[Span]:
    """A name that is its sentence's subject right before a sentence that says one of ``heads`` with a
    possessive ("Tupsu is feeling every one of his years. … and my old whippet sleeps all day"): the
    animal the next sentence goes on about."""
    after = sent.doc[sent.end].sent if sent.end < len(sent.doc) else None
    if after is None or not any(t.lower_ in heads and any(c.dep_ == "poss" for c in t.children)
                                for t in after):
        return []
    return [Span(r.text, "name", 0.5, r.start, r.end) for r in proper_runs(sent)
            if sent.doc[r.end - 1].dep_ == "nsubj" and not of_a_person(sent.doc, r.start, heads)
            and not (r.start and sent.doc[r.start - 1].lower_ in _SALUTES)]  # ("Dear Emil,")


def _linked(chunk: Any) -> Any | None:
    """What a copula says a noun phrase is: "my fave food *is ur mushroom bao*" / "*X* is my band" /
    "the band is called *the damp towels*"."""
    root = chunk.root
    verb = root.head
    if verb.lemma_.lower() in ("call", "name") and root.dep_ == "nsubjpass":
        return next((c for c in verb.children if c.dep_ in ("oprd", "attr", "dobj")), None)
    if verb.lemma_ != "be" or root.dep_ not in ("nsubj", "attr"):
        return None
    want = "attr" if root.dep_ == "nsubj" else "nsubj"
    return next((c for c in verb.children if c.dep_ == want and c is not root), None)


def _named_after(sent: Any, heads: set[str], kind: str = "thing") -> list[Span]:
    """A name said as a sentence of its own right after one that says the category ("I've joined a
    band! Mild Peril."): that member's name, as sure as one the category's own phrase gives; not one
    the sentence before gives up.

    >>> from tkg.nlp import parse
    >>> told = list(parse("I've joined a band! Mild Peril. Punk-ish.").sents)
    >>> [s.text for s in _named_after(told[1], {"band"})], _named_after(told[1], {"choir"})
    (['Mild Peril'], [])
    """
    words = [t for t in sent if not t.is_punct]
    if sent.start == 0 or not 1 <= len(words) <= 4 or any(t.pos_ in ("VERB", "AUX") for t in words) \
            or not all(t.text[:1].isupper() and t.is_alpha for t in words):
        return []
    if chat_words(words) or len(words) == 1 and is_common_word(words[0].text):
        return []  # "Congrats!", "Bye.": a word, not a name
    before = sent.doc[sent.start - 1].sent
    said = next((t for t in before if t.lower_ in heads and t.pos_ == "NOUN"), None)  # the category noun
    if said is None or given_up(before, said) or replaced(said):  # "somebody nicked my bike. The Raleigh."
        return []
    return [Span(" ".join(t.text for t in words), kind, 0.8, words[0].i, words[-1].i + 1, cued=True)]


def _things(sent: Any, head: str) -> list[Span]:
    """Values of a category noun: "a green cannondale gravel *bike*",
    "my favourite *band*, Paper Lanterns"."""
    out = []
    heads = {head, head + "s"} if head else set()
    for chunk, hit in chunks_with(sent, heads):
        other = _linked(chunk)
        if other is not None:  # the linked phrase, else its head and what precedes it ("ur mushroom bao")
            cleaned = clean(list(other.subtree))
            if cleaned and len(cleaned[0].split()) > 5:
                cleaned = clean([t for t in other.subtree if t.i <= other.i])
            if cleaned and len(cleaned[0].split()) <= 5:
                out.append(Span(cleaned[0], "thing", 0.8, cleaned[1], cleaned[2]))
        toks = [t for t in chunk if t.i < hit.i and t.lower_ not in DET and t.tag_ not in ("PRP$", "POS")
                and t.lower_ not in FAVOURITE]
        if toks:
            cleaned = clean(toks + [hit])
            if cleaned:
                out.append(Span(cleaned[0], "thing", 0.6, cleaned[1], cleaned[2]))
    if heads:
        # "the MA module Language and Migration": the name after the noun, not "MA module" or "MA"
        named = joined_names(sent, _named_near(sent, heads), head)
        named_at = {n.start - 1 for n in named if n.start > sent.start
                    and sent.doc[n.start - 1].lower_ in heads}
        out = [s for s in out if s.end - 1 not in named_at]
        out += [Span(s.text, "thing", 0.7, s.start, s.end) for s in named if s.end not in named_at]
        out += _named_after(sent, heads)
        taken = {s.start for s in out}
        out += [s for s in named_in_context(sent, head, "thing") if s.start not in taken]
    return out + members_said(sent, head)


def _ordinary(t: Any) -> bool:
    """An ordinary English word in any of its forms: "books" and "kids" are plurals of words English
    has (WordNet lists base forms only), so a lower-case one is no one's name."""
    return is_common_word(t.text) or t.lemma_.lower() != t.lower_ and is_common_word(t.lemma_)


_NAME_KINDS = frozenset({"person", "pet_name", "organisation"})
_WORD_KINDS = _NAME_KINDS | {"place", "thing", "role"}  # kinds whose spans are words, not numbers


_SALUTES = frozenset("morning evening afternoon night hi hey hello dear thanks cheers congrats".split())


def _without_opener(sent: Any, span: Span) -> Span | None:
    """A name the tagger ran a sentence's opener into, without it: "Morning Omar" is Omar; "Renting's
    fine" names no one (a greeting or a common "-ing" word is no part of a name)."""
    start = span.start
    while start < span.end and (sent.doc[start].lower_ in _SALUTES or sent.doc[start].lower_.endswith("ing")
                                and is_common_word(sent.doc[start].lower_)):
        start += 1
    if start == span.start:
        return span
    rest = sent.doc[start:span.end]
    return Span(rest.text, span.kind, span.sure, start, span.end) if rest.text.strip(" '’s") else None


def _trimmed(sent: Any, span: Span) -> Span:
    """A name the tagger ran a texted "and" ("joss n i got a place"), an introducing "meet" ("Meet
    Banjo, my new dog!"), where someone came with them from, or a firm's town into, without it."""
    start, end = span.start, span.end
    while end - start > 1 and _tail_word(sent.doc[end - 1]):
        end -= 1  # ("first week at quillbyte lol", tagged one name: no "lol" in it)
    joined = next((t.i for t in sent.doc[start + 1: end - 1] if t.lower_ == "with"), None)
    if joined is not None and span.kind in _NAME_KINDS - {"organisation"}:
        start = joined + 1  # "the Thanet Lurcher Rescue with Biscuit", tagged one name: the one with
    if end - start > 1 and sent.doc[start].lower_ == "meet":
        start += 1
    while end - start > 1 and span.kind in _NAME_KINDS and sent.doc[start].is_lower \
            and sent.doc[end - 1].text[:1].isupper():
        start += 1  # "il s'appelle Poutine": a name's words have its capital, the words before it do not
    at = next((t.i for t in sent.doc[start + 1: end - 1] if t.lower_ == "in"), None)
    if at is not None and span.kind == "organisation" and is_place_name(sent.doc[at + 1: end].text):
        end = at  # "started at Dell in Round Rock", tagged one name: the firm, without where it is
    if (start, end) == (span.start, span.end):
        return span
    return Span(sent.doc[start:end].text, span.kind, span.sure, start, end)


def _tail_word(t: Any) -> bool:
    """A word a tagger runs into a name's end: a texted "and" ("joss n"), a chat word ("quillbyte lol")."""
    return t.text in ("n", "&", "N") or t.lower_ in CHAT_WORDS


def _kin_before(t: Any) -> bool:
    """A kin or other person word right before the small-letter word, compounded with it: "my sister
    funmi", "our neighbour dave": the word is that person's name.

    >>> from tkg.nlp import parse
    >>> _kin_before(parse("my sister funmi just landed in london")[2])
    True
    """
    return any(c.dep_ == "compound" and c.i == t.i - 1 and kind_of_noun(c.lower_) == "person"
               for c in t.children)


def spans_of(sent: Any, kind: str, head: str) -> list[Span]:
    """Every span of ``kind`` (a `planners.asked` kind) in the parsed sentence ``sent``; a span of
    pronouns and question words only ("it", "you") names nothing, nor does a thing with no noun.
    Kept with the parsed doc (``user_data``): tkg/nlp.py parses a text once per process, the reader
    reads the same turns question after question, and spans depend on nothing else."""
    key = ("tkg.spans", sent.start, sent.end, kind, head)
    kept = sent.doc.user_data.get(key)
    if kept is None:
        kept = tuple(
            s
            for s in (_trimmed(sent, x) for x in _spans_of(sent, kind, head))
            if (plausible(s) or s.text.lower() in SPAN_MEMBERS.get(head, ()))  # "ITU": a member, not shouted
            and not pronominal(sent.doc[s.start : s.end])
            and not (kind in _NAME_KINDS and chat_words(sent.doc[s.start : s.end]))
            and not (kind in _NAME_KINDS and s.text.islower() and len(s.text) <= 2)  # "un chien": no name
            and not (kind in _WORD_KINDS and foreign_words(sent.doc[s.start : s.end],
                                                           abroad=foreign_sentence(sent)))  # "ok lang ako"
            and not (kind in _NAME_KINDS | {"place"} and clausal(sent.doc[s.start : s.end])
                     and not (s.end - s.start == 1 and is_name_place(s.text)))  # "leeds" tagged a verb
            and not (kind in ("place", "organisation") and kind_of_noun(s.text) == "person")  # "Mam", "Dad"
            and not (kind in ("person", "organisation")  # "on Hope Road": a street
                     and on_street(sent, s, along=kind == "organisation"))
            and not (kind == "organisation" and a_car(sent.doc[s.start : s.end]))  # "got the volvo"
            and not (kind == "thing" and nameless(sent.doc[s.start : s.end])
                     and s.text.lower() not in OPEN_MEMBERS.get(head, SPAN_MEMBERS.get(head, ())))  # weaving
        )
        sent.doc.user_data[key] = kept
    return list(kept)


def _spans_of(sent: Any, kind: str, head: str) -> list[Span]:
    if kind == "place":
        found = places(sent)
        return found + dwelling_places(sent, {i for p in found for i in range(p.start, p.end)})
    if kind == "organisation":
        orgs = [s for s in entity_spans(sent, NER_KINDS["organisation"], "organisation", 0.9)
                if not describing_word(s, sent.doc)]  # "Welsh cakes"
        taken = {i for s in orgs for i in range(s.start, s.end)}
        placed = {s.start for s in places(sent)}
        runs = proper_runs(sent)
        extra = [Span(s.text, "organisation", 0.7 if town else 0.5, s.start, s.end)
                 for s in runs for town in [town_named(s)]
                 if not any(i in taken for i in range(s.start, s.end)) and (town or (
                     s.start not in placed
                     and not any(t.ent_type_ == "PERSON" for t in sent.doc[s.start : s.end])))
                 and not (s.end - s.start == 1 and sent.doc[s.start].ent_type_ in NO_ORG)
                 and not all(t.ent_type_ in WHEN_LABELS for t in sent.doc[s.start : s.end])]
        taken |= {i for s in extra for i in range(s.start, s.end)}
        extra += [Span(s.text, "organisation", 0.5, s.start, s.end) for s in runs
                  if not taken & set(range(s.start, s.end)) and misread_workplace(sent, s)]
        taken |= {i for s in extra for i in range(s.start, s.end)}
        former = [s for s in former_workplaces(sent) if not taken & set(range(s.start, s.end))]
        taken |= {i for s in former for i in range(s.start, s.end)}
        named = institutions(sent, taken)  # "the Mater hospital": over a shorter guess inside it
        # "I joined a choir! Loud Harmony.": the name after its category
        named += _named_after(sent, {head, head + "s"}, "organisation") if head else []
        inside = {i for s in named for i in range(s.start, s.end)}
        kept = [s for s in extra + former if not inside >= set(range(s.start, s.end))]
        taken |= inside
        teams = named_in_context(sent, head, "organisation")  # "Atleti won": a team's name, however tagged
        known = {s.start for s in teams}
        named += named_workplaces(sent, taken | inside)  # "my team at Brenner": tagged a person
        named += work_names(sent, taken | inside | {i for s in named for i in range(s.start, s.end)}, head)
        return joined_by_n(sent, teams + [s for s in orgs + kept + named if s.start not in known]
                           + workplaces(sent, taken))
    if kind == "person":
        people = [q for p in entity_spans(sent, NER_KINDS["person"], "person", 0.9)
                  if (q := _without_opener(sent, p)) is not None]
        taken = {i for s in people for i in range(s.start, s.end)}
        extra = [Span(s.text, "person", 0.8 if title else 0.5, s.start, s.end) for s in proper_runs(sent)
                 # "a Dr Haddad", "Tobias said…": a person, whatever the tagger's label
                 for title in [sent.doc[s.start].lower_.rstrip(".") in TITLES]
                 for speaks in [title or one_who_speaks(sent.doc[s.start : s.end])]
                 if not any(i in taken for i in range(s.start, s.end)) and len(s.text.split()) <= 2
                 and not all(is_common_word(w) for w in s.text.split())
                 and not any(t.ent_type_ in NOT_PEOPLE and not unknown_town(s, t) and not speaks
                             for t in sent.doc[s.start : s.end])]
        taken |= {i for p in extra for i in range(p.start, p.end)}
        lower = [titled(sent, t) for t in sent
                 if t.i not in taken and t.is_lower and t.is_alpha and len(t.text) > 2 and not t.is_stop
                 and t.pos_ in ("PROPN", "NOUN", "ADJ", "X") and not _ordinary(t) and t.lower_ not in TITLES
                 and kind_of_noun(t.lower_) != "person"  # "tell ur bro congrats": a kin word, no name
                 and not articled(t)  # "on at the odeon", "the wonka film": no one's name
                 # "my sister's boulangerie": hers, no one; "my sister funmi" names her
                 and not (any(c.dep_ == "poss" for c in t.children) and not _kin_before(t))]
        # "it was the Stilton that did it": a name after "the" is a thing's, no one's
        things = {p.start for p in people + extra if p.start > sent.start
                  and sent.doc[p.start - 1].lower_ == "the"}
        named = [p for p in people if not (is_place_name(p.text) and after_locative(sent, p.start))
                 and not on_street(sent, p) and p.start not in things]
        extra = [p for p in extra if p.start not in things]
        given = given_names(sent, {i for p in named + extra for i in range(p.start, p.end)})
        given = [g for g in given if g.start not in {p.start for p in named + extra}]
        lower = [p for p in lower if p.start not in {g.start for g in given}]
        found = named + [p for p in extra + lower if not is_place_name(p.text)] + given
        return apposed_people(sent, found, head) if head else found
    if kind == "role":  # "a dog called pilot": a name, not a job
        return [r for r in roles(sent) if not (r.start > 0 and sent.doc[r.start - 1].lower_ in _NAMED_BY)]
    if kind == "number":
        return numbers(sent, head)
    if kind == "date":
        return entity_spans(sent, NER_KINDS["date"], "date", 0.9)
    if kind == "status":
        return statuses(sent)
    if kind == "pet_name":  # no animal word, town, car ("his Volvo smells of cat") or kin ("warn nan's cat")
        names = (s for s in _named_near(sent, pet_words(head) | {head}) if kind_of_noun(s.text) != "person")
        return [Span(s.text, "pet_name", s.sure, s.start, s.end) for s in names
                if s.text.lower() not in ANIMALS | MOTOR_NAMES
                and (not is_place_name(s.text) or given_to_a_pet(s, sent.doc))  # ("a collie called Bran")
                and not owner_or_place(s, sent.doc)]  # not "Gerry's collie", "pups at Carrowkeel"
    if kind == "animal":
        return [Span(t.text.lower(), "animal", 0.9, t.i, t.i + 1) for t in sent if t.lower_ in ANIMALS]
    return _things(sent, head)
