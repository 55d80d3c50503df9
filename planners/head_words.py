"""The head nouns a question may ask for, by kind of value ("which *city*": a place; "her *drummer*":
a person), and the animal words that name a pet. `planners.asked` reads a question's head with them;
the reader's spans and checks use the same words, so a kind is written once.

Example::

    >>> kind_of_noun("drummers"), kind_of_noun("city"), kind_of_noun("bike")
    ('person', 'place', 'thing')
    >>> singular("hobbies"), singular("children")
    ('hobby', 'child')
"""

from __future__ import annotations

import re

# a partner in the languages English chats switch into ("she is officially mi novia now"); not German
# "Freundin", a friend too
FOREIGN_PARTNERS = ("novia", "novio", "namorada", "namorado", "fidanzata", "fidanzato", "copine", "copain")
# head nouns → kind; a noun not listed asks for a thing of that name ("which bike", "what food")
_HEADS: dict[str, tuple[str, ...]] = {
    "place": (
        "city", "town", "country", "place", "suburb", "neighbourhood", "neighborhood", "area", "district",
        "village", "state", "region", "office", "location", "address", "island", "county", "province",
        "destination", "hometown",
    ),
    "organisation": (
        "company", "employer", "firm", "organisation", "organization", "hospital", "school", "university",
        "college", "club", "team", "choir", "orchestra", "agency", "studio", "startup", "shop", "restaurant",
        "bakery", "store", "bank", "gym", "church", "charity", "publisher", "magazine", "newspaper",
        "practice", "clinic", "lab", "laboratory", "brand", "label", "airline", "carrier", "consultancy",
        "funder", "sponsor", "supplier",
    ),
    "person": (
        "person", "man", "woman", "friend", "partner", "boyfriend", "girlfriend", "husband", "wife",
        "manager", "boss", "supervisor", "sister", "brother", "mother", "father", "mom", "mum", "dad", "son",
        "daughter", "colleague", "roommate", "flatmate", "neighbour", "neighbor", "cousin", "fiance",
        "fiancé", "fiancee", "fiancée", "child", "kid", "baby", "aunt", "uncle", "grandmother", "grandfather",
        "mentor", "coach", "teacher", "doctor", "landlord", "founder", "co-founder", "cofounder", "employee",
        "owner", "drummer", "singer", "guitarist", "student", "tenant", "photographer", "aide", "carer",
        "caregiver", "nurse", "therapist", "tutor", "trainer", "vet", "dentist", "surgeon", "lawyer", "nanny",
        "babysitter", "cleaner", "builder", "plumber", "contractor", "planner", "cto", "ceo",
        "chef", "cook", "baker", "waiter", "waitress", "barista",
        *FOREIGN_PARTNERS,
        # the rest of English kinship: "the name of Teodor's niece" asks for a person
        "niece", "nephew", "grandson", "granddaughter", "grandchild", "grandma", "grandpa", "gran", "nan",
        "nana", "auntie", "stepson", "stepdaughter", "stepmother", "stepfather", "stepbrother", "stepsister",
        "godson", "goddaughter", "godmother", "godfather", "sister-in-law", "brother-in-law",
        "mother-in-law", "father-in-law", "son-in-law", "daughter-in-law", "sibling", "twin", "parent",
        "mam", "mama", "papa", "granny", "grandad", "granddad", "bro", "sis",
        # the family words English chats borrow ("tell Appa", "my lola", "Oma's garden")
        "amma", "appa", "ammi", "abba", "nani", "dadi", "lola", "lolo", "tita", "tito", "oma", "opa",
        "nonna", "nonno", "abuela", "abuelo", "babcia",
    ),
    "role": ("job", "title", "profession", "occupation", "role", "position", "career", "work", "line"),
    "animal": ("animal", "breed", "species"),
    "date": ("date", "day", "year", "month", "week", "season"),
    "number": ("age", "number", "score", "price", "amount", "distance", "salary", "rent", "height", "weight",
               "time", "pace"),
    "status": ("status", "relationship"),
}
HEAD_KIND = {noun: kind for kind, nouns in _HEADS.items() for noun in nouns}
# the species a pet is named with ("a retired greyhound. Nimbus.", "a kitten called biscuit")
DOG_WORDS = frozenset("""dog puppy pup mutt beagle bulldog collie corgi dachshund greyhound husky labrador
    lurcher poodle pug retriever shepherd spaniel terrier whippet vizsla staffie staffy cockapoo
    cavapoo labradoodle goldendoodle rottweiler doberman dalmatian westie bichon alsatian weimaraner
    samoyed akita malamute pomeranian yorkie frenchie""".split())
