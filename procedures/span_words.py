"""The words the span finder types by: locative prepositions, greetings, spaCy's entity labels for
each asked kind, role head nouns, status words and phrases, number words, determiners, people
nouns, "favourite"-like modifiers and calendar words. Data, and the words a thing's span needs
(`thing_words`), which the reader checks before it parses a turn; `procedures/spans.py` reads them.
"""

from __future__ import annotations

import re
from typing import Any

from planners.head_words import ANIMALS, CAT_WORDS, DOG_WORDS, FOREIGN_CATS, FOREIGN_DOGS
from tkg.vehicle_words import (
    CAR_MODEL_WORDS,
    CAR_MODELS,
    CAR_NAMES,
    MOTOR_NAMES,
    VAN_MODEL_WORDS,
    VAN_MODELS,
    VEHICLE_NOUNS,
)

LOCATIVE = frozenset("in to from at near around outside into via".split())
# the last word of a street's name ("on Mill Lane", "off Hope Road"): after a preposition of place, a
# place even when the tagger calls it a person ("Rosa Lane" met at the gym stays a person)
STREET_WORDS = frozenset("""lane street st road rd avenue ave close way drive crescent terrace grove row
    boulevard square parade walk mews""".split())
ALONG = LOCATIVE | {"on", "off", "along", "down", "up", "past"}
# "hi from ghent!", "writing from Porto": where the writer is
GREETING = frozenset("hi hii hiii hello hey hiya greetings ciao hola love writing texting postcard".split())
NER_KINDS = {"place": ("GPE", "LOC", "FAC"), "organisation": ("ORG", "FAC"), "person": ("PERSON",),
              "date": ("DATE",), "number": ("CARDINAL", "QUANTITY", "MONEY", "PERCENT", "TIME")}
ROLE_HEADS = frozenset(
    """
    accountant actor analyst architect artist assistant associate attorney author baker barista bartender
    builder carpenter cashier chef chemist cleaner clerk coach consultant cook coordinator counsellor
    counselor
    curator dancer designer dentist developer director doctor driver economist editor electrician engineer
    entrepreneur farmer firefighter founder freelancer gardener guide hairdresser head illustrator instructor
    intern journalist judge lawyer lead lecturer librarian manager mechanic midwife musician nanny nurse
    officer
    owner painter paralegal paramedic partner pharmacist photographer physician physiotherapist pilot plumber
    postdoc producer professor dev programmer psychologist receptionist reporter researcher scientist
    secretary
    singer specialist student supervisor surgeon tailor teacher technician tester therapist translator tutor
    vet veterinarian waiter waitress writer crew attendant captain principal administrator strategist planner
    copywriter marketer recruiter mechanic janitor porter steward stewardess resident registrar aide carer
    caregiver apprentice trainee vp ceo cto cfo coo
    chair chairman chairwoman chairperson treasurer president trustee governor
    """.split()
)
# role heads that are furniture too: a role only where a clause says someone is one, where it is capitalised
# ("Madam Chair") or says of what ("chair of the board"); never "a gaming chair"
SEAT_ROLES = frozenset({"chair"})
STATUS_WORDS: dict[str, str] = {
    "married": "married",
    "wedding": "married",
    "wife": "married",
    "husband": "married",
    "newlywed": "married",
    "engaged": "engaged",
    "engagement": "engaged",
    "proposed": "engaged",
    "fiance": "engaged",
    "fiancé": "engaged",
    "fiancee": "engaged",
    "fiancée": "engaged",
    "divorced": "divorced",
    "divorce": "divorced",
    "separated": "separated",
    "widowed": "widowed",
    "single": "single",
    "dating": "dating",
    "girlfriend": "dating",
    "boyfriend": "dating",
    "seeing": "dating",
    "broke": "broke up",
    "split": "broke up",
    "dumped": "broke up",
}
# an event noun says one status while it is ahead and another once it is done
AHEAD_OR_DONE = {"wedding": ("engaged", "married"), "weddings": ("engaged", "married")}
AHEAD = re.compile(r"\b(?:next|will|'ll|gonna|going to|set for|fixed for|planned|planning|plans?|until|till|"
                   r"close to|coming up|upcoming|soon|in \w+ (?:weeks|months))\b", re.I)
STATUS_PHRASES = (("called off", "called off"), ("call off", "called off"), ("broke up", "broke up"),
                  ("broken off", "called off"), ("moved in together", "living together"))
NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred".split()
)
DET = frozenset(
    "a an the my your his her our their its this that these those some new old current first ur u yr".split()
)

