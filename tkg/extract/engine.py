"""`extract()`: one turn in, candidate facts out, read from the speaker's side.

Per sentence: find its time expressions, decide whether it states anything
(questions and hypothetical clauses do not; possessives inside them still presuppose),
run the rules (clauses, noun phrases, indirect statements), resolve what claims point
back at ("sold it", "the Corolla", "she"), keep only values of the predicate's kind,
attach each claim's time, and resolve corrections ("actually, it's Leeds, not York")
against what was said earlier in the turn or in `history`. Per turn, a slot said outright
outranks one read off an indirect shape, and a named pet replaces its species.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from tkg.extract.candidate import CONF_CONTEXT, Candidate, Hit, Sentence
from tkg.extract.clauses import clause_hits, copula_hits, plan_hits, together_hits
from tkg.extract.compiled import Compiled, compile_registry
from tkg.extract.coref import resolve
from tkg.extract.gazetteer import population
from tkg.extract.indirect import home_and_work_hits, pet_name_hits
from tkg.extract.indirect_changes import (
    change_hits,
    role_hits,
    stolen_and_promoted_hits,
    trip_by_place_hits,
    trip_done_hits,
)
from tkg.extract.lexicon import NOT_NAMES
from tkg.extract.mentions import mentions
from tkg.extract.parsed import parsed_hits
from tkg.extract.phrases import (
    birthday_hits,
    favorite_hits,
    np_hits,
    pet_gone_hits,
    pet_named_hits,
    trip_hits,
)
from tkg.extract.typecheck import typed
from tkg.models import as_utc
from tkg.predicates import PredicateRegistry
from tkg.text import normalize_name, split_sentences, without_long_words
from tkg.timeparse import find_times

_QUESTION_START = re.compile(
    r"^\s*(?:(?:so|and|but|oh|hey|well|wait|also|btw|by the way|and so|ok|okay|um)[,!]?\s+)*(?:do|does|did"
    r"|are|is|am|"
    r"was|were|have|has|had|can|could|would|will|should|shall|may|might|how|what|where|when|why|who|which|whose|"
    r"ever|any|isn't|aren't|didn't|don't|doesn't|haven't|hasn't|wasn't|won't|wouldn't|can't|couldn't)\b",
    re.I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|whether|suppose|supposing|imagine|imagining|wish|wished|what\s+if|in\s+case|pretend|"
    r"dream(?:s|ing|ed|t)?\s+(?:of|about)|maybe|perhaps|hypothetically|someday|some\s+day)\b",
    re.I,
)
# Clauses a hypothetical marker governs: split at ":" ";" " - " and ", but".
_CLAUSE = re.compile(r"[^:;\u2014\u2013]+?(?=\s*(?:[:;\u2014\u2013]|\s-\s|,?\s+but\s+)|$)")
_CORRECTION = re.compile(
    r"^\s*(?:(?:oh|sorry|wait|no|oops|sorry,?\s+no|my\s+bad|um)[,!.]?\s+)*(?:actually|correction|i\s+meant(?!\s+to\s)|i\s+mean(?!\s+to\s)|"
    r"to\s+be\s+clear|scratch\s+that|let\s+me\s+correct\s+(?:that|myself))\b[,:]?\s*",
    re.I,
)
_NOT_BUT = re.compile(
    r"(?:\b(?:it's|it\s+is|it\s+was|that's|that\s+was|i\s+meant|i\s+mean)\s+(?:actually\s+)?(?P<new>[^,.;!?]{1,60}?)"
    r"\s*,?\s+not\s+(?P<old>[^,.;!?]{1,60}))|(?:\bnot\s+(?P<old2>[^,.;!?]{1,60}?)\s*,?\s+but\s+(?P<new2>[^,.;!?]{1,60}))"
    r"|(?:\bi\s+meant\s+(?!to\s)(?P<new3>[^,.;!?]{1,60}))",
    re.I,
)
# A time before a claim belongs to it only within its clause: in "my sabbatical ends in November
# and I've decided to stay: I accepted a job at X" the job is not dated November.
# what parts one clause from the next: a colon, a dash, ", but", "… in July and I've got a job"
_CLAUSE_BREAK = re.compile(r"[:;]|\s[-\u2013\u2014]\s|,\s+(?:but|though|although|whereas|while)\b"
                           r"|\s+and\s+(?:I|we)(?:'ve|'m|'d|\s+have|\s+had)\b")
_PAUSE = re.compile(r"\s*(?:\.\.\.|\u2026)\s+(?=[a-z])")
_HE_SHE = re.compile(r"\b(?:[Ss]he|[Hh]e)\b")
_ARTICLE = re.compile(r"^(?:the|a|an|in|at|to|from)\s+", re.I)
_PARTNER_PREDS = ("engaged_to", "married_to", "partner_of")


# Chat drops the subject: "Packed everything up and moved to Bruges!", "Just adopted a kitten."
# Such a sentence starting with a past-tense life-event verb is the speaker's; so is a verb
# coordinated after a first-person clause ("I sold the flat and moved to Leeds").
_EVENT_VERBS = (
    r"(?:packed|moved|relocated|settled|started|adopted|rescued|bought|sold|got|joined|quit|left|lost|began|"
    r"promoted|signed|found|rented)"
)
_ELIDED = re.compile(r"^(?=(?:(?:just|finally|officially|recently|also)\s+)?" + _EVENT_VERBS + r"\b)", re.I)
_ELIDED_GERUND = re.compile(
    r"^(?=(?:(?:just|finally|also|so|officially)\s+)?(?:moving|relocating|heading|flying)\s)", re.I
)
_COORDINATED = re.compile(
    r"\b(and(?:\s+then)?|then)\s+(?=(?:(?:just|finally)\s+)?" + _EVENT_VERBS + r"\b)", re.I
)
_FIRST_PERSON = re.compile(r"^(?:[A-Z][a-z]+,?\s+)?I\b")


# "Siobhan's moved to Boston": a name's "'s" before a past participle is "has", not a possessive
_NAME_HAS = re.compile(
    r"\b(?!(?:She|He|It|That|There|What|Who|Where|Here|Let)['\u2019])([A-Z][a-z]+)['\u2019]s\s+(?=(?:(?:just|finally|also|now|recently)\s+)?(?:moved|started|got|quit|left|"
    r"joined|bought|sold|adopted|split|broken|finished|taken|found|landed|gone|retired|resigned|switched|"
    r"married|relocated|signed)\b)"
)


def spell_out_subject(text: str) -> str:
    """The sentence with an elided "I" written out, and a name's "'s" that stands for "has", for the
    clause rules only.

    >>> spell_out_subject("Packed everything up and moved to Bruges!")
    'I packed everything up and I moved to Bruges!'
    >>> spell_out_subject("Siobhan's moved to Boston, and Siobhan's flat is tiny.")
    "Siobhan has moved to Boston, and Siobhan's flat is tiny."
    """
    if _ELIDED.match(text):
        text = "I " + text[0].lower() + text[1:]
    elif _ELIDED_GERUND.match(text):
        text = "I'm " + text[0].lower() + text[1:]  # "moving back to Perth in May" -> a plan
    if _FIRST_PERSON.match(text):
        text = _COORDINATED.sub(lambda m: m.group(1) + " I ", text)
    return _NAME_HAS.sub(r"\1 has ", text)


def _sentence(text: str, index: int, speaker: str, listeners: Sequence[str], when: datetime,
              registry: PredicateRegistry) -> Sentence:
    text = spell_out_subject(without_long_words(text.replace("\u2019", "'").replace("\u2018", "'")))
    text = _PAUSE.sub(" ", text)  # "Lukas is... my boyfriend": the rules read it without the pause
    sent = Sentence(text, index, speaker, listeners, when, registry)
    sent.times = find_times(sent.text, when)
    sent.question = sent.text.rstrip().endswith("?") or bool(_QUESTION_START.match(sent.text))
    clauses = ([(m.start(), m.end()) for m in _CLAUSE.finditer(sent.text) if re.search(r"\w", m.group(0))]
               if _HYPOTHETICAL.search(sent.text) else [])
    iffy = [span for span in clauses if _HYPOTHETICAL.search(sent.text, *span)]
    # "I don't know if this is the right moment, but I have news: I proposed to Ana": the "if" governs
    # its own clause only; the sentence is hypothetical when every clause is.
    sent.hypothetical = bool(iffy) and len(iffy) == len(clauses)
    sent.iffy = iffy
    sent.correction = bool(_CORRECTION.match(sent.text))
    return sent


def _attach_time(hits: list[Hit], sent: Sentence) -> list[tuple[Hit, datetime | None, str | None]]:
    """Each claim takes the time expression right after its verb, else the nearest one before it,
    in its own clause (no colon, semicolon or dash between them)."""
    out: list[tuple[Hit, datetime | None, str | None]] = []
    for h in hits:
        if h.anchor < 0 or not sent.times:
            out.append((h, None, None))
            continue
        key = normalize_name(h.object)
        nxt = min((g.anchor for g in hits if g.anchor > h.anchor and normalize_name(g.object) != key),
                  default=len(sent.text) + 1)
        # a time of its own clause: not "he moved here 5 yrs ago" for "my manager is olu — he moved …"
        after = [t for t in sent.times if h.anchor <= t.span[0] < nxt
                 and not _CLAUSE_BREAK.search(sent.text, h.anchor, t.span[0])]
        before = [
            t
            for t in sent.times
            if t.span[1] <= h.anchor and not _CLAUSE_BREAK.search(sent.text, t.span[1], h.anchor)
        ]
        ref = after[0] if after else (before[-1] if before else None)
        out.append((h, ref.start, ref.text) if ref else (h, None, None))
    return out


def _clean(text: str) -> str:
    return _ARTICLE.sub("", text.strip(" \t'\"")).strip()


def _corrections(sent: Sentence, context: list[Hit], registry: PredicateRegistry) -> list[Hit]:
    """"it's Leeds, not York" / "I meant Leeds": re-say the earlier claim with the new object."""
    m = _NOT_BUT.search(sent.text)
    if m is None and sent.correction:
        rest = _CORRECTION.sub("", sent.text).strip(" .!")
        if 0 < len(rest.split()) <= 4:
            new, old = rest, None
        else:
            return []
    elif m is None:
        return []
    else:
        new = m.group("new") or m.group("new2") or m.group("new3")
        old = m.group("old") or m.group("old2")
    new = _clean(new)
    words = new.split()
    while words and not any(ch.isalnum() for ch in words[-1]):
        words.pop()  # "yes 😊"
    new = " ".join(words)
    if not new or new.split()[0].lower().strip(",.!") in NOT_NAMES:
        return []  # "Actually yes" answers; it corrects nothing
    old_key = normalize_name(_clean(old)) if old else None
    # A speaker corrects their own slip first ("Oops, I meant Brno" after their own "I moved to
    # Ohrid", with the listener's news in between); only then what the listener said.
    own = [h for h in context if h.subject == sent.speaker]
    theirs = [h for h in context if h.subject != sent.speaker and h.subject in sent.listeners]
    for h in [*reversed(own), *reversed(theirs)]:
        if old_key is not None and normalize_name(h.object) != old_key:
            continue
        if old_key is None and not registry.is_single(h.predicate):
            continue
        if registry.get(h.predicate).proper_object and not new[:1].isupper():
            continue  # a place is corrected by a name
        return [
            replace(
                h, object=new, correction=True, confidence=min(h.confidence, CONF_CONTEXT + 0.2), anchor=-1
            )
        ]
    return []


def _partner(hits: Sequence[Hit], speaker: str) -> str | None:
    for h in reversed(hits):
        if h.predicate in _PARTNER_PREDS and h.polarity == "assert":
            if h.subject == speaker:
                return h.object
            if h.object == speaker:
                return h.subject
    return None


def _sentence_hits(sent: Sentence, comp: Compiled, context: list[Hit]) -> list[Hit]:
    """Every rule's hits for one sentence; questions and hypotheticals only presuppose."""
    if sent.hypothetical:
        return np_hits(sent, comp) if not sent.question else []
    if sent.iffy:  # hypothetical clauses inside a stated sentence: their claims are dropped
        return [h for h in _stated_hits(sent, comp, context)
                if not any(a <= h.anchor <= b for a, b in sent.iffy) or h.anchor < 0 and not sent.question]
    return _stated_hits(sent, comp, context)


