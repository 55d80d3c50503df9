"""Changes read off the parse: a verb's lemma and its arguments, not a sentence's words in order.

People say a new job as an offer or a start ("Brightwell offered me the analyst job", "Corvex made me
an offer", "got the job at Halvard, started Monday", "they passed me on probation"), a new home as
what they have now ("now I have a flat in Gdansk"), and a vehicle by what they picked up ("bought it
on Friday, a 2018 Honda Jazz", "picked up the e-bike"). Each rule here reads a verb of one lemma
class with its subject, objects and prepositions from spaCy's dependency parse. Only sentences
with a cue word of some rule are parsed (a regex over the text), so ingest parses few of them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from typing import Any

from tkg.extract.candidate import CONF_FIRST, CONF_LOOSE, Hit, Sentence
from tkg.extract.compiled import Compiled
from tkg.extract.gazetteer import is_place
from tkg.extract.indirect_changes import _title
from tkg.nlp import parse, pipeline
from tkg.vehicle_words import CAR_MAKES, CAR_MODELS, CAR_NAMES, VEHICLE_NOUNS
from tkg.words import is_common_word

_JOB_CUE = re.compile(r"\b(?:offer(?:ed|s)?|hired|probation|(?:job|position|role)\s+(?:at|with))\b", re.I)
_HOME_CUE = re.compile(r"\b(?:flat|house|apartment|studio|bungalow|cottage|condo|place|home|room)\b", re.I)
_NOW_CUE = re.compile(r"\b(?:now|new|moved?|moving)\b", re.I)
_VEHICLE_CUE = re.compile(r"\b(?:bought|picked|collected|got)\b", re.I)
# the turn turns the offer down: no job
_DECLINED = re.compile(
    r"\b(?:turn(?:ed|ing)?\s+(?:it|them|the\s+\w+)?\s*down|declin\w+|reject\w*|said\s+no)\b", re.I
)
_OFFER_VERBS = frozenset({"offer", "hire", "employ", "pass"})
_JOB_NOUNS = frozenset({"job", "position", "role", "post", "contract", "offer", "place"})
_GET_VERBS = frozenset({"get", "land", "accept", "take", "start"})
_HAVE_VERBS = frozenset({"have", "get", "find", "rent", "buy"})
_HOMES = frozenset("flat house apartment studio bungalow cottage condo place home room".split())
_BUY_VERBS = frozenset({"buy", "pick", "collect", "get"})
# heads of a title the vocabulary lists no word of ("head of science", "deputy head", "team lead")
_TITLE_HEADS = frozenset({"head", "lead", "chief", "deputy", "principal"})
_NOT_MODS = frozenset("new used old second-hand secondhand little big".split())
_VEHICLE_WORDS = VEHICLE_NOUNS | CAR_NAMES | {"bike"}
_CHAT = frozenset("lol lmao lmfao haha omg tbh ngl xx".split())
_FIRST = frozenset({"i", "we", "me", "us"})
_THEY = frozenset({"they", "them"})


def _negated(verb: Any) -> bool:
    return any(c.dep_ == "neg" or c.lower_ in ("would", "could", "might", "may") for c in verb.children)


def _span_text(tok: Any) -> str:
    """A name with its compounds ("Halvard Labs", "brightwell") and an ampersand's second half."""
    left = tok
    while left.i > 0 and left.doc[left.i - 1].dep_ == "compound" and left.doc[left.i - 1].head.i == tok.i:
        left = left.doc[left.i - 1]
    right = tok
    doc = tok.doc
    if right.i + 2 < len(doc) and doc[right.i + 1].text == "&" and doc[right.i + 2].text[:1].isupper():
        right = doc[right.i + 2]  # "Tallis & Finch": one name, not "Tallis" and a conjunct
    return doc[left.i : right.i + 1].text


def _orgish(tok: Any) -> bool:
    """A proper name, or a lower-case word the tagger calls one (texting drops capitals)."""
    return tok.pos_ == "PROPN" and tok.ent_type_ not in ("PERSON", "DATE", "TIME", "GPE")


