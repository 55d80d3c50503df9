"""What kind of value a question asks for: a place, a person, a role, a date, a count, a status…

The reader answers with a value of this kind taken from the evidence, or abstains; it never
answers with a sentence of another kind. The kind comes from the wh-word and the question's
head noun ("which *city*", "the name of her *dog*", "what is his *job*"), read once here from the
question text alone (no store, no model).

Example::

    >>> a = asked_for("Which cities has Marta lived in over the years?")
    >>> a.kind, a.head, a.many
    ('place', 'city', True)
    >>> asked_for("What is the name of Joe's cat?").kind
    'pet_name'
    >>> asked_for("How much did Joe sell the van for?").head
    'amount'
    >>> asked_for("Why did Joe sell the van?").kind, asked_for("How did Joe feel after the race?").kind
    ('reason', 'manner')
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from tkg.text import STOPWORDS, tokenize

from .cues import count_cue, outcome_cue, recency_cue, summary_cue, within_cue
from .head_words import ANIMALS, HEAD_KIND, singular

_MONEY_HEADS = frozenset({"salary", "price", "rent"})  # number heads answered by a sum of money
RACE_TIME = "race time"  # the head of a question about a race result (`_RACE_TIME_Q`)
_FILLERS = frozenset("kind type sort name names of the a an his her their its my your current new latest "
                     "favourite favorite first last old main exact full most recent newest previous".split())
_AUX = frozenset("is are was were does do did has have had can could will would should".split())
_SUMMARY_START = re.compile(
    r"^\s*(?:summari[sz]e|describe|outline|tell me about|walk me through|give an overview)\b"
    r"|\bhow did\b.*\b(?:change|develop|evolve|unfold|progress|go)\b",
    re.I,
)
# "can you summarise …", "could you please list …": a polite request, not a yes/no question
_POLITE = re.compile(r"^\s*(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
                     r"(?=(?:summari[sz]e|describe|outline|list|name|tell|give|walk|explain|remind|recap)\b)",
                     re.I)
_DATE_Q = re.compile(
    r"^\s*(?:when|since when|by when)\b|\b(?:what|which) (?:date|day|year|month|time of year)\b"
    r"|\bon what date\b|\bhow long ago\b",
    re.I,
)
# a span of time the question gathers over: "over the course of", "so far", "over the year"
_OVER_TIME = re.compile(r"\b(?:over the course|ever had|so far|over the year"
                        # the whole record, however it is kept: "during the journal", "in these chats"
                        r"|(?:over|during|throughout|across|in) (?:the|these|this|those) "
                        r"(?:conversations?|chats?|journal|diary|correspondence|emails|letters|messages"
                        r"|entries|voice notes))\b", re.I)
_COUNT_Q = re.compile(r"\bhow (?:many|much)\b", re.I)
# "how much did she sell it for", "how much does it cost": a price or a sum of money, not a count
_AMOUNT_Q = re.compile(r"\bhow much\b(?:\s+(?:money|cash))?\s+"
                       r"(?:is|was|are|were|does|did|do|has|have|had|will)\b"
                       r"(?!.*\b(?:weigh|weighs|weighed|sleep|slept|time|water)\b)", re.I)
# how someone gets about: a means of transport ("how does Cerys get to work now", "how does he commute")
_COMMUTE_Q = re.compile(r"^how (?:does|do|did|is|are|was)\b.*\b(?:get(?:s|ting)? (?:to work|to school|"
                        r"to the office|around|about)|commut\w*|travel(?:s|ling)? to work)\b", re.I)
_HOW_VALUE = re.compile(r"^how (?:many|much|old|long|far|often)\b", re.I)
_AGE_Q = re.compile(r"\bhow old\b", re.I)
# a race result: "her 10k PB", "his finishing time", "how fast did she run the half": a duration ("48:59")
_RACE_TIME_Q = re.compile(r"\b(?:pb|pbs|personal (?:best|record)|finish(?:ing)? time|race time|chip time"
                          r"|(?:best|fastest) (?:[\w-]+ ){0,2}time(?!\s+(?:management|of|to|for|zone|slot))"
                          r"|how fast)\b|\btime did .{1,40}?\b(?:run|finish|clock|swim|ride|race)\b"
                          # "her time at the Harbour 10k", "his time in the Berlin marathon"
                          r"|\btime (?:at|in|for) (?:the |her |his |their |my |your )?(?:[\w'-]+ ){0,3}?"
                          r"(?:\d+k|half|marathon|race|parkrun|ultra|triathlon|sportive|relay)\b", re.I)
_DURATION_Q = re.compile(r"\bhow long\b", re.I)
_EVENT_Q = re.compile(
    r"\bwhat (?:happened|happens) (?:to|with)\b|\bwhat became of\b|\bwhat went wrong\b", re.I
)
_ROLE_Q = re.compile(r"\bwhat (?:does|did) (?:\w+(?:['\u2019]s)? ){1,4}do"
                     r"(?: now| these days| nowadays)?\s*\??$"
                     r"|\b(?:do|doing) for (?:work|a living)\b|\bwork as\b|\bdo professionally\b", re.I)
# "what is she driving these days", "what does he ride to work", "what does he use to get around": a
# vehicle, though the question names none (a car when the verb is "drive")
_VEHICLE_Q = re.compile(r"^\s*what\b.*\b(?:(?P<drive>drive|drives|driving)|ride|rides|riding|commute|commutes"
                        r"|commuting|get around|gets around|getting around)\b", re.I)
# "what's", "who's", "where's": a contraction, not a possessive, for the head noun after "X's"
_WH_IS = re.compile(r"\b(what|who|where|which|how|that|it|there|here)['\u2019]s\b", re.I)
_STATUS_Q = re.compile(r"\b(?:relationship|marital) status\b|\brelationship (?:with|between)\b"
                       r"|\bstatus of \w+(?: and \w+)?(?:'s)? relationship\b", re.I)
_NAME_OF = re.compile(r"\bname of ([^?,.]+)", re.I)
# "where has she lived since the move", "where have they travelled": the places over a span, each of them
# ("where has she been living" and "where has he moved to" ask for one, the latest)
_WHERE_HAS = re.compile(r"^\s*where\s+(?:has|have)\s+(?:[\w'’]+\s+){1,3}?(?:lived|worked|stayed|travell?ed|"
                        r"visited|holidayed)\b", re.I)
_NAMES_OF = re.compile(r"\bnames\s+of\b", re.I)  # "the names of her kids": all of them
# "what was Jess's zine called", "what's her dog called": the name of the thing before "called"
_CALLED = re.compile(r"^\s*what(?:['\u2019]s| is| was| are| were)\s+([^?,.]+?)\s+(?:called|named)\s*\??\s*$",
                     re.I)
# "what did Jess name her cat?", "what did they call the baby?": the name given to the noun's one
_NAME_VERB = re.compile(
    r"^\s*what\s+(?:did|do|does|will|would|have|has|had)\s+[^?]+?\s+(?:name|call|nickname)\s+"
    r"((?:his|her|their|the|its|my|your|our|[A-Z][\w-]*['\u2019]s)\s+[^?,.]+?)\s*\??\s*$", re.I)
_OF_ROLE = re.compile(r"\b(?:profession|job|occupation|line of work) of\b", re.I)
_THE_N_OF = re.compile(
    r"^\s*who\s+(?:is|was|are|were)\s+(?:the|a|an)\s+((?:[a-z-]+\s+)?[a-z-]+)\s+(?:of|for|at|in)\b", re.I)
_VERB_END = re.compile(r"\s*(?:(?:now|these days|nowadays|at the moment|currently|at|in|for)\b.*)?\??\s*$",
                       re.I)
_WHICH = re.compile(r"\b(?:which|what)\s+([^?,.]+)", re.I)
# "list all the cities …", "name every pet …": the imperative's object is the head, as after "which"
_LIST_HEAD = re.compile(r"^\s*(?:list|name)\s+(?:(?:all|every|each)\s+)?([^?,.]+)", re.I)
_SUBORDINATE = re.compile(r"\b(?:when|while|whenever|until|if|because)\b", re.I)  # ("look after": no)
_TIME_WORDS = frozenset("now currently then before after as when while during since until".split())
_PHRASE_END = frozenset("is are was were does do did has have had can could will would should that who which "
                        "to in at on for from with like".split())  # "what is his diet like": a diet


# what `Asked.kind` may be
KINDS = ("place", "organisation", "person", "role", "date", "number", "status", "pet_name", "animal",
         "event", "summary", "reason", "manner", "thing")


@dataclass(frozen=True)
class Asked:
    """The kind of value asked for and how: one, many, a count, a yes/no."""

    kind: str  # one of KINDS
    head: str = ""  # the category noun the value must be an instance of ("city", "band")
    many: bool = False  # a list: "which cities has she lived in"
    count: bool = False  # "how many"
    yesno: bool = False  # "is she still …", "did the trip happen"
    recency: bool = False  # "now", "current", "still", "latest"
    nth: int = 0  # "her second puppy": the second value told (0: any)
    within: str = ""  # a list of places inside this one: "which places in Ireland has she lived in"

    def to_trace(self) -> dict[str, object]:
        return {"kind": self.kind, "head": self.head, "many": self.many, "count": self.count,
                "yesno": self.yesno, "recency": self.recency, **({"nth": self.nth} if self.nth else {}),
                **({"within": self.within} if self.within else {})}


def _head_after(words: list[str]) -> str:
    """The first noun-like word after fillers ("kind of", "the name of", possessives)."""
    for w in words:
        if w in _FILLERS or w in _AUX or w == "'s" or w == "'":
            continue
        return w
    return ""


_EMPLOYER_Q = re.compile(r"\b(?:work(?:s|ing|ed)?\s+for|employed\s+by)\b(?:\s+(?:now|currently|these\s+days|"
                         r"nowadays|at\s+the\s+moment|right\s+now|then|before|previously|"
                         r"in\s+\w+(?:\s+\d{4})?))?\s*\??\s*$", re.I)


def asked_for(question: str) -> Asked:
    """The answer kind, head noun and shape of ``question`` (see the module doc), which value told of
    a head noun said with an ordinal ("her second puppy"),

    >>> asked_for("What is the name of Maria's second puppy?").nth
    2

    and, for a list of places, the place they are all in.

    >>> asked_for("Which towns in Wales has Ffion lived in?").within
    'Wales'
    """
    asked = _asked_for(question)
    ordinal = rf"\b({'|'.join(_ORDINALS)})\s+{re.escape(asked.head)}\b"
    said = re.search(ordinal, question, re.I) if asked.head else None
    if said:
        asked = replace(asked, nth=_ORDINALS[said.group(1).lower()])
    region = within_cue(question) if asked.kind == "place" and asked.many else None
    return replace(asked, within=region) if region else asked


def _asked_for(question: str) -> Asked:
    q = _POLITE.sub("", question.strip(), count=1)
    words = tokenize(q)
    first = words[0] if words else ""
    recency = recency_cue(q) is not None or outcome_cue(q) is not None  # "where was it finally held"
    many = count_cue(q) is not None or bool(_OVER_TIME.search(q)) or bool(_NAMES_OF.search(q)) \
        or bool(_WHERE_HAS.search(q))
    yesno = first in _AUX
    if _SUMMARY_START.search(q) or (summary_cue(q) and not yesno):
        return Asked("summary", recency=recency)
    if _AMOUNT_Q.search(q):
        return Asked("number", "amount", recency=recency)
    if _COUNT_Q.search(q):
        noun = _head_after(words[words.index("many") + 1:] if "many" in words else [])
        return Asked("number", singular(noun), many=False, count=True, recency=recency)
    if _AGE_Q.search(q):
        return Asked("number", "age", recency=recency)
    if _RACE_TIME_Q.search(q):
        return Asked("number", RACE_TIME, recency=recency)
    if _DATE_Q.search(q) or _DURATION_Q.search(q):
        return Asked("date", recency=recency)
    if _EVENT_Q.search(q):
        return Asked("event", recency=recency)
    if _STATUS_Q.search(q):
        return Asked("status", "relationship", recency=recency)
    if first == "why":  # a reason is said in a clause, not named by a span of the evidence
        return Asked("reason", recency=recency)
    if _COMMUTE_Q.search(q):  # "how does she get to work now": by bike, by train
        return Asked("thing", "transport", recency=recency)
    if first == "how" and not _HOW_VALUE.search(q):  # "how did she feel", "how did the talk go"
        return Asked("manner", recency=recency)
    if _ROLE_Q.search(q):
        return Asked("role", "job", recency=recency)
    if _OF_ROLE.search(q):
        return Asked("role", "job", recency=recency)
    m = _NAME_OF.search(q) or _CALLED.search(q) or _NAME_VERB.search(q)
    if m:
        noun = singular(_named_noun(m.group(1)))
        kind = "pet_name" if noun in ANIMALS else (
            "person" if HEAD_KIND.get(noun) == "person" else "thing")
        return Asked(kind, noun, many=many, recency=recency)
    head, kind = _wh_head(q)
    vehicle = _VEHICLE_Q.search(q) if not head else None
    if vehicle is not None:
        head, kind = ("car" if vehicle.group("drive") else "vehicle"), "thing"
    if head == "one":  # "is she in a choir, and if so which one?": the noun the yes/no part names
        found = re.search(r"\b(?:a|an|the)\s+([\w-]+)", q, re.I)
        head = singular(found.group(1).lower()) if found else ""
        kind = HEAD_KIND.get(head, "thing")
    if first == "where":
        where_org = re.search(r"\b(?:work|works|working|worked|study|studies|studied|employed)\b", q, re.I)
        kind = "organisation" if first == "where" and where_org else ("place" if first == "where" else kind)
    elif first in ("who", "whom", "whose"):
        # "who does she work for now?", "who is her current employer?": an employer, not a person
        kind = "organisation" if _EMPLOYER_Q.search(q) or kind == "organisation" else "person"
    elif yesno and not head:
        kind = "thing"
    if head == "pet":
        kind = "pet_name"
    elif head in ANIMALS and kind == "thing":
        kind = "animal" if re.search(r"\bwhat (?:kind|type|sort) of\b", q, re.I) else "pet_name"
    if kind == "number" and head in _MONEY_HEADS:  # "what salary did they offer": a sum of money
        head = "amount"
    return Asked(kind, head, many=many and kind not in ("summary",), yesno=yesno, recency=recency)


_ORDINALS = {"second": 2, "third": 3, "fourth": 4}  # "her second puppy" ("first" reads as the earliest)


def requests_summary(question: str) -> bool:
    """An imperative request for an overview ("Describe Ann's year", "Summarise how her move
    went", "How did Ann's job change?"), not a question about what someone described."""
    return _SUMMARY_START.search(_POLITE.sub("", question.strip(), count=1)) is not None


# words that open the clause after a named noun ("the physio *who* treated…", "the place *her* mum…")
_NOUN_END = _PHRASE_END | {"of"}  # "the daughter of Ann's friend": the daughter
_CLAUSE_START = frozenset("""who whom whose which that where when her his their my our your its i we he she
    they you""".split())


def _named_noun(phrase: str) -> str:
    """The noun a "name of …" phrase ends on: "Keisha's family dog" → dog, "the cat Nadia rescued" → cat,
    "the rehab facility Dana's mom went to" → facility (the possessive is the clause's, not the noun's).

    >>> _named_noun("the rehab facility Dana's mom went to"), _named_noun("Keisha's family dog")
    ('facility', 'dog')
    >>> _named_noun("the physio who treated Jonas's shin splints"), _named_noun("the place her mum went to")
    ('physio', 'place')
    >>> _named_noun("the pet belonging to Tom's partner"), _named_noun("the dog in the house where Ann lives")
    ('pet', 'dog')
    >>> _named_noun("the cat owned by Maya's sister"), _named_noun("the daughter of Ann's friend Kasia")
    ('cat', 'daughter')

    """
    words = phrase.split()
    if len(words) > 2 and words[0].lower() in ("the", "a", "an"):  # "the rehab facility Dana's mom went to"
        lead = list(itertools.takewhile(lambda w: w.islower() and w not in _CLAUSE_START | _NOUN_END
                                        and not re.search(r"['\u2019]s?$", w), words[1:]))
        if len(lead) > 1 and lead[-1].endswith("ing") and len(words) > len(lead) + 1 \
                and words[len(lead) + 1] in _PHRASE_END:  # "the pet belonging to Tom's partner": the pet
            lead = lead[:-1]
        if "by" in lead[2:] and lead[lead.index("by") - 1].endswith(("ed", "en")):  # "the cat owned by…"
            lead = lead[: lead.index("by") - 1]
        if lead and len(lead) < len(words) - 1:  # a clause follows the noun: it ends there
            return lead[-1]
    last_poss = max((i for i, w in enumerate(words) if re.search(r"['\u2019]s?$", w)), default=-1)
    rest = [w for w in words[last_poss + 1:] if w.lower() not in ("the", "a", "an")]
    noun: list[str] = []
    for w in rest:
        if w[:1].isupper() or w.lower() in _PHRASE_END | _TIME_WORDS:  # "Owain's dog now": the dog
            break
        noun.append(w.lower())
    return noun[-1] if noun else (rest[-1].lower() if rest else "")


def _wh_head(q: str) -> tuple[str, str]:
    """The head noun after which/what (or after "X's" in "what is X's job"), and its kind."""
    # not in a clause that only places or dates the question ("when he goes to Ann's flat"); the last
    # possessive of a chain names what is asked ("Ana's brother's *job*": a job, not a brother)
    found = list(re.finditer(
        r"['\u2019]s?\s+((?:most\s+)?(?:current|new|latest|recent|newest|previous|favou?rite|old|first|main)\s+)?"
        r"([\w-]+)(?:\s+([\w-]+))?(?:\s+([\w-]+))?",
        _SUBORDINATE.split(_WH_IS.sub(r"\1 is", q), maxsplit=1)[0],
    ))
    who = q.lstrip().lower().startswith(("who ", "whom "))  # "who is Ana's brother's wife": a person noun
    fits = [m for m in found if m.group(2).lower() not in _FILLERS
            and (not who or HEAD_KIND.get(singular(m.group(2).lower())) == "person")]
    poss = fits[-1] if fits else (found[0] if found else None)
    if poss is not None and (poss.group(3) or "")[:1].isupper() and not who \
            and HEAD_KIND.get(singular(poss.group(2).lower())) == "person":
        poss = None  # "where does Tolu's cousin Bisi work": the relative names whose, not what
    for m in (*_LIST_HEAD.finditer(q), *_WHICH.finditer(q)):
        said = m.group(1).split()  # (a name ends the phrase: "list the pets Bo has had")
        cut = next((i for i, w in enumerate(said) if i and w[:1].isupper()), len(said))
        end = said[cut] if cut < len(said) else None  # the word after the phrase
        words = [w.lower() for w in said[:cut]]
        if not words or words[0] in _AUX:
            break  # "what is X's job": the head is after the possessive
        phrase: list[str] = []
        for i, w in enumerate(words):
            if w in _PHRASE_END or w in _AUX or said[i] in _OBJECTS or (w == "of" and any(p not in _FILLERS
                                                                                   for p in phrase)) \
                    or (w == "or" and phrase):  # "what bikes or vehicles": the first names it
                end = said[i]
                break
            if w not in _FILLERS:
                phrase.append(w)
        if len(phrase) == 2 and (_verb_after_noun(phrase[1], end) or _present_verb(phrase, end)):
            phrase = phrase[:1]  # "what injury kept Jonas out", "which band played at": the noun
        if phrase:
            return _pick_head(phrase)
    of = _THE_N_OF.search(q)
    if of and of.group(1).lower() not in _FILLERS:  # "who is the coach of Ana's son", "the head baker at X"
        return _pick_head(of.group(1).lower().split())
    if poss is not None and (poss.group(3) or "").lower().endswith("ing") \
            and q.lstrip().lower().startswith("what") and _VERB_END.match(q[poss.end(3):]):
        return "", "thing"  # "what is Ana's sister studying (now)": what she studies, not the sister
    if poss:
        words = [poss.group(2).lower()]
        if (
            poss.group(3)
            and poss.group(3).islower()
            and poss.group(3) not in _PHRASE_END | _TIME_WORDS | STOPWORDS
        ):
            words.append(poss.group(3))
            third = poss.group(4)  # "Minji's IELTS writing *score*": a third word of the compound
            if third and third.islower() and third not in _PHRASE_END | _TIME_WORDS | STOPWORDS \
                    and singular(third) in HEAD_KIND:
                words.append(third)
        return _pick_head(words)
    return "", "thing"


_OBJECTS = frozenset("him her them me us you it".split())
_DETERMINERS = frozenset("the a an his their my our your its".split())
_PREPOSITIONS = frozenset("at in on for to from with into about".split())


def _verb_after_noun(word: str, end: str | None) -> bool:
    """Whether the second word of a wh-phrase is its verb, not part of its noun: an object follows
    it (a name, a pronoun, an article: "what injury *kept* Jonas out", "what dog *bit* him"), or a
    preposition follows a past tense ("which band *played* at the wedding"). A noun phrase is followed
    by its clause's auxiliary instead ("what finishing time *did* she run").

    >>> _verb_after_noun("kept", "Jonas"), _verb_after_noun("played", "at"), _verb_after_noun("card", "in")
    (True, True, False)
    """
    if end is None or singular(word) in HEAD_KIND:
        return False
    low = end.lower()
    return end[:1].isupper() or low in _OBJECTS or low in _DETERMINERS \
        or (low in _PREPOSITIONS and word.endswith("ed"))


def _present_verb(phrase: list[str], end: str | None) -> bool:
    """Whether a two-word wh-phrase is a known category noun and its verb in the present tense, told
    by the preposition after it: "which cat *lives* with Ines", "which band *plays* at the Crown";
    not "what running shoes in …", whose first word names no category.

    >>> _present_verb(["cat", "lives"], "with"), _present_verb(["running", "shoes"], "in")
    (True, False)
    """
    first, word = phrase
    if end is None or end.lower() not in _PREPOSITIONS or not word.endswith("s") or word.endswith("ss"):
        return False
    known = first in HEAD_KIND or first in ANIMALS
    return word in _PRESENT_VERBS or known and singular(word) not in HEAD_KIND


# verbs a "which <noun> <verb>s with/at/for …" question is asked with
_PRESENT_VERBS = frozenset("""lives plays works runs sings stays sleeps belongs goes comes sits rides drives
    looks helps trains teaches coaches performs meets""".split())


def _pick_head(phrase: list[str]) -> tuple[str, str]:
    """The head of a short noun phrase: a known category noun among its first words ("football
    *team*", "*company* bought"), else its second word ("finishing *time*")."""
    known = [singular(w) for i, w in enumerate(phrase[:3]) if singular(w) in HEAD_KIND
             and not (w == "time" and i + 1 < len(phrase))]  # "time management technique": no time
    plural = [w for w in phrase[:3] if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3]
    # a plural names the head of a list ("home health *aides*"), else the second word ("finishing *time*")
    noun = known[-1] if known else singular(plural[0] if plural else phrase[:2][-1])
    if noun == "time" and phrase[-1] != "time":  # "time management technique": the last noun heads it
        noun = singular(phrase[-1])
    return noun, HEAD_KIND.get(noun, "thing")