def _stated_hits(sent: Sentence, comp: Compiled, context: list[Hit]) -> list[Hit]:
    """The rules' hits for a sentence that states something (a question only presupposes)."""
    hits = np_hits(sent, comp) + favorite_hits(sent)
    if sent.question:
        return hits
    hits += clause_hits(sent, comp) + copula_hits(sent, comp) + plan_hits(sent, comp)
    hits += birthday_hits(sent) + trip_hits(sent) + pet_gone_hits(sent, comp) + pet_named_hits(sent, comp)
    hits += home_and_work_hits(sent) + pet_name_hits(sent, comp) + stolen_and_promoted_hits(sent, comp)
    hits += trip_by_place_hits(sent) + role_hits(sent, comp) + parsed_hits(sent, comp)
    partner = _partner(context + hits, sent.speaker)
    hits += together_hits(sent, comp, partner) + change_hits(sent, context + hits, partner)
    hits += trip_done_hits(hits, context, sent)
    if not hits or sent.correction:
        hits += _corrections(sent, context, sent.registry)
    return hits


def _prune(hits: list[Hit]) -> list[Hit]:
    """Drop hits a stronger one in the same sentence contradicts or refines."""
    retracted = {(h.subject, h.predicate, normalize_name(h.object)) for h in hits if h.polarity == "retract"}
    hits = [h for h in hits if h.polarity == "retract" or (h.subject, h.predicate, normalize_name(h.object))
            not in retracted]  # "I quit my job at Acme": the possessive does not assert it
    named_pets = {h.subject for h in hits if h.predicate == "has_pet" and h.object[:1].isupper()}
    return [h for h in hits if not (h.predicate == "has_pet" and h.subject in named_pets
                                    and h.object[:1].islower())]  # "two dogs, Rex and Bo": not also "dogs"