PEOPLE = frozenset("guy girl man woman lady person people mum mom dad mother father parent life".split())
# the titles a name follows, said small in texting too ("mrs okafor", "dr khan")
TITLES = frozenset("mr mrs ms miss dr prof".split())
# a sentence that ends on someone not yet named ("I've been seeing someone."): a name said alone after it
# names them
SOMEONE_END = re.compile(r"\b(?:someone|somebody|a\s+(?:guy|girl|woman|man|lady|bloke|fella|lad|lass))\W*$",
                         re.I)

# what parts a name or a title from the words that introduce it ("someone new: Wren", "his job - manager")
DASHES = frozenset({":", "-", "\u2013", "\u2014"})

FAVOURITE = frozenset("favourite favorite fave fav fav' new old current latest usual main own".split())

CALENDAR = frozenset("""january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays
    saturdays sundays christmas easter""".split())

# animals as texters write them: "meet pixel 🐱" names a pet as surely as "meet pixel, our cat"
# (no fish or fowl: 🐟 and 🐔 are as often dinner)
PET_WORDS = ANIMALS | FOREIGN_DOGS | FOREIGN_CATS | frozenset(
    "🐶 🐕 🐩 🦮 🐱 🐈 🐰 🐇 🐹 🐭 🐦 🐤 🦜 🐢 🐍 🦎 🐴 🐎 🐐".split())
_CAT_SIGNS = CAT_WORDS | FOREIGN_CATS | {"🐱", "🐈"}
_DOG_EMOJI = frozenset({"🐶", "🐕", "🐩", "🦮"})
_DOG_SIGNS = DOG_WORDS | FOREIGN_DOGS | _DOG_EMOJI
_ANY_DOG = frozenset("dog dogs doggo doggy pup pups puppy puppies mutt pooch".split())  # no breed's word


def pet_words(head: str) -> frozenset[str]:
    """The words that name a pet of the asked kind in a turn: a cat's for a cat ("kitten", "gato", 🐱),
    a dog's for a dog ("one old man and a dog" names no cat), and for a breed its own word and a dog's
    but no other breed's (a greyhound is no spaniel); any animal's for a pet.

    >>> "puppy" in pet_words("dog"), "puppy" in pet_words("cat"), "puppy" in pet_words("pet")
    (True, False, True)
    >>> "dog" in pet_words("spaniel"), "greyhound" in pet_words("spaniel")
    (True, False)
    """
    if head in DOG_WORDS and head not in _ANY_DOG:
        return frozenset({head, head + "s"}) | _ANY_DOG | FOREIGN_DOGS | _DOG_EMOJI
    return _CAT_SIGNS if head in CAT_WORDS else _DOG_SIGNS if head in DOG_WORDS else PET_WORDS

# members of a category a question may ask for by its head noun ("what instrument", "which sport"):
# a word of the list is a value of that category even where the sentence never says the category
_UNITS = frozenset("""icu itu nicu picu hdu ccu a&e ae emergency maternity oncology paediatrics pediatrics
    cardiology neurology orthopaedics orthopedics radiology theatres surgical respiratory geriatrics renal
    dialysis haematology hematology stroke burns neonatal midwifery triage""".split())
