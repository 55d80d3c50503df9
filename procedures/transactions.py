"""Who sold or bought a thing, and for how much: the roles of a sale, read from its clause's parse.

"my cousin aoife sold me her old one for £120", "ronan in sales took it for 350", "Priya bought the
piano off me", "I got the bike from my neighbour Tomas", "the camera went to a collector for £300": a
sale has a seller, a buyer, a thing and a price, each in a fixed place of its verb's clause (`ROLES`).
A question names some of them and asks for another: "Who sold Maddie her bass?" (the seller: its
subject is the asking word), "Who did Dex sell his Steam Deck to?" (the buyer: the subject is named),
"How much did Walter's Rover sell for?" (the price). The turns' clauses whose thing is the question's
(by its head noun, or by "it"/"one" when the turn or the one before names it) and whose named party
is not someone else answer it; "I"/"me" is the speaker, "you" the other speaker, and a question the
other speaker confirms ("did Daniel buy it?" — "He did, for £1,100") is stated. Plans, wishes and
denials ("might be interested in buying it", "didn't sell it") sell nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tkg.models import Evidence
from tkg.nlp import parse, parse_many
from tkg.text import split_sentences

from .about import Subject
from .roles import full_name, name_like
from .span_numbers import amounts
from .stated import confirmed, hypothetical, negated

SELLING = frozenset({"sell", "flog"})
BUYING = frozenset({"buy", "purchase"})
# verbs that tell a sale only with a price ("ronan took it for 350", "it went to a dealer for £900")
# or with the seller named ("got the bike off Tomas")
_PRICED = frozenset({"take", "go"})
_FROM = frozenset({"from", "off"})
_ME = frozenset({"i", "me", "myself"})
_YOU = frozenset({"you", "ya", "u"})
_THIRD = frozenset({"he", "him", "she", "her", "they", "them"})
_ITS = frozenset({"it", "one", "them", "that", "this"})
_NOBODY = frozenset({"someone", "somebody", "anyone", "anybody", "nobody", "everyone", "who", "whom"})
# a question that asks for a price
_HOW_MUCH = re.compile(r"\bhow much\b|\bwhat (?:price|did \w+ (?:pay|get))\b|\bfor how much\b")
# a reply that says yes by echoing the question's auxiliary: "He did, for eleven hundred pounds"
_ECHOED = re.compile(r"^\W*(?:(?:yes|yeah|yep|yup)\W+)?(?:he|she|they|i|we|it)\s+"
                     r"(?:did|has|have|was|were|is)\b(?!\s*n[o'’]?t\b)", re.I)


@dataclass(frozen=True)
class SaleQuestion:
    """What a sale question asks for ("seller", "buyer" or "price") and what it names."""

    want: str
    head: str  # the thing's head noun, lower case ("deck" of "his Steam Deck")


@dataclass(frozen=True)
class Sale:
    """One clause's sale: each role's token (None when the clause does not say it)."""

    verb: Any
    seller: Any | None
    buyer: Any | None
    thing: Any | None
    price: Any | None


def sale_question(text: str, subject: Subject | None) -> SaleQuestion | None:
    """The sale a question asks about, or None when it asks about none."""
    doc = parse(text)
    low = text.lower()
    priced = bool(_HOW_MUCH.search(low))
    verbs = SELLING | BUYING | ({"pay"} if priced else set())
    verb = next((t for t in doc if t.pos_ in ("VERB", "AUX") and t.lemma_.lower() in verbs), None)
    if verb is None:
        return None
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    asker = next((c for c in subjects if c.lower_ in ("who", "whom")), None)
    named = next((c for c in subjects if c.lower_ not in ("who", "whom")), None)
    objects = [c for c in verb.children if c.dep_ in ("dobj", "dative")]
    objects += [x for c in verb.children if c.dep_ == "prep" and c.lower_ == "for" for x in c.children
                if x.dep_ == "pobj"]  # "how much did she pay for the piano?"
    if named is not None and (priced or _owned(named)):
        objects.append(named)  # "How much did Walter's Rover sell for?": the thing is the subject
    things = [o for o in objects if o.pos_ in ("NOUN", "PROPN")
              and not (subject and subject.named_in(o.text))]
    if not things:
        return None
    thing = things[-1]
    selling = verb.lemma_.lower() in SELLING
    if priced:
        want = "price"
    elif asker is not None and (named is None or named is thing):
        want = "seller" if selling else "buyer"  # "Who sold Maddie her bass?", "Who bought the van?"
    elif re.search(r"^\s*(?:to |from )?who(?:m)?\b", low):
        want = "buyer" if selling else "seller"  # "Who did Dex sell it to?", "Who did Priya buy it from?"
    else:
        return None
    return SaleQuestion(want, thing.lemma_.lower())


def _owned(token: Any) -> bool:
    """The subject of a sale verb is a thing someone owns ("Walter's Rover"), not a person."""
    return token.pos_ in ("NOUN", "PROPN") and any(c.dep_ == "poss" for c in token.children)


def sales_in(sent: Any) -> list[Sale]:
    """Every sale the sentence's clauses state, with each role's token (see the module doc)."""
    out = []
    for v in sent:
        lemma = v.lemma_.lower()
        if v.pos_ not in ("VERB", "AUX") or lemma not in SELLING | BUYING | _PRICED | {"get"}:
            continue
        kids = list(v.children)
        subj = next((c for c in kids if c.dep_ == "nsubj"), None)
        dobj = next((c for c in kids if c.dep_ == "dobj"), None)
        dative = next((c for c in kids if c.dep_ == "dative"), None)
        preps = [c for c in kids if c.dep_ in ("prep", "dative") and c.pos_ == "ADP"]
        if dobj is not None:  # "got the bike from Tomas": the parser may hang it on the thing
            preps += [c for c in dobj.children if c.dep_ == "prep" and c.lower_ in _FROM | {"for"}]
        by_prep: dict[str, Any] = {}
        for c in preps:
            by_prep.setdefault(c.lower_, next((x for x in c.children if x.dep_ == "pobj"), None))
        price = by_prep.get("for")
        price = price if price is not None and _priced(price) else None
        source = by_prep.get("from") or by_prep.get("off")
        if lemma in SELLING:
            to = by_prep.get("to") or (dative if dative is not None and dative.pos_ != "ADP" else None)
            out.append(Sale(v, subj, to, dobj, price))
        elif lemma in BUYING:
            out.append(Sale(v, source, subj, dobj, price))
        elif lemma == "get" and source is not None:
            out.append(Sale(v, source, subj, dobj, price))
        elif lemma == "take" and price is not None:
            out.append(Sale(v, None, subj, dobj, price))
        elif lemma == "go" and price is not None and by_prep.get("to") is not None:
            out.append(Sale(v, None, by_prep.get("to"), subj, price))
    return out


def _priced(token: Any) -> bool:
    """A "for" phrase's object is a sum of money: "£120", "350", "80 quid", "eleven hundred pounds"."""
    return bool(token.like_num or token.ent_type_ == "MONEY" or any(c.like_num for c in token.children))


