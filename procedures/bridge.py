"""The person a chain question goes through, found before the asked value is read about them.

"Where did Noor's *first manager* move?", "What is the job of *the woman Jonas is engaged to*?",
"Which office did *the person who supervised Ana in 2020* join?": the relation comes from the
question — a relation noun after the subject's possessive, else the first hop of its hop plan
over the closed predicate vocabulary — and the person from, in order:

1. the walk's own bridge (the plan's first hops walked over real edges);
2. the subject's edges of the relation's predicate: the one valid in the question's window, the
   earliest for "first"/"former"/"old"/"ex", else the current one;
3. the turns about the subject that name a person next to the relation's words ("Marjolein (my
   supervisor)", "my manager there will be Matteo"), read like "Who is Noor's manager?": the
   latest said by the window's end, or the first said for "first"/"former".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from planners.asked import Asked
from planners.head_words import kind_of_noun
from planners.hop_planner import Hop, HopPlan
from planners.question import Question
from tkg.models import Evidence, Fact
from tkg.nlp import parse
from tkg.text import content_terms, stems_of, tokenize

from .about import Subject
from .bridge_replies import answered_name, fragment_named, kin_owner, named_before
from .choice import choose
from .group_turns import replies_to
from .reader import FAR_FUTURE, Candidate, candidates, norm
from .roles import named_for_role, role_bases
from .slots import FAR_PAST, lexicon_for
from .span_words import KIN_FORMS
from .walker import walk

if TYPE_CHECKING:
    from tkg.context import Context

Window = tuple[datetime, datetime]
# "X's manager", "X's first PhD supervisor": the value belongs to someone the subject is related to
RELATIONAL = re.compile(
    r"['\u2019]s?\s+(?P<mods>(?:(?:current|new|first|old|former|business|phd|ex|previous|original)\s+)*)"
    r"(?P<rel>(?:son|daughter|brother|sister|mother|father)-in-law|manager|boss|supervisor|sister|brother|"
    r"mother|father|mom|mum|dad|son|daughter|"
    r"husband|wife|partner|girlfriend|boyfriend|fianc\w*|friend|co-?founder|colleague|cousin|employee|"
    r"aunt(?:ie|y)?|uncle|niece|nephew|grand(?:mother|father|ma|pa|dad|son|daughter)|gran|"
    r"(?:band|team|room|flat|house|lab)mate|landlord|landlady|mentor|coach|tenant|assistant|apprentice|intern|"
    r"drummer|singer|guitarist|bassist|pianist)\b",
    re.I,
)
# a couple's other forms: a spouse was a fiancé(e) and a girlfriend first ("Hannah, my girlfriend",
# "proposed"), and a partner may be any of them ("my wife Hannah")
_COUPLE_FORMS = {"married_to": ("engaged_to", "partner_of"), "engaged_to": ("partner_of",),
                 "partner_of": ("engaged_to", "married_to")}
# verbs too general to say a relation on their own ("work under", "go out with", "get married to")
_LIGHT_VERBS = frozenset("be get go have make start become work move take do".split())
# "the drummer of Callum's band": a person noun of a group the subject belongs to
_ROLE_OF = re.compile(r"\bthe\s+(?:(?P<mods>first|former|old|new|current)\s+)?(?P<rel>[a-z-]+)\s+"
                      r"(?:of|in|at)\s+(?P<name>[A-Z][\w-]*)['\u2019]s?\s+[a-z]+")
_EARLIEST = frozenset({"first", "former", "old", "ex", "previous", "original"})


@dataclass(frozen=True)
class Relation:
    """How the subject is related to the bridge person: a noun ("manager") and its predicate."""

    word: str
    predicate: str | None
    earliest: bool = False  # "first manager", "former boss": the earliest one, not the current
    from_plan: bool = False
    mods: tuple[str, ...] = ()  # the words before the noun ("business" partner)
    hop: Hop | None = None  # the noun's edge, inverse ones too ("mom": ^parent_of): the walk's first hop

    @property
    def edge(self) -> Hop | None:
        """The edge to walk from the subject to the person: the predicate's, else the noun's own."""
        return Hop(self.predicate) if self.predicate else self.hop

    def to_trace(self) -> dict[str, Any]:
        return {"word": self.word, "predicate": self.predicate, "earliest": self.earliest,
                "from": "plan" if self.from_plan else "noun"}


def relation_of(ctx: Context, q: Question, subject: Subject) -> Relation | None:
    """The relation a chain question goes through from its subject, or None when it asks about
    the subject itself (or names the related person as the answer: "Who is X's manager?"), or
    goes through more than one person."""
    asked = q.asked
    if q.plan is not None and len(q.plan.hops) > 2:
        return None  # "X's manager's manager's city": the walker's, not one bridge's
    rel = RELATIONAL.search(q.text)
    if rel is not None and subject.named_in(q.text[max(0, rel.start() - 40): rel.start() + 2]):
        word = rel.group("rel").lower()
        if asked.kind == "person" and asked.head == word:
            return None
        mods = tuple(rel.group("mods").lower().split())
        entry = lexicon_for(ctx.registry).nouns.get(word)
        predicate = entry.predicate if entry is not None and not entry.inverse else None
        hop = Hop(entry.predicate, entry.inverse) if entry is not None else None
        if "business" in mods:  # a business partner is no romantic one: the turns say who
            predicate, hop = None, None
        return Relation(word, predicate, bool(_EARLIEST & set(mods)), mods=mods, hop=hop)
    role = _ROLE_OF.search(q.text)
    if role is not None and (kind_of_noun(role.group("rel")) == "person" or role_bases(role.group("rel"))) \
            and subject.named_in(role.group("name")):
        return Relation(role.group("rel").lower(), None, role.group("mods") in _EARLIEST)
    plan = q.plan
    if plan is None or len(plan.hops) < 2 or plan.seed.lower().split()[0] not in subject.aliases:
        return None
    hop = plan.hops[0]
    if hop.inverse or hop.predicate not in ctx.registry:
        return None
    pred = ctx.registry.get(hop.predicate)
    if pred.object_type != "person":
        return None
    return Relation(pred.nouns[0] if pred.nouns else hop.predicate, hop.predicate, from_plan=True)


def relation_cues(ctx: Context, relation: Relation) -> set[str]:
    """The words a turn naming the bridge person says near them: the relation noun, the
    predicate's one-word nouns and phrases, the head of its verbs with their inflections
    ("propose", "proposed"; not the light verb of "get married to"), and the word after the light
    verb of what a couple says of itself ("be official", "get engaged")."""
    words = _forms(relation.word)
    for name in (relation.predicate, *_COUPLE_FORMS.get(relation.predicate or "", ())):
        if name and name in ctx.registry:
            p = ctx.registry.get(name)
            words |= {w for w in (*p.nouns, *p.phrases) if " " not in w}
            words |= {f for v in p.verbs if "{" not in v and v.split()[0] not in _LIGHT_VERBS
                      for f in _inflections(v.split()[0])}
            # what a couple says of itself, past its light verb: "me and priya are official"
            words |= {v.split()[-1] for v in p.together_verbs if v.split()[0] in _LIGHT_VERBS}
    return content_terms(" ".join(sorted(words))) | {relation.word}


def verb_relation(ctx: Context, terms: set[str]) -> Relation | None:
    """The relation to a person a verb of the question asserts ("Who is Ellie *marrying*?" →
    married_to, whose turns may say "Sam proposed"), from the question's stems; or None."""
    for name in ctx.registry:
        p = ctx.registry.get(name)
        heads = {v.split()[0] for v in p.verbs if "{" not in v} - _LIGHT_VERBS
        verb = next((h for h in sorted(heads) if stems_of([h]) & terms), None)
        if p.object_type == "person" and verb is not None:
            return Relation(verb, name)
    return None


