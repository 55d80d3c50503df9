"""Closed word lists and verb inflection the extraction rules are built from.

The predicate-specific words live in predicates.toml; what is here is grammar:
auxiliaries, modals, negations, relational adjectives, capitalised words that
are not names, and the verb forms needed to match "moved"/"moving" from "move" (the
irregular ones listed in tkg/data/irregular_verbs.toml).
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources

from tkg.text import any_of

# Irregular verbs: base -> (3rd person, past, past participle, gerund).
IRREGULAR: dict[str, tuple[str, ...]] = {
    base: tuple(forms)
    for base, forms in tomllib.loads(
        resources.files("tkg").joinpath("data/irregular_verbs.toml").read_text("utf-8")
    ).items()
}
_DOUBLE_FINAL = {
    "stop", "drop", "plan", "scrap", "ship", "shop", "total", "travel", "cancel", "enrol", "enroll", "date",
}


def inflections(verb: str) -> dict[str, str]:
    """All surface forms of a verb word, mapped to their kind: base, s, past, ger.

    >>> inflections("move")["moving"]
    'ger'
    """
    forms: dict[str, str] = {verb: "base"}
    if verb in IRREGULAR:
        for f in IRREGULAR[verb]:
            forms.setdefault(f, "ger" if f.endswith("ing") else "s" if f.endswith("s") else "past")
        if verb == "be":
            forms.update({"am": "s", "'m": "s", "is": "s", "'s": "s", "are": "s", "'re": "s", "be": "base"})
        return forms
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        forms[verb + "es"] = "s"
    elif re.search(r"[^aeiou]y$", verb):
        forms[verb[:-1] + "ies"] = "s"
    else:
        forms[verb + "s"] = "s"
    if verb in _DOUBLE_FINAL and verb != "date":
        forms[verb + verb[-1] + "ed"] = "past"
        forms[verb + verb[-1] + "ing"] = "ger"
        forms[verb + "ed"] = "past"  # US spelling of "traveled", "canceled"
        forms[verb + "ing"] = "ger"
    elif verb.endswith("e"):
        forms[verb + "d"] = "past"
        forms[verb[:-1] + "ing"] = "ger"
    elif re.search(r"[^aeiou]y$", verb):
        forms[verb[:-1] + "ied"] = "past"
        forms[verb + "ing"] = "ger"
    else:
        forms[verb + "ed"] = "past"
        forms[verb + "ing"] = "ger"
    return forms


# Words that may stand between a subject and its verb, by what they do to the clause.
BE = "am|'m|is|'s|are|'re|was|were|be|been|being"
NEGATION = ("not|n't|never|no longer|don't|doesn't|didn't|haven't|hasn't|hadn't|isn't|aren't|wasn't|weren't|"
            "won't|wouldn't|can't|couldn't|cannot|shouldn't|ain't|do not|does not|did not|have not|has not")
FUTURE = "will|'ll|shall|gonna|going to|about to|finally going to"
PLAN_STRONG = (
    "plan to|plans to|planned to|planning to|plan on|planning on|intend to|intends to|intending to|"
    "hope to|hoping to|hopes to|thinking of|thinking about|scheduled to|aiming to|aim to|preparing to|"
    "getting ready to"
)
# Weaker cues read as a plan only before a travel verb ("can't wait to go to Japan").
PLAN_WEAK = "decided to|decide to|set to|looking to|excited to|can't wait to|cannot wait to|considering"
PLAN = PLAN_STRONG + "|" + PLAN_WEAK
MODAL = ("would|'d|could|might|may|should|must|can|want to|wanna|wants to|wanted to|need to|needs to|have to|"
         "has to|had to|gotta|got to|wish|try to|trying to|tried to|would love to|would like to")
USED_TO = "used to|use to"
ADVERB = (
    "just|recently|finally|also|still|now|currently|actually|already|officially|really|totally|absolutely|"
    "definitely|truly|originally|eventually|basically|literally|honestly|mostly|usually|always|sometimes|often|"
    "normally|typically|seriously|kinda|kind of|sort of|pretty much|even|only|ever|both|all|first|once"
    "|happily|"
    "proudly|luckily|thankfully|somehow|immediately|initially|then|again|soon|newly|sadly|unfortunately|"
    "fortunately|do|does|did|have|'ve|has|had|started|start|began|begin|starting|love to|like to|"
    "managed to|happen to|happened to|genuinely|secretly|too|so|def|officially"
)
AUX_WORDS = "|".join([BE, NEGATION, FUTURE, PLAN, MODAL, USED_TO, ADVERB])

NEGATION_RX = re.compile(r"\b(?:" + NEGATION + r")\b|n't\b", re.I)
FUTURE_RX = re.compile(r"(?:\b(?:" + FUTURE + r")\b|'ll\b)", re.I)
PLAN_RX = any_of(PLAN)
MODAL_RX = re.compile(r"(?:\b(?:" + MODAL + r")\b|'d\b)", re.I)
# "We had to rehome Biscuit": a past obligation reports what happened, unlike "have to" or "would".
HAD_TO_RX = re.compile(r"\bhad\s+to\b", re.I)
USED_RX = any_of(USED_TO)
BE_RX = re.compile(r"(?:\b(?:am|is|are|was|were|be|been)\b|'m\b|'s\b|'re\b)", re.I)
NO_LONGER_RX = any_of("no longer|not anymore|anymore|any more|no more")

# Verbs too common to say what their object is: after them only a vocabulary word counts
# ("I have a dog" is a pet, "I have a Situation" or "I've booked Japan" is not).
GENERIC_VERBS = frozenset({"have", "get", "play", "learn"})

# Ranks that let a job title go without its article ("I'm head baker at Hartley's now").
RANKS = "head|senior|junior|lead|chief|principal|staff|assistant|deputy|sous"
RANKS_RX = re.compile(r"\b(?:" + RANKS + r")\s|\bpromoted\b", re.I)

# Coming home from a trip: in the past a visit, in the future or progressive nothing yet.
RETURN = frozenset({"get back from", "come back from", "return from", "be back from", "be just back from"})

# Verbs of travel: progressive or future use means a plan ("I'm flying to Tokyo"), past use a visit.
TRAVEL = frozenset({
    "go to", "travel to", "fly to", "visit", "take a trip to", "go on a trip to", "go back to", "head to",
    "road trip to", "move to", "relocate to", "move back to", "move over to", "tour",
})

# Adjectives that may sit inside a relational noun phrase ("my little sister", "my best friend").
REL_ADJ = (
    "big|little|older|younger|baby|twin|half|step|best|new|old|dear|late|lovely|amazing|wonderful|awesome|sweet|"
    "elder|eldest|oldest|youngest|beautiful|adorable|first|other|closest|close|childhood|college|school|work|"
    "rescue|furry|fluffy|own|good|great|longtime|long-time|current|future|sweet little|grumpy|cute|two|three|"
    "whole|darling|beloved|lil|biological|adopted|wonderful little|dear old|precious"
)

# Capitalised words that start sentences but never name anyone.
NOT_NAMES = frozenset(
    """
    i the a an this that these those it its he she they we you my our your his her their there here what when
    where why how who whom which whose so and but or yes no not oh wow hey hi hello thanks thank well also
    then
    now just maybe sounds actually congrats congratulations great awesome cool nice good really sure aww aw
    yeah
    yep yup haha lol omg love glad sorry please definitely absolutely totally today yesterday tomorrow last
    next
    everyone everybody someone somebody nobody anyone anything everything something nothing mom dad mum mother
    father sis bro dude buddy man guys girl boy honestly seriously btw by anyway anyways speaking talking
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
    september october november december christmas easter thanksgiving halloween if as at in on of for with to
    from after before during since until did do does is are was were have has had can could would should will
    let let's lets i'm i've i'd i'll it's that's what's you're we're they're he's she's i'm one two three ok
    okay alright right exactly true indeed absolutely same agreed amazing awesome incredible fantastic
    wonderful
    beautiful sweet cute fun exciting interesting hmm hmmm um uh ah ahh ooh woah whoa nah meh ugh yay bye see
    take keep good congratulations welcome happy merry dear hope wish enjoy have guess check look remember
    sometimes usually often always never lately recently finally luckily sadly unfortunately fortunately
    go come get make keep stay try tell don't let's gotta wanna thx ty np idk imo tbh
    """.split()
)

PRONOUN_OBJECTS = frozenset(
    """
    it this that them him her you me us those these what how when where why who which whatever everything
    something anything nothing someone somebody anyone anybody everyone everybody nobody all there here so
    such
    being having going getting to myself yourself himself herself themselves ourselves one ones lot lots much
    more most it's that's what's each both either neither
    not no never in on at out up off into onto with about around over
    """.split()
)

NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen "
        "seventeen eighteen nineteen".split()
    )
}
TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
NUMBER_RX = (
    r"(?:\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|"
    r"six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
)


def parse_number(text: str) -> int | None:
    """"32" / "thirty-two" / "thirty two" -> 32."""
    t = text.lower().replace("-", " ").split()
    if not t:
        return None
    if t[0].isdigit():
        return int(t[0])
    total = 0
    for w in t:
        if w in TENS:
            total += TENS[w]
        elif w in NUMBER_WORDS:
            total += NUMBER_WORDS[w]
        else:
            return None
    return total


# Relatives chat names without "my" ("mum moved into a care home", "dad just got a job"): someone else
BARE_KIN = "mum|mom|mam|dad|nan|gran|granny|grandma|grandpa|grandad"

# Kin words that should read the same however they are spelled, for unnamed relatives ("Priya's mother").
CANONICAL_KIN = {
    "mom": "mother",
    "mum": "mother",
    "mommy": "mother",
    "mama": "mother",
    "dad": "father",
    "daddy": "father",
    "papa": "father",
    "kids": "children",
    "kid": "child",
    "sis": "sister",
    "bro": "brother",
    "hubby": "husband",
    "wifey": "wife",
    "bf": "boyfriend",
    "gf": "girlfriend",
    "bestie": "best friend",
    "bff": "best friend",
}

NATIONALITIES = frozenset(
    """
    irish english british scottish welsh american canadian mexican french italian spanish german dutch swedish
    norwegian danish finnish polish russian ukrainian greek turkish chinese japanese korean indian pakistani
    brazilian argentinian australian african nigerian kenyan egyptian jewish muslim christian catholic asian
    european latina latino hispanic filipino vietnamese thai portuguese swiss austrian belgian czech hungarian
    """.split()
)

ORG_WORDS = frozenset(
    """
    inc ltd llc corp company co university college school academy hospital clinic bank club church center
    centre
    institute foundation group studio studios agency café cafe restaurant bakery gym team society association
    council library museum store shop labs lab records press media network airlines motors systems partners
    """.split()
)