def _thing_matches(token: Any | None, q: SaleQuestion, sent: Any, prior: str) -> int:
    """2 when the clause names the question's thing by its head noun, 1 when it says "it"/"one" for
    it: the turn names it before the clause, or (when the turn's earlier sentences name no thing of
    their own) the turn before does; else 0."""
    if token is None:
        return 0
    words = {t.lower_ for t in token.subtree} | {t.lemma_.lower() for t in token.subtree}
    if q.head in words:
        return 2
    if token.lower_ not in _ITS:
        return 0
    doc = sent.doc
    if any(t.lemma_.lower() == q.head or t.lower_ == q.head for t in doc[: token.i]):
        return 1
    if any(t.pos_ == "NOUN" for t in doc[: sent.start]):
        return 0  # "and the tent? did he buy it?": the turn's own thing
    return 1 if re.search(rf"\b{re.escape(q.head)}", prior, re.I) else 0


def party(token: Any | None, speaker: str, speakers: tuple[str, ...], before: str) -> str | None:
    """Who a role's token names: a name, "I"/"me" (the speaker), "you" (the other speaker), "he"/"she"
    (the last name said in the turn before), a name in apposition ("my neighbour Tomas"), else the
    noun phrase ("a collector"); None for nobody in particular."""
    if token is None or token.lower_ in _NOBODY:
        return None
    low = token.lower_
    if low in _ME:
        return speaker or None
    if low in _YOU:
        others = [s for s in speakers if s.lower() != speaker.lower()]
        return others[0] if len(others) == 1 else None
    if low in _THIRD:
        names = [e.text for e in parse(before).ents if e.label_ == "PERSON"] if before else []
        return names[-1] if names else None
    if token.pos_ == "PROPN" or (name_like(token) and token.pos_ != "NOUN"):
        return _cap(full_name(token))
    named = next((c for c in token.children if c.dep_ == "appos" and name_like(c)), None)
    if named is not None:
        return _cap(full_name(named))
    if token.pos_ == "NOUN" and name_like(token) and any(c.dep_ in ("compound", "poss")
                                                          for c in token.children):
        return _cap(token.text)  # "my cousin aoife": a word English does not use after a relation noun
    if token.pos_ in ("NOUN", "PROPN"):
        phrase = [t for t in token.subtree if t.dep_ not in ("relcl", "punct")]
        return " ".join(t.text for t in phrase if t.tag_ != "PRP$") or None
    return None


