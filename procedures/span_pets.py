"""Names given to pets and things, and whose they are: a name a naming word gives ("named biscuit",
"his name's toast"), a pet's name said alone after the pet ("we got a dog. pepper."), a name given after
a person was brought in ("met someone at the gym. his name is Theo") or after a pet where another kind of
thing is asked ("found a stray pup and I called him Cawl"), and a name that only says what animal it is
("staffy brain."), and a name in small letters after the animal that is someone's ("dev's dog rollo").
`procedures/spans.py` reads names with these.
"""

from __future__ import annotations

from typing import Any

from planners.head_words import kind_of_noun
from tkg.words import is_common_word, is_place_name, only_a_noun

from .span_base import Span, says, says_is
from .span_words import CHAT_WORDS, LOCATIVE, NAMING, PET_WORDS

_UNNAMED_ONE = frozenset({"someone", "somebody", "date", "engagement", "engaged"})
_IT_IS = frozenset({"she", "he", "it", "shes", "hes", "its"})  # "Mabel. She's a tabby": what she is
_PET_PEOPLE = frozenset({"vet", "owner", "trainer", "breeder", "groomer", "walker", "sitter"})  # a pet's own


def of_a_person(doc: Any, at: int, heads: frozenset[str] | set[str]) -> bool:
    """The name given at ``at`` is a person's: the last one brought in before it in the turn is a
    person ("met someone at the gym. his name is Theo"), not one of ``heads`` (a pet). With neither
    ("her name is pip"), the pet was brought in by a turn before, and the name is its.

    >>> from tkg.nlp import parse
    >>> [of_a_person(parse(t), 7, {"cat"}) for t in ("met someone at the gym. his name is Theo",
    ...                                             "we got a kitten !! her name is miso")]
    [True, False]
    """
    for t in reversed(doc[:at]):
        if says((t,), heads) or t.lower_ in PET_WORDS:
            return False
        lemma = t.lemma_.lower()
        person = t.pos_ == "NOUN" and kind_of_noun(lemma) == "person" and lemma not in _PET_PEOPLE
        if person or t.lower_ in _UNNAMED_ONE:
            return True
    return False


def of_a_pet(doc: Any, at: int, heads: frozenset[str] | set[str]) -> bool:
    """The name given at ``at`` is a pet's, brought in before it in the turn, where another kind of
    thing is asked: "found a stray pup and I called him Cawl" names no instrument."""
    if heads & PET_WORDS:
        return False
    for t in reversed(doc[:at]):
        if says((t,), heads):
            return False
        if t.lower_ in PET_WORDS:
            return True
    return False


def owner_or_place(span: Span, doc: Any) -> bool:
    """A name said as an animal's owner ("Gerry Walsh's collie had pups") or where one came from ("the
    pups at Carrowkeel"): not the animal's own name.

    >>> from tkg.nlp import parse
    >>> doc = parse("Gerry Walsh's collie had pups at Carrowkeel, so Fern is mine")
    >>> said = (("Gerry Walsh", 0, 2), ("Carrowkeel", 7, 8), ("Fern", 10, 11))
    >>> [owner_or_place(Span(t, "name", 0.7, a, b), doc) for t, a, b in said]
    [True, True, False]
    """
    after = doc[span.end : span.end + 2]
    owner = len(after) == 2 and after[0].lower_ in ("'s", "\u2019s") and after[1].lower_ in PET_WORDS
    return owner or span.start > 0 and doc[span.start - 1].lower_ in LOCATIVE


def _given_by(t: Any) -> list[Any]:
    """The words that may give the name at ``t`` to an animal: a phrase in apposition with it ("Mango, her
    cockapoo", "the dog, Bruno"), and the few words before a "called" or "named" right before it ("a
    collie called Bran", "his dog's called Kuba")."""
    doc = t.doc
    out = [c for c in t.children if c.dep_ == "appos"] + ([t.head] if t.dep_ == "appos" else [])
    if t.i > 0 and doc[t.i - 1].lower_ in ("called", "named"):
        out += list(doc[max(0, t.i - 5): t.i - 1])
    return out


