"""Clause rules: subject + auxiliaries + a registry verb + object ("I've just moved to Bristol").

These only run on declarative, non-hypothetical sentences: "do you live in Leeds?"
and "if I moved to Paris" state nothing. What stands between subject and verb
decides what the clause means: a negation retracts (or flips likes to dislikes),
"used to" retracts, a modal ("would", "want to") drops it, and a future or
progressive travel verb ("I'm flying to Tokyo") becomes a plan.
"""

from __future__ import annotations

import re

from tkg.extract import lexicon as lx
from tkg.extract.candidate import CONF_CONTEXT, CONF_FIRST, CONF_LOOSE, CONF_SECOND, Hit, Sentence
from tkg.extract.compiled import Compiled, VerbEntry
from tkg.extract.gazetteer import spelled_place
from tkg.extract.objects import PERSON_NOUNS, clean_name, is_name, subjects, take_objects, vocab_ok
from tkg.predicates import Predicate
from tkg.vehicle_words import CAR_MAKES, VEHICLE_NOUNS, names_vehicle

_IT = re.compile(r"\b(?:it|that|this|them|those|these)\b", re.I)
_TRAVEL_START = re.compile(
    r"^(?:go(?:ing)?|head(?:ing)?|travel(?:l?ing)?|fly(?:ing)?|mov(?:e|ing)|relocat(?:e|ing)|visit(?:ing)?|"
    r"take|taking)\s+(?:(?:on\s+)?(?:a\s+)?(?:road\s+)?trip\s+)?(?:back\s+|over\s+)?(?:to\s+)?",
    re.I,
)
_ACTION_STOP = re.compile(
    r"[,;:!?()\"]|\.(?=\s|$)|\s[-\u2013\u2014]\s|\b(?:because|but|so|and then|since|which|"
    r"who|where|while|if|though|as well)\b",
    re.I,
)

_VEHICLE_VERBS = frozenset({"drive", "ride"})


_WEAK_PLAN = re.compile(lx.PLAN_WEAK)
_PRAISE = frozenset(
    "great good amazing awesome wonderful fantastic terrible bad excellent brilliant natural born real "
    "true total such lovely fine proper better best worse worst super incredible".split()
)
_MAYBE_NUMBER = re.compile(
    r"\d|turn|teen|ty\b|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
)
# "I'm seeing someone, Nerys, ...": a verb that needs a name may give it after a comma.
_NAME_AFTER_PAUSE = re.compile(r"\s*,\s*(?=[A-Z])")
_BACK_REF = re.compile(r"\s+(it|them)\b(?!\s*(?:is|was|'s)\b)", re.I)
# A be-verb before a past participle makes the clause passive ("'s" is left out: "she's moved" is "has").
_PASSIVE = re.compile(r"\b(?:is|are|was|were|been|being|be|am)\b|'m\b|'re\b", re.I)
_INFINITIVE = re.compile(
    r"\s+(?!(?:a|an|the|my|our|his|her|their|your|this|that|some|see|visit)\b)[a-z]+\b(?!')"
)


_KIND_NAMED = re.compile(
    r"^\s+(?:a|an|another|two|three|\d+)\s+(?:[a-z\-]+\s+){0,2}?(?P<kind>[a-z]+)\s+(?:named|called)\s+[A-Z]"
)


def _named_after_kind(rest: str, vocab: frozenset[str]) -> bool:
    m = _KIND_NAMED.match(rest)
    return m is not None and (m.group("kind") in vocab or m.group("kind").rstrip("s") in vocab)


def _longer_title(title: str, after: str, vocab: frozenset[str] | None) -> str:
    """"nurse" followed by "manager" is a "nurse manager": extend a title while the next word ends one."""
    words = re.findall(r"[^\s,.;:!?()]+|[,.;:!?()]", after)[:2]
    for w in words:
        if vocab is None or not w.isalpha() or not w.islower() or w not in vocab:
            break
        title = f"{title} {w}"
    return title


def _mode(mid: str) -> dict[str, bool]:
    return {
        "neg": bool(lx.NEGATION_RX.search(mid)),
        "future": bool(lx.FUTURE_RX.search(mid)),
        "plan": bool(lx.PLAN_RX.search(mid)),
        "modal": bool(lx.MODAL_RX.search(lx.HAD_TO_RX.sub(" ", mid))),
        "used": bool(lx.USED_RX.search(mid)),
        "be": bool(lx.BE_RX.search(mid)),
    }