def _cap(name: str) -> str:
    return name.title() if name.islower() else name


def read_sale(q: SaleQuestion, subject: Subject | None, turns: list[Evidence], speakers: tuple[str, ...],
              before: dict[str, tuple[str, ...]],
              replies: dict[str, str]) -> tuple[str, list[Evidence]] | None:
    """The asked role of the sale of the question's thing stated in ``turns`` (the latest clause that
    names the thing by its noun, else by "it"), with the turns that state it; None when none does."""
    found: list[tuple[tuple[int, Any], str, list[Evidence]]] = []
    parse_many([ev.text for ev in turns])
    for ev in turns:
        doc = parse(ev.text)
        prior = (before.get(ev.episode) or ("",))[0]
        reply = replies.get(ev.episode, "")
        for sent in doc.sents:
            asking = sent.text.rstrip().endswith("?")
            if asking and not (confirmed(sent, reply) or _echoed(sent, reply)):
                continue
            if not asking and hypothetical(sent):
                continue
            for sale in sales_in(sent):
                match = _thing_matches(sale.thing, q, sent, prior)
                if not match or negated(sent, sale.verb):
                    continue
                value, said = _role_value(q, sale, subject, ev, speakers, prior, reply if asking else "")
                if value is None or (subject is not None and subject.named_in(value) and q.want != "price"):
                    continue
                if not _known_fits(q, sale, subject, ev.speaker, speakers, prior):
                    continue
                found.append(((match, ev.valid_at or 0), value, said))
    if not found:
        return None
    _, value, said = max(found, key=lambda x: (x[0][0], str(x[0][1])))
    return value, said


def _echoed(sent: Any, reply: str) -> bool:
    """A question whose reply says yes by echoing its auxiliary ("did he buy it?" — "He did")."""
    first = split_sentences(reply)[:1]
    return bool(first) and bool(_ECHOED.search(first[0])) and any(t.lower_ in ("did", "has", "have", "was")
                                                                    for t in sent)


def _role_value(q: SaleQuestion, sale: Sale, subject: Subject | None, ev: Evidence,
                speakers: tuple[str, ...], prior: str, reply: str) -> tuple[str | None, list[Evidence]]:
    """The asked role's value in one sale, and the turns that state it (a price said only in the
    confirming reply: "He did, for eleven hundred pounds")."""
    if q.want == "price":
        if sale.price is not None:
            return _amount(sale.price), [ev]
        said = parse(reply) if reply else None
        first = next(iter(said.sents), None) if said is not None else None
        spans = amounts(first) if first is not None else []
        if spans:
            return spans[0].text, [ev]
        return None, []
    token = sale.seller if q.want == "seller" else sale.buyer
    return party(token, ev.speaker, speakers, prior), [ev]


def _amount(token: Any) -> str | None:
    """The sum of money a "for" phrase's object writes ("£120", "350", "eleven hundred pounds")."""
    spans = [s for s in amounts(token.sent) if s.start <= token.i < s.end]
    return spans[0].text if spans else token.text


def _known_fits(q: SaleQuestion, sale: Sale, subject: Subject | None, speaker: str, speakers: tuple[str, ...],
                prior: str) -> bool:
    """The party the question names (its subject) is nobody else in the clause: "Who did Dex sell it
    to?" is not answered by "Juno sold hers to Theo". A price stands whoever the parties are."""
    if subject is None or q.want == "price":
        return True
    token = sale.buyer if q.want == "seller" else sale.seller
    who = party(token, speaker, speakers, prior)
    return who is None or subject.named_in(who)