def extract(
    text: str,
    *,
    speaker: str,
    listeners: Sequence[str],
    when: datetime,
    registry: PredicateRegistry,
    history: Sequence[Candidate] = (),
) -> list[Candidate]:
    """Candidate facts stated in one turn, subjects resolved from the speaker's side.

    `history` (optional) holds candidates from earlier turns of the same conversation, oldest
    first; it is only read to resolve corrections and "we got engaged" partners.

    >>> from datetime import UTC
    >>> reg = PredicateRegistry.load()
    >>> [(c.subject, c.predicate, c.object) for c in extract("I moved to Bristol last week.",
    ...     speaker="Priya", listeners=["Marco"], when=datetime(2023, 5, 8, tzinfo=UTC), registry=reg)]
    [('Priya', 'lives_in', 'Bristol')]
    """
    when = as_utc(when) or when
    comp = compile_registry(registry)
    context: list[Hit] = [
        Hit(c.subject, c.predicate, c.object, c.qualifier, c.polarity, c.confidence) for c in history
    ]
    results: list[Candidate] = []
    seen: dict[tuple[str, str, str, str, str], int] = {}
    indirect: set[tuple[str, str, str]] = set()
    sentences = _pauses_joined(split_sentences(text))
    for index, raw in enumerate(sentences):
        sent = _sentence(raw, index, speaker, listeners, when, registry)
        sent.before = " ".join(sentences[:index])
        sent.turn = text
        if index and _HE_SHE.search(raw):
            sent.people_before = tuple(
                n
                for n, kind in mentions(sent.before, speaker=speaker, listeners=listeners)
                if kind == "person" and n != speaker and n not in listeners
            )
        hits = resolve(_prune(_sentence_hits(sent, comp, context)), sent, context)
        hits = typed(hits, registry, {speaker, *listeners})
        indirect.update((h.subject, h.predicate, h.object) for h in hits if h.indirect)
        for hit, valid_at, time_text in _attach_time(hits, sent):
            if normalize_name(hit.subject) == normalize_name(hit.object) or not hit.object.strip():
                continue
            pred = registry.get(hit.predicate)
            key = (hit.subject, hit.predicate, normalize_name(hit.object), hit.qualifier, hit.polarity)
            cand = Candidate(
                subject=hit.subject,
                predicate=hit.predicate,
                object=hit.object,
                qualifier=hit.qualifier,
                polarity=hit.polarity,
                confidence=round(hit.confidence, 3),
                valid_at=valid_at,
                time_text=time_text,
                correction=(hit.correction or sent.correction) and pred.single,
                sentence=raw,
                sentence_index=index,
                subject_type=pred.subject_type,
                object_type=hit.object_type or pred.object_type,
            )
            if key in seen:
                prev = results[seen[key]]
                if cand.confidence > prev.confidence or (cand.valid_at and not prev.valid_at):
                    results[seen[key]] = replace(cand, confidence=max(cand.confidence, prev.confidence))
                continue
            seen[key] = len(results)
            results.append(cand)
        context.extend(hits)
    return _direct_first(results, indirect, registry)


