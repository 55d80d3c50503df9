"""Whether a sentence states what it says: denied ("didn't get the job"), called off ("the move
fell through"), or only asked, wished, planned or imagined. The reader and the premise check
weigh a span by this; `procedures/spans.py` only says what a span is. `asked_back` finds an
answer that is the asked person's own question to the other one, which states nothing about them;
`said_time` says when a sentence's state holds.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from tkg.models import Evidence
from tkg.text import any_of, split_sentences
from tkg.timeparse import find_times

_NEGATION = any_of("not|never|no longer|didn'?t|don'?t|doesn'?t|won'?t|isn'?t|wasn'?t|aren'?t|can'?t|"
                   "couldn'?t|haven'?t|hasn'?t|nope|(?:fell|fallen) through|called off|cancel+ed")
_HYPOTHETICAL = any_of("if|would|might|maybe|perhaps|someday|one day|thinking (?:of|about)|considering|"
                       "dream(?:ing)? of|wish|hope to|hoping to|planning to|plan to|want to|wanna|"
                       "might|could|should i|whether|should (?:really )?(?:get|buy|adopt|rescue|have|take)|"
                       # someone else's wish for them: "Lumeway wanted me to relocate to Toronto"
                       "(?:want|wanted|wants|asked|asking|urged|urging|pushing|begging|offered|offering) "
                       "(?:me|us|him|her|them) to|"
                       # advice: "she has written to suggest that I sell up and move to Cornwall"
                       "suggest(?:s|ed|ing)? (?:that )?(?:i|we|me|us)|"
                       "(?:thinks?|says?|said) (?:that )?(?:i|we) should")
_CLAUSE_BREAK = re.compile(r"[:;]|\s[-\u2013\u2014]\s")  # what parts one clause from the next
_ANCHORING = frozenset("after before since until till than".split())
RETRACTED = any_of("(?:fell|fallen) through|called off|cancel+ed|never happened|not happening|"
                    "off the table|scrapped|no longer|(?:got|was|been) (?:withdrawn|rescinded|pulled)|"
                    "scrap what i said")


# a plan or an outing called off or put back: "the offsite is postponed", "amsterdam is off for me";
# the Spanish and Portuguese forms of "cancel" a code-switched turn uses ("Cancún se cancela")
CALLED_OFF = any_of("(?:fell|fallen) through|called off|cancel+ed|cancel(?:a|ó|ou|ad[oa]s?|aron|amos)|"
                    "postponed|put off|pushed back|scrapped|"
                    "(?:is|'s|are|was|were) (?:now |officially |all )?off\\b(?! to)|not happening|"
                    "decided against|off the table|never happened|(?:have|had|'ll|will) to cancel|"
                    # an offer refused: "told bristol no", "I said no." (not "the landlord said no pets")
                    "turned (?:\\w+ )?down|declined|"
                    "(?:said|say|says|told \\w+) no(?=\\s*(?:[.,;:!]|$|"
                    "(?:to|btw|this|today|yesterday|last|in the end|thanks|thank you)\\b))|"
                    # or never had: "didn't get it, they went with an internal candidate", "won't be applying"
                    "(?:didn'?t|did not|never) get (?:it|the (?:job|role|post|place|offer|position))\\b|"
                    "(?:won'?t|will not|not) be applying|"
                    "(?:can'?t|cannot|couldn'?t|won'?t) make it|(?:didn'?t|did not|won'?t|will not) happen")


_MOVED_TO = re.compile(r"\b(?:pushed back|put off|postponed|delayed|moved|rescheduled|bumped)\s+"
                       r"(?:(?:again|once more|by \w+ \w+)\s+)?(?:to|until|till|til)\b\s+(.+)", re.I)


def called_off(sent: Any, token: Any) -> bool:
    """The sentence calls off the thing ``token`` names, within a few words of it ("the cruise is
    off", "we've postponed Japan") or anywhere after it as the sentence's topic ("Lund: I emailed the
    lab and told them I won't be applying"); "I'm off to Japan" goes, it calls nothing off, and neither
    does a move to a new time ("the launch got pushed back to the 10th"): that reschedules it."""
    near = sent.doc[max(sent.start, token.i - 2): min(sent.end, token.i + 6)]
    # a thing set before a colon is what the whole sentence tells of ("Lund: I told them no")
    topic = sent if token.i + 1 < sent.end and sent.doc[token.i + 1].text == ":" else near
    return (bool(CALLED_OFF.search(topic.text)) or _off_verb(token) or _not_going(token)) \
        and not rescheduled(sent.text)


def rescheduled(text: str) -> bool:
    """The text moves something to a new time ("postponed until March", "pushed back to june 10").

    >>> rescheduled("the reading got pushed back to june 10"), rescheduled("the reading is postponed")
    (True, False)
    >>> rescheduled("we'll have to cancel, but we'll come up in May instead")
    False
    """
    to = _MOVED_TO.search(text)
    return to is not None and bool(find_times(to.group(1), datetime(2000, 1, 1, tzinfo=UTC)))


_OFF_VERBS = frozenset("cancel postpone scrap axe shelve bin".split())


def governing_verb(token: Any, steps: int) -> Any | None:
    """The first verb (or auxiliary) up ``token``'s head chain within ``steps`` steps, or None:
    the verb a noun hangs on, past the nouns and prepositions between them."""
    x = token
    for _ in range(steps):
        if x.head is x:
            return None
        x = x.head
        if x.pos_ in ("VERB", "AUX"):
            return x
    return None


_GOING_VERBS = frozenset("go head fly travel drive".split())


def _not_going(token: Any) -> bool:
    """A trip to the place ``token`` names is off: the verb it hangs on goes there, negated ("so we're
    not going to lisbon next weekend", "we won't be flying to Oslo after all").

    >>> from tkg.nlp import parse
    >>> sent = next(parse("so we're not going to Oslo after all").sents)
    >>> _not_going(sent[6]), _not_going(next(parse("we're going to Oslo").sents)[4])
    (True, False)
    """
    x = governing_verb(token, 3)
    before = token.doc[token.i - 1].lower_ if token.i > 0 else ""
    return x is not None and x.lemma_.lower() in _GOING_VERBS and any(c.dep_ == "neg" for c in x.children) \
        and before == "to"  # "not going to lie" says no place


def _off_verb(token: Any) -> bool:
    """The verb ``token`` hangs on calls it off ("they cancelled the whole October meetup")."""
    x = governing_verb(token, 3)
    return x is not None and x.lemma_.lower() in _OFF_VERBS and not any(c.dep_ == "neg" for c in x.children)


def negated(sent: Any, token: Any | None = None) -> bool:
    """The sentence calls off what it says ("the move fell through"), or the clause holding
    ``token`` is denied ("didn't get the job"; "he wants to stay in brisbane and I don't" does not
    deny Brisbane; "not get fired for feeding Taco" denies no Taco). Without a token, any denial in
    the sentence counts.

    >>> from tkg.nlp import parse
    >>> doc = parse("I didn't get the job at Orbis.")
    >>> negated(doc[:], doc[6])
    True
    >>> doc = parse("Goals: not get fired for feeding Taco the shop's crickets.")
    >>> negated(doc[:], doc[7])
    False
    """
    if RETRACTED.search(sent.text):
        return True
    if token is None:
        return bool(_NEGATION.search(sent.text)) or any(t.dep_ == "neg" for t in sent)
    t, hops = token, 0
    while hops < 4:
        if any(c.dep_ == "neg" or c.lower_ in ("never", "not", "n't") for c in t.children):
            return True
        if t.head is t or t.dep_ in ("ROOT", "conj", "ccomp", "advcl"):
            break
        if t.dep_ == "pcomp" and t.pos_ == "VERB":
            break  # a verb after a preposition says its own doing: "fired for *feeding* Taco"
        if t.dep_ == "pobj" and t.head.lower_ in _ANCHORING:
            break  # "I wasn't going to get a dog after Rex": a time the denial is measured from
        if _line_between(t, t.head):
            break  # "Subject: you'll never guess\n\nAna's leaving": a line of its own, no clause of it
        t, hops = t.head, hops + 1
    return False


def _line_between(a: Any, b: Any) -> bool:
    """A line break stands between the two tokens, which the parser joined across it."""
    lo, hi = sorted((a.i, b.i))
    return any(x.is_space and "\n" in x.text for x in a.doc[lo + 1 : hi])


# the verbs whose denial says a state does not hold: "I have not moved to Oslo", "she isn't living in
# Leeds", "didn't take the job at Arup", "we're not dating"
_STATE_VERBS = frozenset("move relocate emigrate live stay reside base work join take accept start get "
                         "buy adopt date marry see study play".split())


def denies(sent: Any, token: Any) -> bool:
    """The clause holding ``token`` denies that its state holds, not only that something was done to
    it ("no, I have not moved to Oslo", "I no longer work at Arup", "the Bristol move fell through");
    "I didn't like Paris" denies no home there. A denied value is no one's current one until it is
    said again later (`procedures.choice`).

    >>> from tkg.nlp import parse
    >>> moved, liked = parse("No, I have not moved to Oslo."), parse("I didn't like Paris.")
    >>> denies(moved[:], moved[7]), denies(liked[:], liked[4])
    (True, False)
    """
    if RETRACTED.search(sent.text):
        return True
    verb = governing_verb(token, 3)
    return verb is not None and verb.lemma_.lower() in _STATE_VERBS and negated(sent, token)


_ASIDE = re.compile(r"\([^()]*\)")
# an "if" that sets no condition: an offer ("if you want to borrow it") or a hedge on what is said
# ("if I am honest", "if you ask me", "if I'm being honest")
_POLITE_IF = re.compile(r"\bif\s+(?:(?:you|u|ya)\s+(?:want|wanna|like|need|fancy|prefer)\b[^.;!?]*|"
                        r"(?:i\s+am|i'?m|im)\s+(?:being\s+)?honest\b|(?:you|u)\s+ask\s+me\b)", re.I)


def hypothetical(sent: Any, token: Any | None = None) -> bool:
    """The sentence is a question, a condition, a wish or a plan rather than a statement of fact. An
    aside in brackets speaks for itself: "Rex (the collie, if you remember him) is nine" states it.
    With ``token``, a question asked after a dash or a colon leaves the clause before it, where the
    token is, a statement: "My new obsession is Paper Lanterns — have you heard 'Salt Roads'?".

    >>> from tkg.nlp import parse
    >>> doc = parse("My new obsession is Paper Lanterns — have you heard it?")
    >>> hypothetical(doc[:]), hypothetical(doc[:], doc[4]), hypothetical(doc[:], doc[9])
    (True, False, True)
    >>> hypothetical(parse("My bike is a rusty Raleigh, if you want to borrow it.")[:])
    False
    >>> hypothetical(parse("The plan fell through, and I was relieved, if I am honest.")[:])
    False
    """
    text = sent.text
    if bool(_HYPOTHETICAL.search(_POLITE_IF.sub(" ", _ASIDE.sub(" ", text)))):
        return True
    if not text.rstrip().endswith("?"):
        return False
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(text)]
    return token is None or not breaks or token.idx - sent.start_char >= breaks[-1]


# verbs whose infinitive complement is only intended ("we were going to open", "I meant to call",
# "we're supposed to fly", "I had planned to present"); "going" only as the progressive "be going to"
_INTENT = frozenset("go plan want hope intend mean suppose wish aim expect promise".split())
_PLANNING = frozenset("plan want wish consider intend".split())  # "planning a trip", "want a dog"
# a condition that only minds the listener ("if you like", "if you remember") conditions nothing
_POLITE = frozenset("like want wish mind remember recall know ask need prefer".split())
_MODAL = frozenset("would could might may should".split())


def intended(sent: Any) -> bool:
    """The sentence only intends or imagines an event, read from the parse: an infinitive a verb
    of intention takes ("was gonna open", "had planned to present"), or a modal on the root verb
    ("we might hire one"). "I went to open the shop" intends nothing."""
    return bool(intended_tokens(sent))


def intended_tokens(sent: Any) -> set[int]:
    """The document indices of the tokens that only say an intended event (see `intended`): the
    intended infinitive's clause, what a verb of planning takes as its object ("planning a trip"),
    or the whole sentence when its root verb takes a modal or a condition ("if", "unless") hangs on it."""
    out: set[int] = set()
    for t in sent:
        head = t.head.lemma_.lower()
        to = any(c.lower_ in ("to", "na") and c.dep_ == "aux" for c in t.children)
        if t.dep_ == "xcomp" and to and head in _INTENT and (head != "go" or t.head.tag_ == "VBG"):
            out |= {x.i for x in t.subtree}
        if t.pos_ == "VERB" and t.lemma_.lower() in _PLANNING and any(c.dep_ == "dobj" for c in t.children):
            # "we're planning a trip to Japan in October": the planned thing and what dates it
            out |= {x.i for c in t.children if c.dep_ not in ("nsubj", "nsubjpass", "conj", "cc")
                    for x in c.subtree} | {t.i}
        if t.dep_ == "ROOT" and any(c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in _MODAL
                                    for c in t.children):
            return {x.i for x in sent}
        if t.dep_ == "advcl" and t.lemma_.lower() not in _POLITE and any(
                c.dep_ == "mark" and c.lower_ in ("if", "unless") for c in t.children):
            return {x.i for x in sent}  # "if i ever get a cat im naming it toast": all of it hangs on the if
    return out


# a reply that says yes in its first words: "yes!", "Tomasz, yes", "that's him", "yep, since May"
_AFFIRM = re.compile(r"^\W*(?:[^\W\d_]+\W+){0,2}?(?:yes+|yeah|yep|yup|exactly|correct|indeed|"
                     r"that(?:'|’)?s (?:him|her|them|it|the one|right|correct|true))\b", re.I)


def confirmed(sent: Any, reply: str) -> bool:
    """A question the other speaker's next turn (``reply``) says yes to ("tan is your supervisor,
    right?" → "that's him"): what it asks is then stated. Only the turn's last question (or one of
    the run of questions that ends with it), one that asks nothing a wish or a plan would ("would
    you move?"), and a reply whose first sentence denies nothing."""
    if not reply or not sent.text.rstrip().endswith("?") or _HYPOTHETICAL.search(sent.text):
        return False
    later = [x.text.rstrip().endswith("?") for x in sent.doc.sents if x.start > sent.start]
    if True in later and not all(later[: len(later) - later[::-1].index(True)]):
        return False  # a statement stands between it and a later question, which the reply answers
    first = split_sentences(reply)[:1]
    return bool(first) and bool(_AFFIRM.search(first[0])) and not _NEGATION.search(first[0])


# an offer or a request the teller was made: "they've asked me to run the night team", "offered me the post"
_OFFER = re.compile(r"\b(?:asked|offered|invited|wanted)\s+(?:me|us)\s+to\b|\boffered\s+(?:me|us)\b", re.I)
_OFFERED = re.compile(r"\boffer(?:s|ed|ing)?\b", re.I)
# what says it was taken up: the teller's "I said yes", the other speaker's "congrats on the new role!"
_TAKEN = any_of("congrat\\w*|well done|said yes|say yes|accepted|took it|i got it|so proud|"
                "proud of (?:you|u)")


def offered(sent: Any) -> bool:
    """The sentence tells an offer made ("the Spandau hospital offered me a post", "got an offer from
    Arup"), which a later "I said no" refuses."""
    return bool(_OFFERED.search(sent.text))


def offer_taken(sent: Any, reply: str) -> bool:
    """An offer or request the teller tells ("Mira has asked me to take over the team"), taken up in
    a later sentence of the turn ("I said yes") or welcomed in the first two sentences of the other
    speaker's reply (``reply``: "Congrats on the lead role!"), with no denial or call-off there: what
    it offered is then stated, not only wished.

    >>> from tkg.nlp import parse
    >>> sent = next(parse("Mira has asked me to take over the team. I said yes!").sents)
    >>> offer_taken(sent, ""), offer_taken(sent, "oh no"), offer_taken(next(parse("She asked me.").sents), "")
    (True, True, False)
    >>> offer_taken(next(parse("Mira has asked me to take over the team.").sents), "Congrats!! So deserved")
    True
    """
    if not _OFFER.search(sent.text):
        return False
    told = [x.text for x in sent.doc.sents if x.start > sent.start] + split_sentences(reply)[:2]
    return any(_TAKEN.search(t) and not _NEGATION.search(t) and not CALLED_OFF.search(t) for t in told)


def only_wished(sent: Any, reply: str) -> bool:
    """The sentence asks, wishes or plans (`hypothetical`), and neither the other speaker's ``reply``
    says yes to it (`confirmed`) nor is it an offer taken up (`offer_taken`)."""
    return hypothetical(sent) and not confirmed(sent, reply) and not offer_taken(sent, reply)


# "how did Castlegate go?", "how was the retreat?": a question that takes the thing as having taken place
_HOW_WENT = re.compile(r"\bhow (?:did|was|were|'s)\b", re.I)


def told_outcome(sent: Any, reply: str | None) -> bool:
    """A question on how something went ("how did the Castlegate 10K go?") that the other speaker's
    next turn (``reply``) answers without a denial or a call-off in its first sentence: the thing
    took place, as a plain statement would say."""
    if not reply or not sent.text.rstrip().endswith("?") or not _HOW_WENT.search(sent.text):
        return False
    first = split_sentences(reply)[:1]
    return bool(first) and not _NEGATION.search(first[0]) and not CALLED_OFF.search(first[0])


def asked_back(answer: str, evidence: list[Evidence], name: str) -> Evidence | None:
    """The turn in which ``name`` (a speaker's full or first name) asked the answer as a question
    ("How did the kids handle the move?"): a question states nothing, and one the asked person put
    to the other is about the other one, so it answers nothing about them. None otherwise."""
    text, who = answer.strip(), name.lower()
    if not text.endswith("?"):
        return None
    for e in evidence:
        said_by = (e.speaker or "").lower()
        if said_by and who in (said_by, said_by.split(" ")[0]) and text in e.text:
            return e
    return None


def said_time(text: str, turn_time: datetime | None, at: int | None = None) -> datetime | None:
    """When a sentence says its state holds: the first day or month it names ("keys on may 15",
    "I moved to Leeds back in 2019"), else the turn's own time. With ``at`` (a value's offset in
    ``text``) only a time of the value's own clause counts: "my manager is olu — he moved here 5 yrs
    ago" does not date olu."""
    if turn_time is None:
        return None
    refs = [
        r for r in find_times(text, turn_time) if r.granularity in ("day", "week", "weekend", "month", "year")
        and (at is None or not _CLAUSE_BREAK.search(text, min(at, r.span[0]), max(at, r.span[1])))
    ]
    return refs[0].start if refs else turn_time


_STATIVE = frozenset("be live work stay base".split())


def past_state(token: Any) -> bool:
    """The clause holding ``token`` says a state in the past tense ("In Brazil I was a developer",
    "I lived in Leeds for years", "I worked at Orbis"): what held before the turn, not what holds at
    it. A move or a start ("I moved to Leeds", "I started at Orbis") is an event whose state goes on."""
    t = token
    for _ in range(4):
        if t.pos_ in ("VERB", "AUX") and t.dep_ not in ("aux", "auxpass"):
            break
        if t.head is t:
            return False
        t = t.head
    else:
        return False
    # a past progressive holds a while whatever its verb ("while I was doing my national service in Aden")
    progressive = t.tag_ == "VBG" and any(c.dep_ == "aux" and c.lower_ in ("was", "were") for c in t.children)
    if not progressive and (t.lemma_.lower() not in _STATIVE or t.tag_ != "VBD"):
        return False
    return not any(c.lower_ in ("still", "now") for c in t.children)