def _named(tok: Any, *, loose: bool = False) -> bool:
    """A proper name, or a word no dictionary lists ("ferrow" in lower-case texting; `loose`: whatever
    the tagger called it, which lower-case names often fool)."""
    tags = ("NOUN", "ADJ", "ADV", "VERB") if loose else ("NOUN", "ADJ")
    return tok.ent_type_ not in ("DATE", "TIME") and tok.lower_ not in _CHAT and not tok.is_stop and (
        tok.pos_ == "PROPN" or tok.pos_ in tags and tok.is_alpha and not is_common_word(tok.text))


def _noun_phrase(tok: Any) -> str:
    """The noun with its modifiers and an "of" phrase ("deputy head", "head of science")."""
    words = [t for t in tok.lefts if t.dep_ in ("compound", "amod")] + [tok]
    for prep in (p for p in tok.children if p.dep_ == "prep" and p.lower_ == "of"):
        words += [prep, *(t for t in prep.subtree if t.i > prep.i)]
    return " ".join(t.lower_ for t in sorted(words, key=lambda t: t.i))


def _subject_of(verb: Any) -> Any | None:
    """The verb's subject; in lower-case texting the parser often loses it ("so pixelco passed me"),
    so a word no dictionary lists right before the verb stands for it."""
    for c in verb.children:
        if c.dep_ in ("nsubj", "nsubjpass"):
            return c
    if verb.dep_ == "conj" and verb.head.i != verb.i:  # "she finished her masters and got a job"
        return _subject_of(verb.head)
    before = verb.doc[verb.i - 1] if verb.i > 0 else None
    if before is not None and before.is_lower and _named(before, loose=True):
        return before
    return None


def _elided(verb: Any) -> bool:
    """No subject because chat drops "I": the verb opens its sentence ("got the job at ferrow")."""
    return all(t.pos_ in ("INTJ", "ADV", "PUNCT", "CCONJ") for t in verb.doc[verb.sent.start : verb.i])


def _earlier_org(sent: Sentence, doc: Any, before: int) -> Any | None:
    """The last subject before `before` that is a name, in this sentence or the one before it
    ("Brightwell rang. They offered me…")."""
    found = None
    for t in doc[:before]:
        if t.dep_ == "nsubj" and _named(t):
            found = t
    if found is None and sent.before:
        last = list(parse(sent.before).sents)[-1]
        found = next((t for t in reversed(last) if t.dep_ in ("nsubj", "ROOT") and _named(t)
                      and (t.ent_type_ != "PERSON" or t.is_lower)), None)  # lower case fools the tagger
    return found