# verbs of coming to hold something: their negation says it was never held ("didn't get the job")
_GAINING = frozenset({"get", "land", "take", "accept", "start"})


def _decide(
    entry: VerbEntry, pred: Predicate, mode: dict[str, bool], mid: str, rest: str
) -> tuple[str, str] | None:
    """(predicate, polarity) the clause asserts, or None when it asserts nothing."""
    travel = entry.base in lx.TRAVEL
    progressive = entry.kind == "ger" and (mode["be"] or entry.base.startswith("be "))
    if mode["plan"] or (entry.base in lx.RETURN and (progressive or mode["future"] or mode["modal"])):
        return None  # plan_hits reads plans; "we're getting back from Crete tomorrow" is not a visit yet
    if mode["modal"] and not mode["used"]:
        return None
    if mode["future"] or (progressive and travel):
        return ("plans", "assert") if travel and not mode["neg"] else None
    if entry.polarity == "retract":
        return None if mode["neg"] or mode["used"] else (entry.predicate, "retract")
    if mode["used"]:
        return entry.predicate, "retract"
    if mode["neg"]:
        no_longer = bool(lx.NO_LONGER_RX.search(mid + " " + rest[:80]))
        if entry.base.split()[0] in _GAINING and not no_longer:
            return None  # "I didn't get the job at Arup": never held, so nothing ends
        if pred.negated == "retract" or no_longer:
            return entry.predicate, "retract"
        return None if pred.negated == "ignore" else (pred.negated, "assert")
    return entry.predicate, "assert"


_DETERMINED = re.compile(r"^\s*(?:a|an|the|my|our|his|her|their|your|this|that|that\s+old|an\s+old)\b", re.I)


def _driven_person(obj: str, rest: str) -> bool:
    """"I drive Mum to physio", "I drive Anna to work": a person driven somewhere, not a vehicle; a car's
    name comes after a determiner ("a Golf", "my old Corolla") or names a make or a vehicle word.

    >>> _driven_person("Mum", " Mum to physio"), _driven_person("Golf", " a Golf to work")
    (True, False)
    """
    if obj.lower() in PERSON_NOUNS or obj.lower() in {"mum", "mom", "dad", "mother", "father", "gran", "nan"}:
        return True
    low = set(obj.lower().replace("-", " ").split())
    return obj[:1].isupper() and not low & (VEHICLE_NOUNS | CAR_MAKES) and not _DETERMINED.match(rest)


def clause_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """Facts stated by subject-verb-object clauses in one declarative sentence."""
    reg = sent.registry
    out: list[Hit] = []
    for m in comp.clause.finditer(sent.text):
        subs = subjects(m, sent, comp)
        if not subs:
            continue
        mid = m.group("mid")
        mode = _mode(mid)
        congrats = m.group("subj").lower().startswith("congrat")
        verb_key = " ".join(m.group("verb").lower().split())
        rest = sent.text[m.end():]
        for entry in comp.verbs.get(verb_key, []):
            if (congrats and entry.kind != "ger") or (entry.kind == "bare" and not mode["be"]):
                continue
            if mode["be"] and entry.kind in ("base", "s") and not entry.base.startswith("be "):
                continue  # "we're like a family": after a be-verb, "like" is not the verb
            if entry.kind == "ger" and not mid.strip() and not congrats and not entry.base.startswith("be "):
                continue  # "sitting here in Rotterdam playing chess": a participle, not a clause
            if entry.kind == "past" and _PASSIVE.search(mid) and not entry.base.startswith("be "):
                continue  # "Softwood has been bought by Orbis": the subject is what was bought
            decided = _decide(entry, reg.get(entry.predicate), mode, mid, rest)
            if decided is None or decided[0] not in reg:
                continue
            pname, polarity = decided
            if (entry.base in lx.TRAVEL and entry.base.endswith(" to") and _INFINITIVE.match(rest)
                    and not spelled_place(" ".join(rest.split()[:3])) and not spelled_place(rest.split()[0])):
                continue  # "I'm going to check it out": "going to" is the future, not travel
            pause = _NAME_AFTER_PAUSE.match(rest) if entry.needs_name else None
            objs = take_objects(sent, m.end() + (pause.end() if pause else 0), reg.get(pname))
            strict = entry.base in lx.GENERIC_VERBS or entry.predicate == "plays"
            if entry.base in _VEHICLE_VERBS:  # "driving back and forth" drives no vehicle called "back"
                objs = [o for o in objs if names_vehicle(o) and not _driven_person(o, rest)]
            if (
                strict
                and entry.predicate in comp.vocab
                and _named_after_kind(rest, comp.vocab[entry.predicate])
            ):
                strict = False  # "has a parrot called Kiwi": the kind is said, the name may follow
            if not objs and entry.polarity == "retract" and entry.predicate in ("owns", "has_pet"):
                objs = (
                    [m2.group(1).lower()] if (m2 := _BACK_REF.match(rest)) else []
                )  # "sold it": coref resolves
            if entry.loose and entry.predicate in comp.vocab and not all(
                vocab_ok(o, comp.vocab[entry.predicate], strict=strict) for o in objs
            ):
                continue  # "I have two kids, Leo and Mia" says nothing about pets
            if pname == "plans" and entry.predicate != "plans":
                objs = [o for o in objs if o.lower() not in comp.rel_nouns  # "visit my parents"
                        and o.split()[0].lower() not in PERSON_NOUNS]  # "going to my neighbour Derek"
            if pname == "job_title" and objs and polarity == "assert":
                out += _employer_hits(sent, m, objs[0], subs)
            for obj in objs:
                if entry.needs_name and not obj[0].isupper():
                    continue
                for subject, conf, extra in subs:
                    if pname in ("likes", "owns", "plans", "dislikes"):
                        conf = min(conf, CONF_LOOSE + 0.1)
                    out.extend(extra)
                    if pname == "plans" and obj[:1].islower() and entry.base in lx.TRAVEL:
                        obj = spelled_place(obj) or obj  # "moving to lisbon in june" -> "Lisbon"
                    otype = "place" if pname == "plans" and obj[0].isupper() else ""
                    out.append(
                        Hit(
                            subject,
                            pname,
                            obj,
                            polarity=polarity,
                            confidence=conf,
                            anchor=m.end("verb"),
                            object_type=otype,
                        )
                    )
    return out


