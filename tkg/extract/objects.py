"""Reading subjects and objects off a match: who "I"/"my sister" is, where an object ends.

An object is the text after the verb up to the first clause break, time
expression or function word ("I moved to Bristol last week with Tom" -> "Bristol"),
minus determiners; multi-valued predicates split lists ("reading, hiking and
painting"). Rejecting pronouns and over-long objects is what keeps precision up.
"""

from __future__ import annotations

import re

from tkg.extract import lexicon as lx
from tkg.extract.candidate import CONF_FIRST, CONF_LOOSE, CONF_SECOND, CONF_THIRD, Hit, Sentence
from tkg.extract.compiled import Compiled
from tkg.extract.gazetteer import spelled_place
from tkg.predicates import Predicate
from tkg.text import ABBREVIATIONS, STOPWORDS

_STOP = re.compile(
    r"[;:!?()\[\]\"\u201c\u201d]|\s[-\u2013\u2014]+\s|\.\.\.|\u2026|\.(?=\s|$)|(?<=\s)(?i:because|cause|cuz|since|so|"
    r"but|while|when|where|which|who|whom|whose|that|if|unless|until|till|though|although|after|before|with|without|"
    r"for|to|as|from|at|by|near|outside|inside|behind|like|then|off|now|anymore|any\s+more|again|too|also|together|already|yet|instead|lately|"
    r"recently|these\s+days|right\s+now|for\s+now|anyway|haha|lol|in|on|into|during|over|about|every|plus|just|soon|"
    r"ever|because|last|next|this|today|yesterday|tonight|tomorrow|here|there|is|was|are|were|has|have|had|will|"
    r"would|and\s+then|i|i'm|i've|it|we|he|she|they|you|twice|once|before|a\s+lot|many\s+times|several\s+times|"
    r"a\s+few\s+times|so\s+much|very\s+much|a\s+bunch|though|all\s+day|every\s+day|each|either|or\s+so|"
    r"afterwards?|later|earlier|lately|tonight|sometimes|often|daily|weekly|regularly|again)\b"
)
_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*(?=[a-z])")
_LEADING = re.compile(
    r"^(?:(?:a|an|the|my|our|his|her|their|your|its|some|this|that|these|those|two|three|four|five|several|"
    r"a\s+few|a\s+couple\s+of|a\s+lot\s+of|lots\s+of|so\s+many|many|new\s+pair\s+of|pair\s+of|brand\s+new|own|"
    r"very\s+own|second[- ]?hand|secondhand|used)\s+)+",
    re.I,
)
_NAMED = re.compile(r"\b(?:named|called)\s+(" + r"[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)?)")
_TRAIL = re.compile(r"[\s.,;:!?'\"\u2019\u201d)\-]+$")
_ONLY_SYMBOLS = re.compile(r"^[\W\d_]+$")
_OTHERS = re.compile(r"(?:his|her|their|its|your)\s", re.I)
_VERBISH = frozenset(
    "makes helps keeps gives means is was has gets feels brings lets takes made helped kept gave "
    "meant got felt brought took".split()
)
# "(our) dog Biscuit", "(my) little sister Megan": a pet or a person named after what it is
_APPOSITIVE = re.compile(r"^((?:[a-z][\w\-]*\s+){1,2})([A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)?)$")
# Heads that only point back at something named elsewhere ("the grim ones", "that kind of stuff").
_PRONOUN_HEADS = frozenset("one ones stuff thing things kind sort type lot bit".split())
# Words that stand before a person's name without being a verb ("my neighbour Derek").
PERSON_NOUNS = frozenset(
    """
    friend neighbour neighbor colleague coworker co-worker boss manager cousin uncle aunt nephew niece grandma
    grandpa grandmother grandfather mate flatmate roommate housemate classmate teacher doctor partner
    boyfriend
    girlfriend husband wife fiance fiancé fiancee fiancée sister brother mum mom dad son daughter buddy pal
    """.split()
)
_SIMPLE_NAME = re.compile(r"^[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?$")
_NOT_A_NAME = re.compile(r"(?:ing|ive|ful|ous|able|ible|less|ly|ed|ness|ment|tion|[^uiaoes]s)$")
_TRAIL_ADVERB = re.compile(r"(?:\s+[a-z]+ly)+[\s.,!?]*$")  # "Cork originally", "jazz obviously"
_COMMA_LIST = re.compile(r",[^,]*\b(?:and|or)\b")


def is_name(text: str) -> bool:
    """Whether a capitalised run is plausibly a name, not a sentence-initial word ("Wow", "Irish")."""
    if not text.strip():
        return False
    words = text.split()
    first = words[0].lower().rstrip(".")
    if len(words) == 1 and first in _LONE_OPENERS:
        return False
    return first not in lx.NOT_NAMES and first not in lx.NATIONALITIES and text[0].isupper()