CATEGORY_MEMBERS: dict[str, frozenset[str]] = {
    "instrument": frozenset("""piano keyboard keys guitar bass cello violin viola fiddle drums drum ukulele
        banjo mandolin harp flute clarinet oboe bassoon saxophone sax trumpet trombone tuba horn harmonica
        accordion organ synth synthesizer double-bass recorder""".split()),
    "sport": frozenset("""football soccer rugby cricket tennis badminton squash golf basketball baseball
        hockey volleyball netball handball swimming running cycling rowing climbing bouldering skiing
        snowboarding surfing sailing boxing judo karate yoga pilates athletics triathlon marathon
        padel pickleball ping-pong darts archery fencing kayaking canoeing paddleboarding lacrosse softball
        wrestling weightlifting powerlifting crossfit jiu-jitsu taekwondo kickboxing skating skateboarding
        curling bowling bowls hurling frisbee dodgeball orienteering gymnastics parkour diving
        polo derby camogie futsal trampolining aikido zumba capoeira""".split()),
    "subject": frozenset("""maths math mathematics physics chemistry biology history geography english french
        spanish german italian latin music art drama economics philosophy psychology sociology literature
        science computing ict""".split()),
    "car": CAR_NAMES,  # a car is often named by its make or model alone ("sold the Volvo")
    # a phone is named by its make ("bought a Samsung A54", "my old iPhone")
    "phone": frozenset("""iphone samsung galaxy pixel nokia motorola moto xiaomi redmi oneplus huawei oppo
        realme vivo sony xperia blackberry fairphone""".split()),
    # a diet is said by its adjective ("fully vegetarian since Boxing Day")
    "diet": frozenset("""vegetarian vegan pescatarian pescetarian keto ketogenic paleo flexitarian halal
        kosher gluten-free dairy-free plant-based carnivore veggie""".split()),
    # a hospital's units, by the names and letters nurses use ("three nights on NICU", "back on a&e")
    "unit": _UNITS,
    "ward": _UNITS,
    "department": _UNITS,
}
# a hobby is a craft or art, a pastime, or any sport or instrument ("started pottery", "took up the cello"):
# spans of the head (`OPEN_MEMBERS`), though a hobby may be anything ("making sourdough"), so never a closed
# category that types a list or an edge as `CATEGORY_MEMBERS` does
CRAFTS = frozenset("""pottery ceramics painting watercolour watercolours watercolor watercolors oils drawing
    sketching knitting crochet crocheting sewing quilting embroidery weaving woodworking woodwork carving
    calligraphy photography gardening baking cooking birdwatching birding fishing hiking dancing salsa tango
    ballet singing choir chess gaming reading writing poetry journaling origami scrapbooking astronomy
    genealogy volunteering improv theatre theater""".split())
HOBBIES = CRAFTS | CATEGORY_MEMBERS["sport"] | CATEGORY_MEMBERS["instrument"]
OPEN_MEMBERS: dict[str, frozenset[str]] = {"hobby": HOBBIES, "pastime": HOBBIES}
# what people get around on, named by its kind ("picked up the e-bike") or a car's make: members
# of "vehicle" for spans only (members.py keeps "the bike" a bare category word in lists)
VEHICLES = VEHICLE_NOUNS
# the heads a van or a lorry is asked by: named by make and model as a car is, or called a vehicle
_VANS = ("van", "lorry", "truck")
# members named by an English word, a member only when written with a capital ("the Fiesta failed its MOT")
NAMED_MEMBERS: dict[str, frozenset[str]] = {"car": CAR_MODEL_WORDS, **dict.fromkeys(
    ("vehicle", *_VANS), CAR_MODEL_WORDS | VAN_MODEL_WORDS)}
# members whose own name says their category, however written ("the Picanto did its first big shop"): a
# car's model (a make may be the company: "she works at Volvo")
SELF_TYPED: dict[str, frozenset[str]] = {"car": CAR_MODELS, **dict.fromkeys(("vehicle", *_VANS),
                                                                           CAR_MODELS | VAN_MODELS)}
SPAN_MEMBERS: dict[str, frozenset[str]] = {
    **CATEGORY_MEMBERS, "vehicle": VEHICLES | MOTOR_NAMES, **dict.fromkeys(_VANS, MOTOR_NAMES),
    # how someone gets about ("how does she get to work now"): a vehicle or a line of public transport
    "transport": VEHICLES | frozenset("bus train tram ferry tube metro subway".split()),
}

# what people do with a thing known by its name, by the category's head noun: a capitalised name in a
# sentence (or the one beside it) that says one of these is a candidate member though the category is
# never said ("The Marigold Engine on repeat", "Atleti won again"). Titled works (books, films) are not
# here: their titles are quoted or capitalised beside many other names (sentence_value.py)
_MUSIC = ("album albums song songs gig gigs concert concerts tour track tracks playlist repeat listen "
          "lyrics singer drummer guitarist frontman frontwoman setlist vinyl ep")
NAMED_CONTEXT: dict[str, frozenset[str]] = {
    "band": frozenset(_MUSIC.split()),
    "artist": frozenset(_MUSIC.split()),
    "singer": frozenset(_MUSIC.split()),
    "team": frozenset("match matches game games season league won win beat lost lose draw derby stadium goal "
                      "goals cup striker keeper fixture".split()),  # not "fan": people are fans of anything
}

# words that give a name to what follows them: "named biscuit", "called kopi", "her name is pip", "meet pixel"
NAMING = frozenset({"named", "called", "name", "meet"})
# the possessives of someone neither speaking nor spoken to: "her son Oliver", "his dog's called Kuba"
THEIRS = frozenset({"his", "her", "their"})