def _inflections(word: str) -> tuple[str, ...]:
    """A verb and its regular inflections, whose stems can differ ("propose", "proposed" → propos)."""
    base = word[:-1] if word.endswith("e") else word[:-1] + "i" if word.endswith("y") else word
    return word, base + "ed", word + "s", base + "ing" if not word.endswith("y") else word + "ing"


def dates_relation(q: Question, relation: Relation) -> bool:
    """Whether the question's time anchor dates the relation rather than the value: said inside
    the relative clause, before the question's own verb ("the person who supervised Ana *in 2020*
    moved to which office?"), not at its end ("where did Ana's manager live *in 2020*?")."""
    if not relation.from_plan or q.anchor is None:
        return False
    return len([w for w in tokenize(q.text[q.anchor.end:]) if w.isalpha()]) >= 2


# relatives one has only one of, whom a speaker calls by the relation noun alone ("Mom", "my husband")
_ONLY_KIN = frozenset("mother mum mom father dad husband wife".split())
# a relative's title before their name: "Auntie Margit" is Margit, as the other turns call her
_KIN_TITLES = frozenset("auntie aunty aunt uncle cousin grandma gran granny nana nan grandpa grandad".split())


def _person(name: str, speakers: tuple[str, ...]) -> Subject:
    first, _, rest = name.partition(" ")
    name = rest if first.lower() in _KIN_TITLES and rest else name
    low = name.lower()
    speaker = any(s.lower() == low or s.lower().split()[0] == low.split()[0] for s in speakers)
    return Subject(name, frozenset({low, low.split()[0]}), speaker=speaker)