def _employer_hits(
    sent: Sentence, m: re.Match[str], title: str, subs: list[tuple[str, float, list[Hit]]]
) -> list[Hit]:
    """"I work as a nurse at Northwind": the employer after the job title."""
    if "works_at" not in sent.registry:
        return []
    at = re.match(r"\s+(?:an?\s+)?" + re.escape(title) + r"\s+(?:at|for|with)\s+", sent.text[m.end():], re.I)
    employers = take_objects(sent, m.end() + at.end(), sent.registry.get("works_at")) if at else []
    return [Hit(s, "works_at", e, confidence=c, anchor=m.end("verb")) for s, c, _ in subs for e in employers]


def copula_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """"I'm a nurse (at St. Anne's)", "I'm 32", "I turned 40 last week"."""
    reg = sent.registry
    out: list[Hit] = []
    low = sent.text.lower()
    if (
        comp.copula_job is not None
        and "job_title" in reg
        and (
            " a " in low or " an " in low or lx.RANKS_RX.search(low) or " now " in low or "officially" in low
            or " made " in low
        )
    ):
        for m in comp.copula_job.finditer(sent.text):
            mode = _mode(m.group("mid"))
            if mode["modal"] or mode["future"] or mode["plan"] or m.group("cop").lower() in ("was", "were"):
                if not mode["used"]:
                    continue
            polarity = "retract" if (mode["neg"] or mode["used"]) else "assert"
            title = _longer_title(
                m.group("obj").lower(), sent.text[m.end("obj") :], comp.vocab.get("job_title")
            )
            title = re.sub(r"^(?:the|a|an)\s+", "", title)  # "I'm now the team lead": a title, not a phrase
            if not title or title.split()[0] in _PRAISE:
                continue  # "you're a great teacher" is praise, not a job
            acronyms = {w.lower(): w for w in m.group("obj").split() if w.isupper() and len(w) > 1}
            title = " ".join(acronyms.get(w, w) for w in title.split())  # "UX designer", not "ux designer"
            for subject, conf, extra in subjects(m, sent, comp):
                out.extend(extra)
                out.append(
                    Hit(subject, "job_title", title, polarity=polarity, confidence=conf, anchor=m.end())
                )
                if m.group("after") and polarity == "assert":
                    where = "studies_at" if title.endswith("student") else "works_at"
                    if where in reg:
                        for org in take_objects(sent, m.end(), reg.get(where)):
                            out.append(Hit(subject, where, org, confidence=conf, anchor=m.end()))
    if "likes" in reg and " fan" in low:
        for m in comp.fan.finditer(sent.text):
            mode = _mode(m.group("mid"))
            if mode["modal"] or mode["future"] or mode["plan"]:
                continue
            obj = clean_name(m.group("obj"))
            if not is_name(obj):
                continue
            pname = "likes" if not mode["neg"] else reg.get("likes").negated
            if pname not in reg:
                continue
            for subject, conf, extra in subjects(m, sent, comp):
                out.extend(extra)
                out.append(Hit(subject, pname, obj, confidence=min(conf, CONF_LOOSE + 0.1), anchor=m.end()))
    if "age" in reg and _MAYBE_NUMBER.search(low):
        for m in comp.age.finditer(sent.text):
            mode = _mode(m.group("mid"))
            if (
                mode["neg"]
                or mode["modal"]
                or mode["plan"]
                or (mode["future"] and "turn" not in m.group("cop"))
            ):
                continue
            years = lx.parse_number(m.group("n"))
            if years is None or not 1 <= years <= 120:
                continue
            for subject, conf, extra in subjects(m, sent, comp):
                out.extend(extra)
                out.append(Hit(subject, "age", str(years), confidence=conf, anchor=m.end()))
    return out