def _job_hits(sent: Sentence, doc: Any, comp: Compiled) -> list[Hit]:
    out: list[Hit] = []
    reg = sent.registry
    vocab = comp.vocab.get("job_title", frozenset())
    for verb in doc:
        lemma = verb.lemma_.lower()
        if verb.pos_ not in ("VERB", "AUX") or _negated(verb):
            continue
        objs = [c for c in verb.children if c.dep_ in ("dobj", "dative", "attr", "oprd")]
        me = any(c.lower_ in ("me", "us") for c in objs)
        things = [c for c in objs if c.lower_ not in ("me", "us")]
        subj = _subject_of(verb)
        if lemma == "make":  # "X made me an offer" (parsed as a clause "me an offer" as often as not)
            me = me or any(t.lower_ in ("me", "us") for t in verb.subtree)
            things = [t for t in verb.subtree if t.lemma_ == "offer" and t.pos_ == "NOUN"]
        offered = lemma == "offer" or (lemma == "make" and bool(things))
        if me and (offered or lemma in _OFFER_VERBS) and subj is not None:
            if lemma == "pass" and "probation" not in sent.text.lower():
                continue
            if lemma == "offer" and not any(c.lemma_ in _JOB_NOUNS for c in things):
                continue  # "she offered me a lift"
            texted = subj.is_lower and _named(subj, loose=True) and subj.ent_type_ != "PERSON"
            org = subj if _orgish(subj) or texted else _earlier_org(sent, doc, subj.i) \
                if subj.lower_ in _THEY else None
            if org is not None and "works_at" in reg:
                out.append(Hit(sent.speaker, "works_at", _span_text(org), confidence=CONF_LOOSE,
                               anchor=verb.idx + len(verb.text), indirect=True))
            for c in things:  # "the junior analyst job": its title
                before = [t.lower_ for t in c.subtree if t.i < c.i and t.dep_ in ("compound", "amod")]
                title = _title(" ".join(before), vocab)
                if title and "job_title" in reg:
                    out.append(Hit(sent.speaker, "job_title", title, confidence=CONF_LOOSE,
                                   anchor=verb.idx + len(verb.text)))
        elif lemma == "offer" and subj is not None and subj.lower_ in ("i", "we") and "job_title" in reg \
                and any(c.dep_ == "auxpass" for c in verb.children):  # "I've been offered deputy head"
            for c in things:
                phrase = _noun_phrase(c)
                title = _title(phrase, vocab) or (phrase if c.lemma_ in _TITLE_HEADS else None)
                if title:
                    out.append(Hit(sent.speaker, "job_title", title, confidence=CONF_LOOSE,
                                   anchor=verb.idx + len(verb.text)))
        elif lemma in _GET_VERBS and "works_at" in reg and (subj.lower_ in _FIRST if subj is not None
                                                             else _elided(verb)):
            for c in things:  # "got the job at Halvard Labs"
                if c.lemma_ not in _JOB_NOUNS or c.lemma_ == "place":
                    continue
                for prep in (p for p in [*c.children, *verb.children] if p.dep_ == "prep"
                             and p.lower_ in ("at", "with") and p.i > c.i):
                    pobj = next((p for p in prep.children if p.dep_ == "pobj"), None)
                    if pobj is not None and pobj.lower_ in _CHAT:  # "the job at ferrow lol"
                        pobj = next((t for t in pobj.lefts if t.dep_ in ("compound", "amod")), None)
                    if pobj is not None and _named(pobj) and (pobj.pos_ == "PROPN" or not any(
                            t.dep_ == "det" for t in pobj.children)):  # not "the uni"
                        out.append(Hit(sent.speaker, "works_at", _span_text(pobj), confidence=CONF_LOOSE,
                                       anchor=verb.idx + len(verb.text), indirect=True))
    return out


def _home_hits(sent: Sentence, doc: Any) -> list[Hit]:
    """"Now I have a studio in Wilda": a home the speaker has now, in a named place."""
    out: list[Hit] = []
    for verb in doc:
        if verb.lemma_.lower() not in _HAVE_VERBS or verb.pos_ not in ("VERB", "AUX") or _negated(verb):
            continue
        subj = _subject_of(verb)
        if subj is None or subj.lower_ not in ("i", "we"):
            continue
        for obj in (c for c in verb.children if c.dep_ == "dobj" and c.lemma_.lower() in _HOMES):
            preps = [p for p in [*obj.children, *verb.children] if p.dep_ == "prep" and p.lower_ == "in"]
            now = any(t.lower_ in ("now", "new") for t in [*verb.children, *obj.children])
            for prep in preps:
                pobj = next((p for p in prep.children if p.dep_ == "pobj"), None)
                if pobj is None or not now:
                    continue
                place = _span_text(pobj)
                if is_place(place) or (pobj.pos_ == "PROPN" and pobj.ent_type_ != "PERSON"):
                    out.append(Hit(sent.speaker, "lives_in", place, confidence=CONF_FIRST - 0.1,
                                   anchor=verb.idx + len(verb.text), indirect=True))
    return out