# Capitalised only because they open a sentence: "Meet Pumpkin, my new cat!" (an imperative
# before a name) and "Big news: ..." (an adjective alone; "Big Ben" stays a name).
_IMPERATIVE = re.compile(r"^(?:meet|say hi to|say hello to|guess|welcome|introducing)\s+(?=[A-Z])", re.I)
_LONE_OPENERS = frozenset(
    "meet say guess welcome big huge great good quick fun sad happy exciting amazing awesome lovely nice "
    "crazy".split()
)


def clean_name(text: str) -> str:
    """Trailing possessive and punctuation, and a leading sentence opener, off a name:
    "Megan's" -> "Megan", "Meet Pumpkin" -> "Pumpkin"."""
    text = _TRAIL.sub("", text.strip())
    text = _IMPERATIVE.sub("", text)
    return text[:-2] if text.endswith("'s") else text


_NAME_GLUE = frozenset("of de the and & for la le du van von del da di at on upon".split())


# Words that, right after a name, start the rest of the clause rather than continue the name.
_CLAUSE_GOES_ON = frozenset(
    "went goes go is was were are has had got gets seems seemed feels felt looks looked "
    "starts started begins began ends ended flew flies came comes took takes made makes "
    "kept keeps ran runs did does gave gives sounds sounded rocks sucks".split()
)


def _name_run(words: list[str]) -> list[str]:
    """A capitalised name without the clause that goes on after it ("Brightwater Labs went fine");
    a lowercase noun after it stays ("Rotterdam marathon" is not "Rotterdam")."""
    run: list[str] = []
    for i, w in enumerate(words):
        if not (w[:1].isupper() or w[:1].isdigit() or w.lower() in _NAME_GLUE):
            low = w.lower()
            nxt = words[i + 1].lower() if i + 1 < len(words) else ""
            verb = low in _CLAUSE_GOES_ON or (low.endswith(("ed", "ing")) and (
                not nxt or nxt in STOPWORDS or len(run) > 1))  # "Quillfern Education writing science content"
            if not verb:
                return words  # "LGBTQ counseling workshop"
            break  # "Crete visiting my aunt", "Lumeway the following Monday"
        run.append(w)
    while run and run[-1].lower() in _NAME_GLUE:
        run.pop()
    return run or words[:1]


def _place_run(words: list[str]) -> list[str]:
    """A place name without the clause after it ("Crete visiting my aunt" -> "Crete"); a noun after
    the name stays ("the Harry Potter conference")."""
    return _name_run(words)


def _cut(text: str) -> str:
    for m in _STOP.finditer(text):
        if m.group(0) == ".":
            before = text[: m.start()].split()
            last = before[-1].lower() if before else ""
            if last in ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
                continue
        return text[: m.start()]
    return text


def _finish(raw: str, pred: Predicate) -> str | None:
    if _OTHERS.match(raw.strip()):
        return None  # "I love their work": the object is someone else's
    obj = _LEADING.sub("", raw.strip())
    named = _NAMED.search(obj)
    if named:
        obj = named.group(1)
    obj = _TRAIL.sub("", _TRAIL_ADVERB.sub("", obj)).strip()
    while obj and not any(ch.isalnum() for ch in obj.split()[-1]):
        obj = _TRAIL.sub("", obj.rsplit(None, 1)[0] if " " in obj else "").strip()  # "Pepper 🐱" -> "Pepper"
    if obj.endswith("'s") and pred.object_type != "organisation":
        obj = obj[:-2]
    words = obj.split()
    if (
        not words
        or _ONLY_SYMBOLS.match(obj)
        or words[0].lower() in lx.PRONOUN_OBJECTS
        or words[0] in ("I", "i")
    ):
        return None
    if all(w.lower() in STOPWORDS for w in words) or (len(words) > 1 and words[0].lower() in _VERBISH):
        return None  # "the things I love makes writing fun"
    if pred.object_type == "organisation" and words[0][:1].isupper():
        words = _name_run(
            words
        )  # "Brightwater Labs went fine", "Acme going": the name ends at its last capital
    while (
        len(words) > 1
        and words[0][:1].isupper()
        and words[-1].islower()
        and words[-1].endswith(("ing", "ed"))
    ):
        words = words[:-1]  # "your new job at Acme going": the question's verb is not the name
    if words[-1].lower() in _PRONOUN_HEADS:
        return None  # "the grim ones" names nothing by itself
    appositive = _APPOSITIVE.match(" ".join(words)) if pred.object_type in ("pet", "person") else None
    if appositive:
        # "dog Biscuit" -> "Biscuit", "little sister Megan" -> "Megan"; but in "booked Japan" or
        # "heard of Halcyon" the words before the name are a verb, not what the name is.
        if "late" in appositive.group(1).lower().split():
            return None  # "my late wife Irene": no current relation to read
        head = appositive.group(1).split()[-1].lower()
        kinds = {n.lower() for n in pred.nouns} | (PERSON_NOUNS if pred.object_type == "person" else set())
        if head not in kinds and head.rstrip("s") not in kinds:
            return None
        words = appositive.group(2).split()
    if pred.proper_object:
        caps = [i for i, w in enumerate(words) if w[0].isupper() and w != "I"]
        if not caps:
            if pred.object_type != "place":
                return None
            # texting drops capitals: "my flat in malmö 😭" -> "Malmö"
            return next((p for n in (3, 2, 1) if (p := spelled_place(" ".join(words[:n])))), None)
        words = words[caps[0]:]
        if pred.object_type == "place":
            words = _place_run(words)  # "Crete visiting my aunt" -> "Crete"
    if len(words) > pred.max_object_words:
        return None
    return " ".join(words)


