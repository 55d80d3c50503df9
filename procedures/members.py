"""Category membership for list questions: which values are members of the asked head noun's kind.

"Which cars has Hannah owned?" lists only values a turn ties to "car": the head word or a word for
one of its kinds in the value's own phrase or clause ("my new car, a Skoda", "a Skoda Octavia
estate", "sold the Fiat"), a title that names the kind ("Dr Anand" for doctors), apposition ("the
consultant, Mr Farrow"), a naming verb ("a new CTO, some guy called Mateo"), or a name some other
turn of the group ties so ("her cat, Marmalade" makes "Marmalade asleep on my feet" a pet). A
value of the wrong category (a job title for "cars", an organisation for "who has she dated")
is no member. Activities and hobbies are also what someone starts, joins or takes up ("started
a watercolour class", "started making sourdough").

Example::

    >>> {"doctor", "doctors", "gp", "surgeon"} <= kind_words("doctor")
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from planners.asked import Asked
from planners.lexicon import Lexicon
from tkg.models import Fact
from tkg.nlp import may_say, parse_many

from .group_turns import turns_with_terms
from .slots import lexicon_for
from .span_base import Span, clean
from .span_words import (
    CATEGORY_MEMBERS,
    DET,
    FAVOURITE,
    NAMING,
    PEOPLE,
    PET_WORDS,
    ROLE_HEADS,
    SPAN_MEMBERS,
)

if TYPE_CHECKING:
    from tkg.context import Context

_ACTIVITY = frozenset("""class classes course lessons lesson club choir group team hobby pastime workshop
    league sport""".split()) | CATEGORY_MEMBERS["sport"]
# words for kinds of a head noun (hyponyms and synonyms English speakers use for it); a head of no
# entry has its own word and plural only
KINDS: dict[str, frozenset[str]] = {
    "vehicle": SPAN_MEMBERS["vehicle"],
    "car": CATEGORY_MEMBERS["car"] | frozenset("hatchback estate suv saloon sedan convertible coupe".split()),
    "bike": frozenset("bicycle ebike e-bike motorbike motorcycle".split()),
    "doctor": frozenset("""dr dr. gp physician surgeon consultant specialist cardiologist dermatologist
        oncologist paediatrician pediatrician psychiatrist neurologist gynaecologist gynecologist
        dentist""".split()),
    "pet": PET_WORDS,
    "animal": PET_WORDS,
    "hobby": _ACTIVITY,
    "activity": _ACTIVITY,
    "pastime": _ACTIVITY,
    "hardware": frozenset("console pc laptop computer rig handheld controller headset monitor".split()),
    "cto": frozenset({"chief technology officer"}),
    "ceo": frozenset({"chief executive"}),
}
# the relations whose objects are someone's activities: what they like, play, belong to
_ACTIVITY_PREDICATES = {"likes", "plays", "member_of", "favorite"}
# verbs by which someone takes up an activity: "started a class", "joined the choir", "took up golf"
_TAKE_UP = frozenset("start begin join try learn".split())
_TAKE_UP_PRT = {("take", "up"), ("pick", "up"), ("get", "into")}
_NAMING = frozenset({"called", "named"})
_TITLES = frozenset({"dr", "dr.", "doctor"})


def kind_words(head: str) -> frozenset[str]:
    """The head noun, its plural, its category's members and its kinds' words (lower case)."""
    base = {head, head + "s", head + "es", *CATEGORY_MEMBERS.get(head, ()), *KINDS.get(head, ())}
    if head.endswith("y"):
        base.add(head[:-1] + "ies")
    return frozenset(w for w in base if w)


def is_kind(tok: Any, words: frozenset[str]) -> bool:
    return tok.lower_ in words or tok.lemma_.lower() in words


@dataclass
class Category:
    """The asked head's words, and the names the group's turns tie to them."""

    head: str
    words: frozenset[str]
    names: set[str] = field(default_factory=set)
    activity: bool = False
    relation: bool = False  # the words are a relation's ("dated", "girlfriend"), not a head noun's kinds

    def may_hold(self, text: str) -> bool:
        """Whether a turn may hold a member: it says a kind word, a known member or a take-up verb."""
        extra = (_TAKE_UP | {"take", "pick", "get"}) if self.activity else frozenset()
        return may_say(text, self.words | {n.split()[0] for n in self.names} | extra)

    def spans(self, sent: Any) -> list[Span]:
        """Spans only the category finds: known members by name, what an activity's verbs take up."""
        out = taken_up(sent) if self.activity else []  # (a noun's own compound is part of its name)
        if self.head in CATEGORY_MEMBERS:  # "took up bouldering w some guys": a sport is one of its members
            out = [cut for sp in out if (cut := self._to_member(sent.doc, sp)) is not None]
        toks = list(sent)
        for name in self.names:
            words = name.split()
            for j in range(len(toks) - len(words) + 1):
                if [t.lower_ for t in toks[j : j + len(words)]] == words:
                    out.append(Span(sent.doc[toks[j].i : toks[j].i + len(words)].text, "thing", 0.8,
                                    toks[j].i, toks[j].i + len(words), cued=True))
        return out

    def _to_member(self, doc: Any, sp: Span) -> Span | None:
        """A taken-up span cut to end on its last word of the category ("bouldering" of "bouldering w
        some guys"), or None when it says none ("picked up the e-bike" takes up no sport)."""
        last = max((t.i for t in doc[sp.start : sp.end] if is_kind(t, self.words)), default=None)
        if last is None:
            return None
        return replace(sp, text=doc[sp.start : last + 1].text, end=last + 1)

    def tied(self, doc: Any, start: int, end: int) -> bool:
        """Whether the span ``doc[start:end]`` is tied to the category (see the module doc)."""
        span = doc[start:end]
        if " ".join(t.lower_ for t in span) in self.names or any(is_kind(t, self.words) for t in span):
            return True
        if start > 0 and doc[start - 1].lower_ in _TITLES and self.words & _TITLES:
            return True  # "Dr Anand"
        sent = doc[start].sent
        if start > sent.start and doc[start - 1].lower_ in NAMING and any(is_kind(t, self.words)
                                                                          for t in sent):
            return True  # "meet pixel 🐱", "a greyhound named Bo"
        if start >= 2 and doc[start - 1].text == "," and is_kind(doc[start - 2], self.words):
            return True  # "her rabbit, Clover" however the parser attached the name
        root = span.root
        if _named_as(root, self.words):  # "the new aide is Beatriz", "Beatriz is her new aide"
            return True
        if start >= 2 and doc[start - 1].text == "," and any(  # "an aide through an agency, Lucy"
                is_kind(t, self.words) for t in _before_comma(doc, start - 1)):
            return True
        if self.relation and _does(root, self.words):
            return True
        for near in (root.head, *root.children, *root.head.children):
            if near.i in range(start, end):
                continue
            if near.dep_ in ("appos", "compound") or root.dep_ in ("appos", "compound"):
                if is_kind(near, self.words) and (near.i == root.head.i or near.head.i == root.i):
                    return True  # "her cat, Marmalade", "the consultant, Mr Farrow"
        # "a replacement CTO … some guy called mateo": a naming verb after a kind word or a person noun
        verb = root.head
        said_of = doc[verb.sent.start : verb.i]
        if verb.lower_ in _NAMING and any(is_kind(t, self.words) or t.lower_ in PEOPLE
                                          or t.lower_ in ("someone", "somebody") for t in said_of):
            sent = verb.sent
            before = doc[max(sent.start - 30, 0) : sent.end]
            return any(is_kind(t, self.words) for t in before)
        # the same chunk: "a used Skoda Octavia estate"
        return any(is_kind(t, self.words) for t in _chunk_of(root))