def _vehicle(tok: Any) -> str | None:
    """The vehicle a noun phrase names: a make and its model ("Toyota Yaris"), or a kind ("e-bike")."""
    for t in tok.subtree:
        if t.lower_ in CAR_MAKES:
            nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
            model = nxt is not None and nxt.is_alpha is False and nxt.text.isalnum() or nxt is not None \
                and nxt.pos_ == "PROPN"  # "Toyota Yaris", "Honda CB500"
            return f"{t.text} {nxt.text}" if model and nxt is not None else t.text
        if t.lower_ in CAR_MODELS:  # a model said alone: "picked up a little Yaris"
            return t.text
    start = tok.i
    if start >= 2 and tok.doc[start - 1].text == "-" and not tok.doc[start - 2].whitespace_:
        start -= 2
    word = tok.doc[start : tok.i + 1].text.lower()
    if word not in VEHICLE_NOUNS and tok.lower_ not in VEHICLE_NOUNS:
        return None
    mods = [t for t in tok.lefts if t.dep_ in ("compound", "amod") and t.lower_ not in _NOT_MODS]
    return " ".join([*(t.lower_ for t in mods if t.i < start), word])  # "a green cannondale gravel bike"


def _vehicle_hits(sent: Sentence, doc: Any) -> list[Hit]:
    """"bought it on Friday, a 2018 Honda Jazz" / "picked up the e-bike": the speaker owns it."""
    out: list[Hit] = []
    for verb in doc:
        lemma = verb.lemma_.lower()
        if lemma not in _BUY_VERBS or verb.pos_ != "VERB" or _negated(verb):
            continue
        if lemma == "pick" and not any(c.dep_ == "prt" and c.lower_ == "up" for c in verb.children):
            continue
        subj = _subject_of(verb)
        if subj.lower_ not in _FIRST if subj is not None else not _elided(verb):
            continue
        for obj in (c for c in verb.children if c.dep_ == "dobj"):
            named = None
            if obj.lower_ in ("it", "one"):  # the phrase after a comma names it
                named = next((_vehicle(t) for t in verb.subtree if t.i > obj.i
                              and t.dep_ in ("npadvmod", "appos", "conj", "dobj") and _vehicle(t)), None)
            elif lemma != "buy":  # "bought a new bike" is the clause rules' (owns' own verb)
                named = _vehicle(obj)
            if named:
                out.append(Hit(sent.speaker, "owns", named, confidence=CONF_LOOSE,
                               anchor=verb.idx + len(verb.text)))
    return out


def _cued(text: str) -> bool:
    """Whether some rule here may parse a sentence of ``text`` (the cues of `parsed_hits`, read over the
    whole turn: a superset of the sentences it parses)."""
    return bool(_JOB_CUE.search(text) or _HOME_CUE.search(text) and " in " in text and _NOW_CUE.search(text)
                or _VEHICLE_CUE.search(text)
                and not _VEHICLE_WORDS.isdisjoint(re.findall(r"[a-z]+(?:-[a-z]+)?", text.lower())))


def load_parser(texts: Iterable[str]) -> float:
    """Load the parser now when a rule here may parse one of ``texts``, so no timed ingest work pays
    for a model load (as `tkg.embed.load_model` does for the embedder); the seconds it took, 0.0 when
    no text is cued or the parser is loaded already."""
    if not any(_cued(t) for t in texts):
        return 0.0
    started = time.perf_counter()
    pipeline()
    return round(time.perf_counter() - started, 3)


def parsed_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """Job offers and starts, homes had now, vehicles picked up: see the module doc."""
    text = sent.text
    reg = sent.registry
    job = ("works_at" in reg or "job_title" in reg) and _JOB_CUE.search(text) \
        and not _DECLINED.search(sent.turn or text)
    home = "lives_in" in reg and _HOME_CUE.search(text) and " in " in text and _NOW_CUE.search(text)
    vehicle = "owns" in reg and _VEHICLE_CUE.search(text) and not _VEHICLE_WORDS.isdisjoint(
        re.findall(r"[a-z]+(?:-[a-z]+)?", text.lower()))
    if not (job or home or vehicle):
        return []
    doc = parse(text)
    out: list[Hit] = []
    if job:
        out += _job_hits(sent, doc, comp)
    if home:
        out += _home_hits(sent, doc)
    if vehicle:
        out += _vehicle_hits(sent, doc)
    return out