def given_to_a_pet(span: Span, doc: Any) -> bool:
    """A one-word name an animal is given in so many words (`_given_by`). A town may have the name too;
    here it is the pet's.

    >>> from tkg.nlp import parse
    >>> doc = parse("His dog's called Kuba. We drove to Kuba for the weekend.")
    >>> [given_to_a_pet(Span("Kuba", "name", 0.7, i, i + 1), doc) for i in (4, 9)]
    [True, False]
    """
    return span.end - span.start == 1 and any(w.lower_ in PET_WORDS for w in _given_by(doc[span.start]))


def pet_possessor(span: Span, doc: Any) -> Any | None:
    """The word saying whose animal the name is given to: "her" in "Mango, her cockapoo", "his" in "his
    dog's called Kuba", "Rory" in "Rory's collie called Bran"; None when the words say no one.

    >>> from tkg.nlp import parse
    >>> doc = parse("She brought Mango, her cockapoo. Our cat Tupsu hid.")
    >>> whose = [pet_possessor(Span(t, "name", 0.7, i, i + 1), doc) for t, i in (("Mango", 2), ("Tupsu", 9))]
    >>> [getattr(w, "text", None) for w in whose]
    ['her', None]
    """
    for animal in (w for w in _given_by(doc[span.start]) if w.lower_ in PET_WORDS):
        whose = next((c for c in animal.children if c.dep_ == "poss"), None)
        if whose is not None:
            return whose
    return None


def calls_an_animal(span: Span, doc: Any) -> bool:
    """A name of a word or two that opens on an animal word says what animal it is ("staffy brain."
    after "rocco ate the remote"): a word for one, not a name given to one; a longer name the tagger
    ran together ("the Thanet Lurcher Rescue with Biscuit") keeps its pet.

    >>> from tkg.nlp import parse
    >>> doc = parse("rocco ate the remote. staffy brain. Biscuit is fine.")
    >>> [calls_an_animal(Span(text, "name", 0.7, a, b), doc) for text, a, b in (("staffy brain", 5, 7),
    ...                                                                         ("Biscuit", 8, 9))]
    [True, False]
    """
    return span.end - span.start <= 2 and doc[span.start].lower_ in PET_WORDS


def name_fragment(sent: Any, heads: frozenset[str] | set[str]) -> list[Span]:
    """A name said alone right after the sentence that brings in one of ``heads``: "we got a dog
    btw. *pepper*. some kind of lurcher", "We got a cat. *Miso*." (one noun, however tagged, and
    nothing else but punctuation; the sentence before in the same turn says the head noun).

    >>> from tkg.nlp import parse
    >>> doc = parse("we got a dog btw. pepper. so tired")
    >>> [[s.text for s in name_fragment(x, {"dog"})] for x in doc.sents]
    [[], ['pepper'], []]
    >>> doc = parse("A new one. Mabel. She's a tabby.")
    >>> [[s.text for s in name_fragment(x, {"tabby"})] for x in doc.sents]
    [[], ['Mabel'], []]
    """
    words = [t for t in sent if not (t.is_punct or t.is_space)]
    if len(words) == 2 and words[0].lower_ == "meet":  # "meet mabel.": the name presented
        words = words[1:]
    if len(words) != 1 or not words[0].is_alpha or sent.start == 0 or words[0].pos_ not in ("PROPN", "NOUN") \
            and not (words[0].pos_ == "ADJ" and words[0].text[:1].isupper() and only_a_noun(words[0].text)):
        return []  # (a capitalised noun the tagger took for an adjective: "greyhound! Bramble.")
    before = sent.doc[sent.start - 1].sent
    after = sent.doc[sent.end].sent if sent.end < len(sent.doc) else None
    # or said right before a sentence that says what it is: "Mabel. She's a tabby", "meet mabel. lurcher, 3"
    said_after = after is not None and (says(after[:1], heads) or any(
        t.dep_ == "attr" and t.head.lemma_ == "be" and says((t,), heads) and t.head.i > after.start
        and after[0].lower_ in _IT_IS for t in after))
    if not (says(before, heads) or said_after) or any(  # "Lies. Beautiful lies.": a word, said small again
            t.lower_ == words[0].lower_ and t.is_lower and t.i != words[0].i for t in sent.doc):
        return []
    return [Span(words[0].text, "name", 0.7, words[0].i, words[0].i + 1)]