def _pauses_joined(sentences: list[str]) -> list[str]:
    """A trailing "..." before a lower-case word is a pause, not a sentence's end: "Lukas is... my
    boyfriend" says one thing."""
    out: list[str] = []
    for s in sentences:
        if out and out[-1].rstrip().endswith(("...", "\u2026")) and s[:1].islower():
            out[-1] = f"{out[-1]} {s}"
        else:
            out.append(s)
    return out


def _direct_first(results: list[Candidate], indirect: set[tuple[str, str, str]],
                  registry: PredicateRegistry) -> list[Candidate]:
    """A single-valued slot said outright in the turn ("I live in Lisbon now") outranks one read
    off an indirect shape in the same turn ("got the keys to a flat in Alfama")."""
    direct = {(c.subject, c.predicate) for c in results if c.polarity == "assert"
              and (c.subject, c.predicate, c.object) not in indirect}
    kept = [
        c
        for c in results
        if not (
            (c.subject, c.predicate, c.object) in indirect
            and registry.is_single(c.predicate)
            and (c.subject, c.predicate) in direct
        )
    ]
    # Two indirect homes in one turn ("Greetings from Vienna! ... found a flat in Neubau"): the slot
    # holds one, so keep the larger place the gazetteer knows (the city, not the district).
    best: dict[tuple[str, str], int] = {}
    for c in kept:
        if (c.subject, c.predicate, c.object) in indirect and registry.is_single(c.predicate):
            best[(c.subject, c.predicate)] = max(best.get((c.subject, c.predicate), 0), population(c.object))
    kept = [
        c
        for c in kept
        if not (
            (c.subject, c.predicate, c.object) in indirect
            and registry.is_single(c.predicate)
            and population(c.object) < best[(c.subject, c.predicate)]
        )
    ]
    # "I adopted a dog last week! She's a terrier called Pastel": the pet is Pastel, not also "dog"
    def species(c: Candidate) -> bool:
        return c.predicate == "has_pet" and c.polarity == "assert" and c.object[:1].islower()

    named = {
        c.subject
        for c in kept
        if c.predicate == "has_pet" and c.polarity == "assert" and c.object[:1].isupper()
    }
    dated = {c.subject: c for c in kept if species(c) and c.valid_at is not None}
    out = []
    for c in kept:
        if species(c) and c.subject in named:
            continue
        if c.predicate == "has_pet" and c.valid_at is None and c.subject in dated:
            c = replace(
                c, valid_at=dated[c.subject].valid_at, time_text=dated[c.subject].time_text
            )  # "last week"
        out.append(c)
    return out