def take_objects(sent: Sentence, start: int, pred: Predicate, *, allow_list: bool = True) -> list[str]:
    """The object(s) of `pred` that begin at `start` in the sentence.

    >>> # "I moved to Bristol last week with Tom" -> ["Bristol"]
    """
    end = len(sent.text)
    for t in sent.times:
        if t.span[0] >= start:
            end = min(end, t.span[0])
            break
    segment = sent.text[start:end]
    lead = _LEADING.match(segment.lstrip())
    offset = len(segment) - len(segment.lstrip()) + (lead.end() if lead else 0)
    body = segment[:offset] + _cut(segment[offset:]) if offset else _cut(segment)
    if "," in body and not _COMMA_LIST.search(body):
        body = body.split(",", 1)[0]  # "Under Armour, working with them ..." is not a list
    if pred.cardinality == "multi" and allow_list:
        out: list[str] = []
        for i, item in enumerate(i for i in _LIST_SPLIT.split(body) if i.strip()):
            obj = _finish(item, pred) if not (i and len(item.split()) > 3) else None
            if obj is None:
                break  # the list ends where an item stops looking like one
            out.append(obj)
        return out
    first = (
        _LIST_SPLIT.split(body, maxsplit=1)[0]
        if pred.proper_object
        else re.split(r"\s*,\s*|\s+and\s+", body)[0]
    )
    obj = _finish(first, pred)
    return [obj] if obj else []


def vocab_ok(obj: str, vocab: frozenset[str], *, strict: bool) -> bool:
    """An object a loose verb may take: a vocabulary word (or its plural) as head, or a short name."""
    low = obj.lower()
    if len(low.split()) > 2:
        return False  # "that stuffed animal dog you gave me" is not a pet
    head = low.split()[-1]
    if low in vocab or head in vocab or head.rstrip("s") in vocab or " ".join(low.split()[-2:]) in vocab:
        return True
    return not strict and bool(_SIMPLE_NAME.match(obj)) and is_name(obj)


_BEFORE_SUBJECT = frozenset(
    """
    and but so because cause cuz then now when if that since while after before as also yes yeah yep oh well
    actually honestly really today tonight yesterday recently finally first plus though although where what
    how why
    who said say says think thought guess know knew hope feel felt believe mean meant wish sure glad happy
    proud
    excited course bet lol haha ok okay hey hi wow omg anyway anyways btw just once until till whenever unless
    whether night week weekend month year ago morning evening afternoon day time even still again too not or
    nor
    which whom whose lately eventually luckily sadly unfortunately fortunately hopefully meanwhile also and
    days weeks months years nights weekends ages while later earlier soon there here
    """.split()
)
_PREV_WORD = re.compile(r"([A-Za-z']+)\W*$")
# A short prepositional phrase opening the sentence ("After the reshuffle I report to Dana",
# "Since the merger we work at Acme"): the pronoun after it is the main clause's subject.
_FRONTED = re.compile(r"^(?:after|before|since|following|during|in|on|at|from|with|over|until|by|as\s+of|"
                      r"throughout|within)\s+(?:[\w'\-]+\s+){0,4}$", re.I)