NAMED_PRONOUNS = frozenset({"her", "him", "it", "them", "em", "'em"})  # the one a naming verb names


def names_given(sent: Any, names: list[Span]) -> list[Span]:
    """Words a naming verb gives as a name, lower-case too: "named biscuit", "her name is pip", "calling
    her Fern".

    >>> from tkg.nlp import parse
    >>> [[s.text for s in names_given(x, [])] for x in parse("I am calling her Fern. I'll call her tomorrow.")
    ...  .sents]
    [['Fern'], []]
    """
    out = []
    toks = list(sent)
    for j, t in enumerate(toks[:-1]):  # "named biscuit", "called kopi": lower-case names after a naming verb
        k = j + 2 if t.lower_ == "name" and says_is(toks[j + 1]) and j + 2 < len(toks) else j + 1
        if (t.lower_ == "named" or t.lemma_.lower() == "call") and toks[k].lower_ in NAMED_PRONOUNS \
                and k + 1 < len(toks):
            k += 1  # "we named her pickle", "called him rex": the name follows the one named
        # "I'm calling her Fern": a name given by "call" and the one named, never "call her tomorrow"
        calls = t.lemma_.lower() == "call" and t.lower_ not in NAMING and k > j + 1 and k < len(toks) \
            and (toks[k].text[:1].isupper() or not is_common_word(toks[k].text))
        if (  # "her name is pip": a copula after "name" names what follows
            (t.lower_ in NAMING or calls)
            and toks[k].is_alpha
            and not toks[k].is_stop
            and not (toks[k].pos_ == "ADV" and toks[k].lower_.endswith("ly"))  # "its name immediately"
        ):
            nxt = toks[k]
            if not any(nxt.i == s.start for s in names):
                out.append(Span(nxt.text, "name", 0.7, nxt.i, nxt.i + 1))
    return out


def small_name_after(sent: Any, taken: set[int]) -> list[Span]:
    """A name written small right after its animal, the two owned together: "dev's dog rollo ate my
    lunch", "our cat mabel": the tagger hangs the owner on the name and the animal word on it as a
    compound. Not an English noun the animal word only qualifies ("his dog food", "my cat tree")
    unless tagged a proper noun, and not a chat word or a place.

    >>> from tkg.nlp import parse
    >>> [[s.text for s in small_name_after(x, set())] for x in parse("my cousin dev's dog rollo ate my lunch")
    ...  .sents]
    [['rollo']]
    >>> [s.text for s in small_name_after(parse("his dog food is gone"), set())]
    []
    """
    out = []
    for t in sent:
        nxt = t.head
        if t.lower_ not in PET_WORDS or t.dep_ != "compound" or nxt.i != t.i + 1 or nxt.i in taken:
            continue
        if not (nxt.is_alpha and nxt.is_lower and len(nxt) >= 3 and not nxt.is_stop) \
                or nxt.lower_ in CHAT_WORDS | PET_WORDS or is_place_name(nxt.text) \
                or nxt.pos_ != "PROPN" and (nxt.pos_ != "NOUN" or is_common_word(nxt.text)):
            continue
        if any(c.dep_ == "poss" for c in nxt.children):
            out.append(Span(nxt.text, "name", 0.7, nxt.i, nxt.i + 1))
    return out