def _named_as(root: Any, words: frozenset[str]) -> bool:
    """A name said to be one of the kind by a copula: "the new aide is Beatriz", "Lucy was our carer"."""
    if root.dep_ not in ("attr", "nsubj") or root.head.lemma_ != "be":
        return False
    other = "nsubj" if root.dep_ == "attr" else "attr"
    return any(c.dep_ == other and is_kind(c, words) for c in root.head.children)


def _before_comma(doc: Any, comma: int) -> list[Any]:
    """The words of the noun phrase a comma ends: back to the nearest verb or clause mark, at most six
    ("a home health aide through an agency" of "we got a home health aide through an agency, Lucy")."""
    out = []
    for t in reversed(list(doc[max(comma - 6, doc[comma].sent.start) : comma])):
        if t.pos_ in ("VERB", "AUX") or t.text in (",", ";", ":") or t.dep_ == "mark":
            break
        out.append(t)
    return out


def _does(root: Any, words: frozenset[str]) -> bool:
    """A person who does the relation's verb or is its object ("Lena and I broke up", "dating
    Rafi", "went on a date with Rafi", "her boyfriend Tom")."""
    tok = root.head if root.dep_ == "conj" else root
    gov = tok.head
    if gov.pos_ == "ADP":  # "a date with Rafi", "broke up with Lena"
        gov = gov.head
    return tok.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj", "appos", "compound", "npadvmod") \
        and is_kind(gov, words)


def _chunk_of(tok: Any) -> list[Any]:
    """The words that modify a noun inside its phrase, and the noun a name modifies ("Skoda estate")."""
    mods = [c for c in tok.children if c.dep_ in ("compound", "amod", "nmod")]
    return mods + ([tok.head] if tok.dep_ == "compound" else [])