def _from_walk(result_trace: dict[str, Any], relation: Relation) -> str | None:
    walked = result_trace.get("walk") or {}
    bridge = walked.get("bridge") or []
    hops = walked.get("hops") or []
    first = relation.from_plan or relation.hop is not None and hops[:1] == [
        ("^" if relation.hop.inverse else "") + relation.hop.predicate]  # the noun's edge was walked
    if first and walked.get("stopped_at") == 1 and len(bridge) == 1:
        return str(bridge[0])
    return None


def _from_graph(ctx: Context, group: str, subject: Subject, relation: Relation,
                window: Window | None) -> str | None:
    """The subject's edge of the relation's predicate valid in the window's end, the earliest,
    or the current one (one value only: two current managers leave the choice to the turns)."""
    edge = relation.edge
    if edge is None:
        return None
    index = ctx.entities(group)
    ent = index.find(subject.name, "person")
    if ent is None:
        return None
    if relation.earliest and not edge.inverse:
        rows = ctx.store.named("fact.history", {"group_id": group, "subject_uuids": [ent.uuid],
                                                "predicate": relation.predicate})
        facts = [f for f in (Fact.from_row(r, group) for r in rows) if f.valid_at is not None]
        facts = [f for f in facts if not (f.invalid_at is not None and f.invalid_at <= f.valid_at)]  # type: ignore[operator]
        if not facts:
            return None
        return min(facts, key=lambda f: (f.valid_at, f.object)).object
    at = window[1] if window is not None and window[1] < FAR_FUTURE else None
    plan = HopPlan(ent.name, ent.name, (edge,), "entity")
    walked = walk(ctx, group, plan, as_of=at, fanout=3, max_hops=1, index=index)
    values = list(dict.fromkeys(walked.values))
    return values[0] if len(values) == 1 else None


def _near_relation(ev: Evidence, value: str, cues: set[str], subject: Subject) -> bool:
    """Whether a sentence naming ``value``, or the one before or after it, says the relation: "Tomasz
    cried during his vows" right after "we got married" names the husband; a boss named three
    sentences from any marriage does not. A relation noun with a possessor must be the subject's:
    "my sister Odette" said by the other speaker is not the subject's sister."""
    sents = list(parse(ev.text).sents)
    low = value.lower()
    for i, sent in enumerate(sents):
        if low not in sent.text.lower():
            continue
        near = [t for x in _neighbours(sents, i) for t in x if stems_of([t.text]) & cues]
        owners = [kin_owner(t, ev.speaker, subject) for t in near]
        if near and (True in owners or None in owners):
            return True
    return False