CAT_WORDS = frozenset("cat kitten kitty tabby ragdoll sphynx moggy moggie".split())
# the pet words of languages English chats switch into ("nuestro perro se llama Chispa"), for reading
# turns (a question's animal stays an English word); not French "chat", an English word too
FOREIGN_DOGS = frozenset("""chien chienne chiot perro perra perrito perrita cachorro cachorrita hund hündin
    cane cão cadela""".split())
FOREIGN_CATS = frozenset("chaton minou gato gata gatito gatita katze kater gatto gattino gatinho".split())
# animal words: a pet's kind in a question, and what names a pet in a turn ("meet Biscuit, our puppy")
ANIMALS = DOG_WORDS | CAT_WORDS | frozenset(
    """horse pony rabbit bunny hamster parrot budgie bird fish tortoise turtle snake lizard gecko hen
    chicken ferret goldfish guinea""".split()
)

# the words that name a kind of animal, not a breed of it ("a dog", "the kitten")
_SPECIES = frozenset("dog puppy pup mutt cat kitten kitty moggy moggie".split()) \
    | (ANIMALS - DOG_WORDS - CAT_WORDS)


def a_breed(word: str, question: str) -> bool:
    """Whether ``word`` may answer "what breed of …": a breed, of the animal the question names if
    it names one; an animal's kind is none ("cat" for "what breed of dog").

    >>> a_breed("greyhound", "What breed of dog did they adopt?"), a_breed("cat", "What breed is her dog?")
    (True, False)
    """
    low = word.lower()
    if low in _SPECIES:
        return False
    words = set(re.findall(r"[a-z]+", question.lower()))
    if words & DOG_WORDS:
        return low in DOG_WORDS
    if words & CAT_WORDS:
        return low in CAT_WORDS
    return True


# nouns whose singular ends in "-ie": their plural drops only the "s"
_IE_NOUNS = frozenset("""movie cookie calorie smoothie selfie rookie zombie brownie hoodie genie goalie auntie
    bookie techie foodie newbie veggie prairie budgie beanie freebie yorkie birdie pixie hippie""".split())


# plurals no suffix rule undoes: "the names of their children" asks for people ("how many people"
# stays a count of a number said: "six people report to me")
_IRREGULAR = {"children": "child", "men": "man", "women": "woman", "wives": "wife",
              "grandchildren": "grandchild", "stepchildren": "stepchild"}


def singular(word: str) -> str:
    """The singular of a plural head noun ("hobbies" → "hobby", "children" → "child")."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word in HEAD_KIND or len(word) < 4 or word in ("series", "species"):  # one of each, many of each
        return word
    for suffix, repl in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("s", "")):
        if word.endswith(suffix) and word[: -len(suffix)] + repl in HEAD_KIND:
            return word[: -len(suffix)] + repl
    if word.endswith("ies") and len(word) > 5 and word[:-1] not in _IE_NOUNS:  # "hobbies", not "movies"
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def kind_of_noun(noun: str) -> str:
    """The kind of value a category noun names ("drummer" → person, "city" → place), else "thing"."""
    return HEAD_KIND.get(singular(noun.lower()), "thing")