def category(head: str, texts: list[str]) -> Category:
    """The category of ``head`` with the names the group's ``texts`` tie to it ("her cat, Marmalade")."""
    return _with_names(Category(head, kind_words(head), activity=activity_head(head)), texts)


def _with_names(cat: Category, texts: list[str]) -> Category:
    said = [t for t in texts if may_say(t, cat.words)]
    for doc in parse_many(said):
        for ent in doc.ents:
            if ent.label_ in ("PERSON", "ORG", "PRODUCT", "GPE", "WORK_OF_ART") and cat.tied(doc, ent.start,
                                                                                          ent.end):
                start, _ = widen(doc, ent.end - 1, ent.end)  # "Meet Banjo": the name, not its naming word
                cat.names.add(doc[max(start, ent.start) : ent.end].text.lower())
        for t in doc:
            if t.pos_ == "PROPN" and t.text[:1].isupper() and not t.ent_type_ and cat.tied(doc, t.i, t.i + 1):
                cat.names.add(t.lower_)
    cat.names -= cat.words
    return cat


# words of a relation that the lexicon's phrases leave out: how a dating relation is said to end or begin
_RELATION_EXTRA = {"partner_of": frozenset("broke split dumped ex date matched".split())}


def relation_category(predicate: str, texts: list[str], lexicon: Lexicon) -> Category:
    """The category of the people a relation ties to someone ("who has she dated": partner_of),
    from the lexicon's one-word nouns and verbs for it, with the names the ``texts`` tie to them."""
    words = {w for table in (lexicon.nouns, lexicon.verbs) for w, e in table.items()
             if e.predicate == predicate and not e.inverse and " " not in w}
    cat = Category(predicate, frozenset(words | _RELATION_EXTRA.get(predicate, frozenset())), relation=True)
    return _with_names(cat, texts)


def taken_up(sent: Any) -> list[Span]:
    """What the sentence says someone started, joined or took up: "started a watercolour class"
    (its object), "started making sourdough" (the gerund's phrase), "took up golf"."""
    out = []
    for t in sent:
        lemma = t.lemma_.lower()
        if t.pos_ != "VERB" or not (lemma in _TAKE_UP or any(
                (lemma, c.lower_) in _TAKE_UP_PRT for c in t.children if c.dep_ == "prt")):
            continue
        for c in t.children:
            target = c if c.dep_ == "dobj" else None
            if c.dep_ == "xcomp" and c.tag_ == "VBG":  # "started making sourdough"
                target = c
            if c.dep_ == "prep" and c.lower_ == "into":  # "got into climbing"
                target = next((g for g in c.children if g.dep_ == "pobj"), None)
            if target is not None and target.lower_ == "it" and sent.start > 0:  # "doing X. started it"
                target = _last_object(sent.doc[: sent.start])
            if target is None or target.pos_ == "PRON" or lemma == "pick" and c.dep_ == "dobj" and any(
                    g.dep_ in ("det", "poss") for o in t.children if o.dep_ == "dobj" for g in o.children):
                continue  # "picked up golf" takes it up; "picked up a scooter" buys one
            last = max([target.i, *(g.i for g in target.children if g.dep_ == "dobj")])
            after = target.doc[last + 1] if last + 1 < len(target.doc) else None
            if target.pos_ == "PROPN" and after is not None and after.dep_ == "prep" \
                    and after.head.i == target.head.i and len(list(after.subtree)) <= 3:
                last = max(x.i for x in after.subtree)  # a title with its words: "Couch to 5K"
            toks = [x for x in target.doc[target.left_edge.i : last + 1]]
            toks = [x for x in toks if x.lower_ not in DET and x.lower_ not in FAVOURITE
                    and x.tag_ not in ("PRP$", "POS")]
            cleaned = clean(toks)
            if cleaned and len(cleaned[0].split()) <= 4:
                out.append(Span(cleaned[0], "thing", 0.7, cleaned[1], cleaned[2], cued=True))
    return out


def _last_object(before: Any) -> Any | None:
    """The last direct object said before (in the same turn): what a later "it" takes up."""
    return next((t for t in reversed(list(before)) if t.dep_ == "dobj" and t.pos_ != "PRON"), None)