def _neighbours(sents: list[Any], i: int) -> list[Any]:
    """Sentence ``i`` and the one before and after it, a verbless fragment of three words or fewer not
    counted between ("i went on a date. w a guy. his name is lincoln": the date is next to the name)."""
    lo, hi = i - 1, i + 1
    while lo > 0 and _fragment(sents[lo]):
        lo -= 1
    while hi < len(sents) - 1 and _fragment(sents[hi]):
        hi += 1
    return sents[max(0, lo): hi + 1]


def _fragment(sent: Any) -> bool:
    """A texted fragment: three words or fewer and no verb ("w a guy.")."""
    return sum(t.is_alpha for t in sent) <= 3 and not any(t.pos_ in ("VERB", "AUX") for t in sent)


def find_bridge(ctx: Context, group: str, relation: Relation, subject: Subject, turns: list[Evidence],
                speakers: tuple[str, ...], excluded: set[str], window: Window | None,
                result_trace: dict[str, Any], cues: set[str], trace: dict[str, Any], *,
                fetch: Callable[[set[str]], list[Evidence]] | None = None,
                terms: frozenset[str] | set[str] = frozenset()) -> Subject | None:
    """The bridge person, or None; ``trace`` gets where they came from ("walk", "graph", "turns",
    "roles": a role with no predicate read from the clause structure of turns ``fetch`` gives).
    A speaker's only mother, father or spouse is also what their turns call them ("Mom moved in
    with us"): the relation noun's forms refer to the bridge too."""
    person = _find_bridge(ctx, group, relation, subject, turns, speakers, excluded, window, result_trace,
                          cues, trace, fetch=fetch, terms=terms)
    if person is None or not subject.speaker or relation.word not in _ONLY_KIN or relation.mods:
        return person
    return replace(person, aliases=person.aliases | _forms(relation.word))


def _forms(word: str) -> set[str]:
    """A relation noun and the other forms of the same relative ("mom": mum, mother, …)."""
    return {word, *(w for g in KIN_FORMS if word in g for w in g)}


def _find_bridge(ctx: Context, group: str, relation: Relation, subject: Subject, turns: list[Evidence],
                 speakers: tuple[str, ...], excluded: set[str], window: Window | None,
                 result_trace: dict[str, Any], cues: set[str], trace: dict[str, Any], *,
                 fetch: Callable[[set[str]], list[Evidence]] | None,
                 terms: frozenset[str] | set[str]) -> Subject | None:
    name = _from_walk(result_trace, relation)
    if name:
        trace["bridge_from"] = "walk"
        return _person(name, speakers)
    name = _from_graph(ctx, group, subject, relation, window)
    if name:
        trace["bridge_from"] = "graph"
        return _person(name, speakers)
    voices = {s.lower() for s in speakers}
    said = fragment_named(stems_of(_forms(relation.word)), subject, turns, excluded | voices)
    if said is not None:
        trace["bridge_from"] = {"fragment": said[1].source_ref}
        return _person(said[0], speakers)
    latest = window is None and not relation.earliest  # "Noor's manager" without a date is her manager now
    asked = Asked("person", relation.word, recency=latest)
    found = candidates(ctx, asked, subject, turns, cues, speakers, excluded, None, attribute=False,
                       replies=replies_to(ctx, group, turns))  # "X is your boss, right?" - "yes"
    found = [c for c in found if _near_relation(c.evidence, c.value, cues, subject)]
    if relation.earliest and window is None:
        window = (FAR_PAST, FAR_FUTURE)  # "first": the first said
    chosen, how = choose(asked, found, latest=latest, window=window)
    trace["bridge_from"] = {"turns": how}
    if chosen:
        return _person(chosen[0].value, speakers)
    answered = answered_name(ctx, group, relation.word, subject, turns, cues, excluded | voices)
    if answered is not None:
        trace["bridge_from"] = {"reply": answered[1].source_ref}
        return _person(answered[0], speakers)
    answered = named_before(ctx, group, relation.word, subject, turns, cues, excluded | voices)
    if answered is not None:
        trace["bridge_from"] = {"answered": answered[1].source_ref}
        return _person(answered[0], speakers)
    if fetch is None or relation.from_plan or relation.predicate is not None:
        return None
    named = by_role(relation, subject, fetch, terms, window, excluded)
    if named is None:
        return None
    trace["bridge_from"] = {"roles": named[1].source_ref}
    return _person(named[0], speakers)