def _relative_clause(sent: Sentence, start: int) -> bool:
    """Whether the pronoun at `start` opens a relative clause ("the band I love"), judged by the word
    before; not after a fronted phrase or time ("After the merger I ...", "Last spring we ...")."""
    text = sent.text
    m = _PREV_WORD.search(text, max(0, start - 30), start)
    if m is None or text[m.end(1):start].strip():
        return False  # sentence start or punctuation in between
    if _FRONTED.match(text[:start]) or any(t.span[1] <= start and not text[t.span[1]:start].strip(" ,")
                                           for t in sent.times):
        return False
    word = m.group(1)
    if not text[:m.start(1)].strip() or word.endswith("wise"):
        return False  # "work-wise I'm …", "tbh I …": a sentence's first word heads no relative clause
    return word.islower() and not word.endswith("ly") and word not in _BEFORE_SUBJECT


def relative(sent: Sentence, owner: str, noun: str, comp: Compiled) -> tuple[str, list[Hit]]:
    """An unnamed relative ("my mom") as an entity name, and the kinship hits that tie it to its owner."""
    canon = lx.CANONICAL_KIN.get(noun.lower(), noun.lower())
    name = f"{owner}'s {canon}"
    hits: list[Hit] = []
    for pred, inverse in comp.rel_nouns.get(noun.lower(), []):
        s, o = (name, owner) if inverse else (owner, name)
        hits.append(Hit(s, pred, o, confidence=CONF_LOOSE))
    return name, hits


_CAPITALISED = re.compile(r"\b[A-Z][a-z][\w'\-]*(?:\s+[A-Z][a-z][\w'\-]*)?")


def _referent(sent: Sentence, at: int) -> str | None:
    """Who "he"/"she" at `at` is: the one person named earlier in the turn, if there is exactly one
    ("my sister Megan ... She lives in Manchester"); with two or none, no one."""
    people = set(sent.people_before)
    for m in _CAPITALISED.finditer(sent.text, 0, at):
        name = clean_name(m.group(0))
        if m.start() > 0 and is_name(name) and name != sent.speaker and name not in sent.listeners:
            people.add(name)
    people = {p for p in people if not any(p != q and p in q for q in people)}  # "Dana" inside "Dana Okafor"
    return next(iter(people)) if len(people) == 1 else None


_OPENERS = frozenset({"And", "But", "So", "Then", "Also", "Now", "Oh", "Well"})


def subjects(m: re.Match[str], sent: Sentence, comp: Compiled) -> list[tuple[str, float, list[Hit]]]:
    """Who a clause's subject group names: [(subject, confidence, extra kinship hits)]."""
    subj = m.group("subj")
    low = subj.lower()
    if m.groupdict().get("rnoun"):
        rname = m.group("rname")
        if rname and is_name(rname):
            return [(clean_name(rname), CONF_FIRST, [])]
        owner = sent.owner(m.group("rposs"))
        if owner is None or (owner[0].isupper() and owner == m.group("rposs")[:-2] and not is_name(owner)):
            return []
        name, hits = relative(sent, owner, m.group("rnoun"), comp)
        return [(name, CONF_LOOSE, hits)]
    if low in ("i", "we", "you") and _relative_clause(sent, m.start()):
        return []  # "a company I like", "the things we love": the object is behind us
    if low.startswith("congrat"):
        return [(sent.listener, CONF_SECOND, [])] if sent.listener else []
    if low in ("i", "we") or low.endswith(" i") or m.groupdict().get("co2"):
        out: list[tuple[str, float, list[Hit]]] = [(sent.speaker, CONF_FIRST, [])]
        co = m.groupdict().get("co") or m.groupdict().get("co2")
        before = sent.text[: m.start()].rstrip()
        if (
            co and is_name(co) and (not before or before[-1] in ",;:!?.-")
        ):  # not "I live in Bristol and I ..."
            out.append((clean_name(co), CONF_THIRD, []))
        return out
    if low == "you":
        return [(sent.listener, CONF_SECOND, [])] if sent.listener else []
    if m.groupdict().get("pron"):
        ref = _referent(sent, m.start())
        return [(ref, CONF_THIRD - 0.1, [])] if ref else []
    name = m.group("name") or ""
    if m.groupdict().get("co3") and name.split(" ", 1)[0] in _OPENERS:
        name = name.split(" ", 1)[-1]  # "And Walter and Irene moved": Walter
    if not name or not is_name(name):
        return []
    if m.start() == 0 and " " not in name and _NOT_A_NAME.search(name):
        return []  # "Dogs love walks", "Painting helps", "Impressive plan you've got"
    co3 = m.groupdict().get("co3")  # "Walter and Irene moved into …": both of them
    both: list[tuple[str, float, list[Hit]]] = [(clean_name(name), CONF_THIRD, [])]
    if co3 and is_name(co3):
        both.append((clean_name(co3), CONF_THIRD, []))
    return both