def thing_words(head: str) -> frozenset[str]:
    """The words (a token's lower case or lemma) without one of which a sentence holds no span of
    a thing called ``head`` (spans.py's ``_things``): the head, a member of its category, a word of
    what is done with it (`NAMED_CONTEXT`), a naming word; none for no head."""
    return frozenset({head, head + "s", *SPAN_MEMBERS.get(head, ()), *OPEN_MEMBERS.get(head, ()),
                      *NAMED_MEMBERS.get(head, ()), *NAMED_CONTEXT.get(head, ()), *NAMING}) \
        if head else frozenset()


# the shapes spans.py reads: a role said of someone (by dependency), a role-like noun, a clock or
# race time, the words around an age
PREDICATING = frozenset({"attr", "appos", "acomp", "ROOT", "oprd", "npadvmod", "dep"})
# role nouns English also uses as verbs for doing that job to something: "captaining the night ferry",
# "coaching the under-12s", "tutoring maths"; not "cooking dinner", "nursing a cold", "heading home"
ROLE_VERBS = frozenset("captain skipper pilot coach tutor crew clerk intern".split())
# agent nouns: "-er", "-ist", "-smith"…, and "-man", "-woman", "-person", "-wife" ("postwoman", "foreman",
# "midwife"), but not the few such words that name no work
ROLE_SUFFIX = re.compile(r"^(?!(?:gentle|snow|cave|mad|super|bat|walk)(?:wo)?m[ae]n$)"
                         r"\w{3,}(?:er|or|ist|ian|ant|eer|smith|wright|man|men|woman|women|person|wife|wives)s?$")
CLOCK = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")
AGE_BEFORE = frozenset("turned turning turns aged at age".split())
AGE_AFTER = frozenset("years year yrs yo today".split())
# texting short forms and reactions that are never a name, though a tagger may call them one
CHAT_WORDS = frozenset("""lol lols lmao lmfao rofl omg omfg haha hahaha hehe congrats congratulations grats
    btw tbh ngl idk idc imo imho fyi thx tysm ty pls plz wknd wkend bday thurs tues weds brb ikr smh rip
    ya yall ye yeh yea bestie fam hun babe xx xxx xo""".split()) | frozenset(
    # words of English as Scots, Irish and Northern speakers type it ("she's fat noo", "doesnae")
    """aye naw noo mair aboot oot hame fae tae wi yer ma wee ken gonnae wantae dinnae doesnae cannae isnae
    wasnae wouldnae couldnae shouldnae havnae hasnae didnae willnae greetin summat nowt owt reet""".split())

# entity types a capitalised run that is no one's name may carry ("the Apuseni mountains" is NORP)
NOT_PEOPLE = frozenset({"GPE", "ORG", "LOC", "DATE", "NORP"})
# a run of words the tagger labels only so is a day, no organisation ("Christmas Eve", "Pancake Day")
WHEN_LABELS = frozenset({"DATE", "TIME", "EVENT"})
# what a capitalised word the tagger labels so is not, as an organisation: "a B2 German course", "in Welsh";
# a run of words is a name whatever its label ("the Harbour Singers", tagged NORP)
NO_ORG = frozenset({"NORP", "LANGUAGE"}) | WHEN_LABELS

# the forms one relative goes by: a turn says "Auntie Jean" of the question's "aunt", "Mum" of a mother
KIN_FORMS = tuple(frozenset(g.split()) for g in (
    "aunt auntie aunty", "uncle", "grandmother grandma gran granny nan nana",
    "grandfather grandpa grandad granddad", "mother mum mom mam mommy mummy", "father dad daddy papa",
    "fiance fiancé fiancee fiancée"))

# the titles that say a person's relation to whoever they treat or teach: "a Dr Haddad" is a doctor
_TITLE_OF = {"doctor": {"dr"}, "gp": {"dr"}, "dentist": {"dr"}, "surgeon": {"dr", "mr", "ms"},
             "consultant": {"dr"}, "professor": {"prof", "professor"}, "supervisor": {"dr", "prof"}}


def titled_as(head: str, first: Any) -> bool:
    """A name whose title says the asked relation (``first`` is its first token, and the title may be
    the one before it): "Dr Haddad" for "who is her doctor", not for "who is her partner".

    >>> from tkg.nlp import parse
    >>> doc = parse("I see a Dr Haddad now")
    >>> titled_as("doctor", doc[3]), titled_as("doctor", doc[4]), titled_as("partner", doc[3])
    (True, True, False)
    """
    titles = _TITLE_OF.get(head, ())
    return first.lower_.rstrip(".") in titles or first.i > 0 and first.nbor(-1).lower_.rstrip(".") in titles