def unnamed_relative(relation: Relation, subject: Subject,
                     turns: list[Evidence]) -> tuple[Subject, list[Evidence]] | None:
    """The subject's relative no turn names ("my own daughter commuted for years before she settled in
    Bath"): a stand-in subject the relation noun refers to, and the turns that say the noun as the
    subject's own (`kin_owner`: "my daughter" in their turn, "your daughter" to them, "Robert's daughter")."""
    word = relation.word.lower()
    owned = [ev for ev in turns if word in ev.text.lower() and any(
        t.lower_ == word and kin_owner(t, ev.speaker, subject) for t in parse(ev.text))]
    if not owned:
        return None
    return Subject(f"{subject.name}'s {word}", frozenset({word}), speaker=False), owned


def by_role(relation: Relation, subject: Subject, fetch: Callable[[set[str]], list[Evidence]],
            terms: frozenset[str] | set[str], window: Window | None,
            excluded: set[str]) -> tuple[str, Evidence] | None:
    """The person the subject's turns name for a role the vocabulary has no predicate for, by clause
    structure (`procedures.roles`): the first said for "first", else the latest said by the window's
    end. ``fetch`` gives the subject's turns sharing the given stems; ``terms``: the question's
    content stems besides its subject and the role."""
    own = role_bases(relation.word) | content_terms(relation.word.replace("-", " "))
    found = named_for_role(relation.word, relation.mods, subject, fetch(own | terms), terms - own)
    named = [(n, ev) for n, ev in found if norm(n) not in excluded]  # not "Ann's colleague, Rob" itself
    if not named:
        return None
    order = sorted(named, key=lambda x: (x[1].valid_at or FAR_PAST, x[1].source_ref or ""))
    if relation.earliest:
        return order[0]
    end = window[1] if window is not None else FAR_FUTURE  # a role named later held then too
    by_then = [x for x in order if x[1].valid_at is None or x[1].valid_at <= end]
    return by_then[-1] if by_then else order[0]


def value_predicate(q: Question, predicate: str | None) -> str | None:
    """The predicate of the value asked of the bridge person: the plan's last hop ("Marcus's wife's
    *work*": works_at), else the routed one (which may name the relation itself: married_to)."""
    if q.plan is not None and len(q.plan.hops) >= 2 and not q.plan.hops[-1].inverse:
        return q.plan.hops[-1].predicate
    return predicate


def bridge_facts(ctx: Context, group: str, person: Subject, q: Question, predicate: str | None,
                 window: Window | None) -> list[Fact]:
    """The bridge person's own edges of the relation the question asks about (its plan's last hop,
    else the routed predicate): valid at the window's end, else current."""
    predicate = value_predicate(q, predicate)
    index = ctx.entities(group)
    ent = index.find(person.name, "person")
    if not predicate or ent is None:
        return []
    at = window[1] if window is not None and window[1] < FAR_FUTURE else None
    plan = HopPlan(ent.name, ent.name, (Hop(predicate),), "entity")
    return walk(ctx, group, plan, as_of=at, fanout=3, max_hops=1, index=index).facts


def says_relation(verb: str, cues: set[str]) -> bool:
    """Whether a verb (or one of its inflections) is one of the relation's words ("engage")."""
    return bool(stems_of(_inflections(verb)) & cues)


_MOVING = frozenset("move relocate leave emigrate".split())


def said_with(found: list[Candidate], verb: str) -> list[Candidate]:
    """Candidates about the bridge person, halved unless their turn says the question's own verb
    ("moved to Singapore" for "which office did she move to", not "knows people in Zurich")."""
    out = []
    verbs = _MOVING if verb in _MOVING else {verb}  # "is leaving for a job in Oslo" tells a move too
    for c in found:
        said = any(t.lemma_.lower() in verbs for t in parse(c.evidence.text))
        out.append(c if said else replace(c, score=c.score * 0.5))
    return out