def widen(doc: Any, start: int, end: int) -> tuple[int, int]:
    """A name grown to its whole compound: "Skoda" in "a Skoda Octavia estate" is the Skoda Octavia
    estate, so one member is listed once. A naming word is no part of it, however tagged ("Meet
    Peanut, my new hamster!": the tagger calls "Meet" a proper noun)."""
    while end < len(doc) and doc[end - 1].dep_ == "compound" and doc[end - 1].head.i == end \
            and doc[end].pos_ in ("PROPN", "NOUN") and doc[end].is_alpha:
        end += 1
    while start > 0 and doc[start - 1].dep_ == "compound" and doc[start - 1].head.i >= start \
            and doc[start - 1].pos_ == "PROPN" and doc[start - 1].lower_ not in NAMING:
        start -= 1
    return start, end


_NAMED_MEMBERS = frozenset(w for ws in CATEGORY_MEMBERS.values() for w in ws)


def bare(value: str, cat: Category) -> bool:
    """A value that is only the category's common nouns ("cats", "the bike"): it names no member
    (a member word such as a make, "Fiat", or a sport, "tennis", does)."""
    generic = cat.words - _NAMED_MEMBERS
    return all(w in generic or w.rstrip("s") in generic for w in value.lower().split())


def known_kinds(head: str) -> bool:
    """A head whose kinds or members are known (`KINDS`, `CATEGORY_MEMBERS`): its members are told
    by those words; a head of no entry ("books", "recipes") is read by its own spans as before."""
    return head in KINDS or head in CATEGORY_MEMBERS


def person_kind(head: str) -> bool:
    """A person head that names a kind of person by what they do ("doctor", "CTO"), not a group or
    a relative ("household", "friend"): its members are tied to it."""
    return head in KINDS or head in ROLE_HEADS


def activity_head(head: str) -> bool:
    """A head whose members are things people take up (hobbies, activities)."""
    return head in ("hobby", "activity", "pastime", "interest", "sport")


def member_facts(ctx: Context, cat: Category, facts: list[Fact]) -> list[Fact]:
    """The edges that may list a member: of the relation the head (or one of its kinds) names in the
    lexicon ("cars" → owns, "pets" → has_pet), or whose object the turns tie to the category."""
    nouns = lexicon_for(ctx.registry).nouns
    fitting = {e.predicate for w in (cat.head, *cat.words) if (e := nouns.get(w)) is not None
               and not e.inverse} | (_ACTIVITY_PREDICATES if cat.activity else set())
    typed = {p for p in fitting if p in ctx.registry and ctx.registry.get(p).object_type in ("pet", "person")
             or p in _ACTIVITY_PREDICATES}

    def member(f: Fact) -> bool:  # an owned thing is a member when its name or its qualifier says so
        said = {f.qualifier.lower(), *f.object.lower().split()}
        return f.object.lower() in cat.names or bool(said & cat.words)

    return [f for f in facts if f.predicate in typed or (f.predicate in fitting and member(f))
            or f.object.lower() in cat.names]


def category_of(ctx: Context, group: str, asked: Asked, mode: str, predicate: str | None, *,
                relatives: frozenset[str]) -> Category | None:
    """The category a list question asks the members of ("which cars", "which doctors", "what
    pets"), with the names the group's turns tie to it; None for a question of another shape, a
    place or organisation (typed by their own spans), or one of the ``relatives`` ("which friends")."""
    if asked.many and mode == "aggregation" and asked.kind == "person" and not asked.head and predicate \
            and predicate in ctx.registry and ctx.registry.get(predicate).object_type == "person":
        lexicon = lexicon_for(ctx.registry)  # "who has she dated": the people tied to the relation
        rel = relation_category(predicate, [], lexicon)
        rows = turns_with_terms(ctx, group, sorted(w for w in rel.words if len(w) >= 3), 2000)
        return relation_category(predicate, [r["text"] or "" for r in rows], lexicon)
    if not (asked.many and mode == "aggregation" and asked.head and not asked.count
            and (known_kinds(asked.head) or asked.kind == "person" and person_kind(asked.head))
            and asked.kind in ("thing", "person", "pet_name")
            and asked.head not in relatives
            and (asked.kind != "person" or person_kind(asked.head))):
        return None
    words = kind_words(asked.head)
    rows = turns_with_terms(ctx, group, sorted(w for w in words if len(w) >= 2), 2000)
    return category(asked.head, [r["text"] or "" for r in rows])


def headed_facts(ctx: Context, head: str, facts: list[Fact]) -> list[Fact]:
    """The retrieved edges a list of ``head`` organisations may list: of the relation the head names
    ("companies": works_at) or whose object or qualifier says the head ("Harbour Rowing Club");
    "member_of evening pottery class" lists no companies, though its object is an organisation too."""
    entry = lexicon_for(ctx.registry).nouns.get(head)
    words = kind_words(head)
    return [f for f in facts if (entry is not None and not entry.inverse and f.predicate == entry.predicate)
            or words & set(f"{f.object} {f.qualifier}".lower().split())]