def together_hits(sent: Sentence, comp: Compiled, partner: str | None) -> list[Hit]:
    """"Ana and I got married", "we got engaged", "Jonas and I broke up" (the partner comes from context)."""
    out: list[Hit] = []
    if comp.together is None:
        return out
    for m in comp.together.finditer(sent.text):
        mode = _mode(m.group("mid"))
        if mode["neg"] or mode["modal"] or mode["future"] or mode["plan"]:
            continue
        verb_key = " ".join(m.group("verb").lower().split())
        for entry in comp.together_verbs.get(verb_key, []):
            if entry.kind == "ger" and not entry.base.startswith("be "):
                continue  # "we're getting married" is not married yet
            if m.group("we") and entry.polarity == "retract" and not partner:
                continue  # "we split up" with no partner known ends nothing we could name
            if m.group("we"):
                other, conf = (
                    (partner, CONF_CONTEXT) if partner else (f"{sent.speaker}'s partner", CONF_CONTEXT - 0.1)
                )
                pairs = [(sent.speaker, other, conf)]
            elif m.group("x"):
                pairs = [(clean_name(m.group("x")), clean_name(m.group("y")), CONF_SECOND)]
            else:
                pairs = [(sent.speaker, clean_name(m.group("a") or m.group("b")), CONF_FIRST)]
            for a, b, conf in pairs:
                if b and (b == partner or is_name(b) or b.endswith("'s partner")):
                    out.append(
                        Hit(a, entry.predicate, b, polarity=entry.polarity, confidence=conf, anchor=m.end())
                    )
    return out


def plan_hits(sent: Sentence, comp: Compiled) -> list[Hit]:
    """"I'm planning to go to Japan in July" -> plans Japan; "hoping to attend a book fair" -> plans that."""
    reg = sent.registry
    if "plans" not in reg:
        return []
    pred = reg.get("plans")
    out: list[Hit] = []
    if not lx.PLAN_RX.search(sent.text):
        return out
    for m in comp.plan.finditer(sent.text):
        mode = _mode(m.group("mid"))
        if mode["neg"] or mode["modal"]:
            continue
        start = m.start("act")
        end = len(sent.text)
        for t in sent.times:
            if t.span[0] >= start:
                end = t.span[0]
                break
        stop = _ACTION_STOP.search(sent.text, start, end)
        action = sent.text[start: stop.start() if stop else end].strip()
        travel = _TRAVEL_START.match(action)
        if not travel and _WEAK_PLAN.fullmatch(" ".join(m.group("plan").lower().split())):
            continue  # "I'm so excited to see how it plays out" is not a plan
        if travel and action[travel.end():][:1].isupper():
            objs = take_objects(sent, start + travel.end(), reg.get("visited") if "visited" in reg else pred)
        else:
            words = action.split()
            objs = [" ".join(words)] if 0 < len(words) <= pred.max_object_words else []
            objs = [o for o in objs if o.split()[0].lower() not in lx.PRONOUN_OBJECTS and not _IT.search(o)]
        for subject, conf, extra in subjects(m, sent, comp):
            out.extend(extra)
            out.extend(Hit(subject, "plans", o, confidence=min(conf, CONF_LOOSE + 0.1), anchor=m.end("plan"),
                           object_type="place" if travel and o[0].isupper() else "") for o in objs)
    return out
