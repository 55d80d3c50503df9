"""False premises: a question that takes for granted what the conversation never affirmed.

"What is the name of Tobias's dog?" when no turn gives Tobias a dog, "When did Marisol move to
Lisbon?" when the move fell through, "What breed is Sofia's dog Fagiolo?" when Fagiolo was only
the name she would give a dog one day: each is answered "No information available". The check
is general: the things the question presupposes (the names it mentions besides its subject, the
relative or pet it asks about, and for a "when" question the event itself) must be stated by
some sentence about the subject that is neither asked, wished, planned nor denied. What a
question presupposes is `procedures.presupposed`'s; here, whether the turns state it.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from planners.question import Question
from tkg.models import Evidence
from tkg.nlp import parse, parse_many
from tkg.text import content_terms, stems_of
from tkg.time_words import clause_tense
from tkg.timeparse import find_times
from tkg.words import is_place_name

from .about import Subject, about, continued
from .abstain import GENERIC, INFERENCE
from .calloff import EVERYONES, OUTCOME, last_called_off
from .event_words import QuestionEvent, asks_when, denied_before, question_event
from .presupposed import (
    GOING,
    anchoring,
    heading_to,
    names_a_thing,
    names_no_one,
    one_name,
    presupposed,
    same_word,
    says_name,
    titles,
)
from .slots import FAR_PAST
from .span_words import THEIRS
from .spans import ANIMALS
from .stated import RETRACTED as _RETRACTED_WORDS
from .stated import hypothetical, intended, negated, told_outcome

_GENERIC: frozenset[str] = GENERIC | {
    "mention", "mentione", "talk", "month", "year", "week", "date", "time", "day", "first", "last",
}
_ABOUT_PLANS = re.compile(r"\b(?:why|plan|plans|planned|planning|supposed|originally|meant|cancel\w*|"
                          r"postpon\w*|call(?:ed)? off|fell through|instead|"
                          # the offer or the try itself: "which studio offered him a job", "turned down"
                          r"offer\w*|interview\w*|appl(?:y|ied|ying|ication)|turn(?:ed|s)? \w* ?down|"
                          r"declin\w*|reject\w*)\b", re.I)
# "what did she say about the fjords": what someone said presupposes no outing took place
_REPORTED = re.compile(
    r"\b(?:say|says|said|tell|tells|told|mention\w*|suggest\w*|recommend\w*|advi[cs]e\w*)\b", re.I)


@dataclass(frozen=True)
class Premise:
    holds: bool
    reason: str
    evidence: Evidence | None = None
    unstated: str | None = None  # the relative or pet no sentence states, when only that fails


_PRESENTS = re.compile(r"(?:^|[.!?]\s+)meet\s+[a-z]", re.I)  # "Meet Biscuit!": showing one's own new pet


def _stated(sent: Any) -> bool:
    """The sentence states what it says: no question, wish, plan or denial anywhere in it, nor a
    main clause that only intends its event (a presupposition needs a plain statement; "no dog yet,
    but if I get one…" is none, nor is "we were gonna open a shop in York")."""
    return not hypothetical(sent) and not negated(sent) and not intended(sent)


def _possessed(sent: Any, words: list[str]) -> bool:
    """The sentence speaks of the relative or pet as someone's ("how is your dog Mochi?", "is your
    son still in Leeds?"): even a question takes it as given, unless it is a condition, or denied of a
    pet ("I never had my own dog"); a relative denied something is still there ("I can't get married
    without my sister there")."""
    if any(t.lower_ in ("if", "unless") for t in sent) or negated(sent) and any(w in ANIMALS for w in words):
        return False
    return any(t.lower_ in words and any(c.dep_ == "poss" for x in (t, t.head) for c in x.children
                                         if x is t or t.dep_ in ("compound", "appos")) for t in sent)


def _anothers(sent: Any, words: list[str]) -> bool:
    """Each time the sentence says the relative or pet, it is his, hers, theirs or a named person's
    ("her son Oliver", "Dorothy's dog"): in a speaker's own words, someone else's.

    >>> from tkg.nlp import parse
    >>> _anothers(parse("Her son Oliver is in the upper sixth.")[:], ["son"])
    True
    >>> _anothers(parse("My son and her son are friends.")[:], ["son"])
    False
    """
    said = [t for t in sent if t.lower_ in words]
    return bool(said) and all(any(c.dep_ == "poss" and (c.lower_ in THEIRS or c.pos_ == "PROPN")
                                  for c in t.children) for t in said)


# "my" as people say and type it ("ma sister", "me mam", "mah dog"), which no tagger reads as a possessive
_SAID_MY = frozenset({"my", "ma", "mah", "me", "mi"})


def _my(sent: Any, words: list[str]) -> bool:
    """The sentence says "my" right before the relative or pet ("he's winching ma sister"), or as its
    possessor past other words ("my daft old whippet"): the speaker's own, whoever the sentence is about."""
    return not any(t.lower_ in ("if", "unless") for t in sent) and any(
        t.lower_ in words and t.i > sent.start and (t.doc[t.i - 1].lower_ in _SAID_MY or any(
            c.dep_ == "poss" and c.lower_ in _SAID_MY for c in t.children)) for t in sent)


def _names_any(low: str, names: dict[str, bool], nouns: set[str]) -> bool:
    """The lower-case turn says one of the question's names or presupposed nouns: `check` reads it."""
    return any(says_name(n, low) for n in names) or any(w in low for w in nouns)


def _may_say_event(low: str, event: set[str], placed: dict[str, bool]) -> bool:
    """Whether a sentence of the lower-case turn could say the asked event (`check`): a sentence's
    stems are prefixes of its words, so each is a substring of the turn, as is a place it heads to.
    A turn that fails this is not parsed for the event."""
    return any(s in low for s in event) or bool(event & GOING) and any(
        p and n in low for n, p in placed.items())


_ANCHOR_BEFORE = re.compile(r"\b(?:since|after|before|until|till)\s+(?:the\s+)?$")


def _denies(sent: Any, name: str) -> bool:
    """The sentence calls off what it says or denies the clause that names ``name`` ("I didn't get the
    job at Acueducto"); a denial behind a comma is another clause's ("can't, segfault's at the vet")."""
    text = sent.text.lower()
    at = text.find(name)
    if at > 0 and _ANCHOR_BEFORE.search(text[:at]):  # "no weekend off since Oslo": a time, not denied
        return False
    return negated(sent) and (_RETRACTED_WORDS.search(text) is not None or at > 0 and denied_before(text, at))


def _told_done(told: QuestionEvent, sent: Any) -> bool:
    """The sentence says the asked event happened, in words of its own ("Bramble passed away"): in the
    past tense (or a verb in the present), no question or wish, and no denial in the stretch before
    it ("never felt so happy" after "we're married" denies nothing)."""
    at = told.told_at(sent.text)
    if at < 0 or hypothetical(sent) or told.denied(sent.text):
        return False
    tense = clause_tense(sent.text, at)
    word = next((t for t in sent if t.idx - sent.start_char >= at), None)
    # "me and ilya split up" says it in the present; "my wedding is non-negotiable" names no done wedding
    return tense == "past" or tense == "present" and word is not None and word.pos_ == "VERB"


# "do you have a dog?", "have u got kids": asks whether there is one, takes none as known
_EXISTENCE = re.compile(r"\b(?:have|has|got|any)\b", re.I)


def asked_about_theirs(sent: Any, nouns: list[str], speaker: str, subject: Subject | None) -> bool:
    """A question said to a speaker subject about their own relative or pet ("how old is *your* son
    now?", "and ur sister, still in leeds?"): it takes the relative as known to both, as a statement
    would; one that asks whether there is one ("do you have kids?") takes nothing as known."""
    if subject is None or not subject.speaker or subject.said_by(speaker) or _EXISTENCE.search(sent.text):
        return False
    yours = ("your", "ur")  # "ur" is often parsed as no possessive: the word before will do
    return any(t.lower_ in nouns and (any(c.dep_ == "poss" and c.lower_ in yours for c in t.children)
                                      or t.i > sent.start and t.doc[t.i - 1].lower_ in yours) for t in sent)


def _answered_when(sentence: str, reply: str | None, turn: Evidence) -> bool:
    """The sentence asks when the event is ("when's your driving test again?") and the other speaker's
    reply gives a date ("the 9th"): the reply takes the event as real, as a statement of it would."""
    return bool(reply) and turn.valid_at is not None and asks_when(sentence) \
        and any(r.granularity != "range" for r in find_times(str(reply), turn.valid_at))


# what someone does with an animal of their own ("we adopted a kitten", "walked the dog")
_KEEPING = frozenset("have get adopt rescue buy own bring foster name call walk feed take".split())


def _kept(sent: Any, words: list[str]) -> bool:
    """A relative is there once said; an animal another speaker tells of is someone's only with a verb
    of keeping one ("you got a kitten", "walked the dog"): "she once put the cat in the freezer" gives
    no one a cat."""
    return not _animals(words) or any(t.lemma_.lower() in _KEEPING and t.dep_ not in ("aux", "auxpass")
                                      for t in sent)


def _got(sent: Any, words: list[str]) -> bool:
    """The speaker says they have or got one, in a clause of its own however long the sentence ("guess
    what I have a new pup Mossie's collie had a litter … you can't be on your own"): not a wish.

    >>> from tkg.nlp import parse
    >>> _got(parse("guess what I have a new pup and you can't be on your own up here")[:], ["pup"])
    True
    >>> _got(parse("I would get a puppy if I could.")[:], ["puppy"])
    False
    >>> _got(parse("If I get a cat, fine.")[:], ["cat"])
    False
    """
    return any(t.lower_ in words and t.dep_ == "dobj" and t.head.lemma_.lower() in _KEEPING
               and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in t.head.children)
               and not any(c.dep_ in ("neg", "aux", "mark") and c.lower_ not in ("have", "'ve", "just")
                           for c in t.head.children) for t in sent)


def _ahead(sent: Any) -> bool:
    """The sentence tells what is still to come ("the baby is going to arrive with your cruise")."""
    return any(t.lower_ in ("will", "'ll", "gonna", "shall") or t.lower_ == "going" and t.i + 1 < len(t.doc)
               and t.doc[t.i + 1].lower_ == "to" for t in sent)


def _animals(words: list[str]) -> bool:
    """Some of ``words`` name animals ("spaniels", "pet"), not relatives."""
    return any(w in ANIMALS or w.removesuffix("s") in ANIMALS or w in ("pet", "pets") for w in words)


def _the(sent: Any, words: list[str]) -> bool:
    """One of ``words`` said with "the" and no "of" ("Kit's officially the bf"; not "the sister of a pal")."""
    return any(t.lower_ in words and any(c.dep_ == "det" and c.lower_ == "the" for c in t.children)
               and not any(c.dep_ == "prep" and c.lower_ == "of" for c in t.children) for t in sent)


def _in_phrase(sent: Any, words: list[str]) -> bool:
    """Each time the sentence says one of ``words``, a preposition governs it ("a litter of springer
    spaniels", "photos of dogs"): not an animal of the speaker's ("a dog asleep on my feet" is)."""
    said = [t for t in sent if t.lower_ in words]
    return bool(said) and all(t.dep_ == "pobj" for t in said)


def _third_owned(sent: Any, nouns: list[str]) -> bool:
    """The noun is owned by "his"/"her"/"their" in a turn about a third person ("Marek bought a flat.
    His wife Ola is pregnant"): the turn's person's own relative, as the turn names no one else first."""
    return any(t.lower_ in nouns and any(c.dep_ == "poss" and c.lower_ in THEIRS for c in t.children)
               for t in sent)


def check(q: Question, subject: Subject | None, turns: list[Evidence], speakers: tuple[str, ...],
          replies: dict[str, str] | None = None) -> Premise:
    """Whether every presupposition of the question is stated about its subject in ``turns``.
    A question that asks for an inference ("Would she likely enjoy Vivaldi?") presupposes nothing."""
    question, asked = q.text, q.asked
    if INFERENCE.search(question):
        return Premise(True, "an inference question presupposes nothing")
    focus = [n for n in q.named if subject is None or n.lower() not in subject.aliases]
    # a speaker is there, by any part of their name ("Meera" for the speaker "Meera Raghavan")
    voices = {s.lower() for s in speakers} | {w for s in speakers for w in s.lower().split()}
    focus = [
        n for n in focus if n.lower() not in voices and names_a_thing(n, question)
        and not titles(n, subject, question)
    ]
    nouns = presupposed(q)
    need_names = {n.lower(): False for n in focus}
    retracted: dict[str, bool] = {}  # a name's latest mention calls it off ("the Lisbon move fell through")
    # a "when" question presupposes its event: one of its words is said in some plain statement
    event = q.terms - stems_of([*focus, *(subject.aliases if subject else ())]) - _GENERIC \
        if asked.kind == "date" else set()
    if event & EVERYONES:  # "when is Rafa's birthday": everyone has one, whether or not it is said so
        event = set()
    need_event = set(event)  # one of them will do
    # or a common paraphrase of its verb, told as done ("passed away" for "die", "got him from" for "adopt")
    told = question_event(question, frozenset(n.lower() for n in focus)) if event else None
    # a place is presupposed together with its event ("move back to Accra"), anything else alone
    placed = {n.lower(): is_place_name(n) and not anchoring(question, n) for n in focus}
    need_noun = not nouns
    seen_any: Evidence | None = None
    ordered = [(ev, _names_any(ev.text.lower(), need_names, nouns))
               for ev in sorted(turns, key=lambda e: e.valid_at or FAR_PAST)]
    parse_many([ev.text for ev, named in ordered if named])  # every one of them is read below: one batch
    # an event named by a noun ("her postdoc") may be told in one turn and its place in another ("three
    # year postdoc, I'd start in January" … "I accepted galway officially"): said plainly by the subject
    # anywhere, it goes with the place; an event told by a verb ("move back to Accra") must be said with it
    nouns_said = _told_nouns(question, event, subject, turns, speakers) if event and any(placed.values()) \
        else set()
    for ev, named in ordered:
        low = ev.text.lower()
        may_tell = _may_say_event(low, need_event, placed) or bool(told and told.tells(low))
        if not (named or need_event and may_tell):
            continue
        sents = list(parse(ev.text).sents)
        # a turn may tell its place and its event in sentences of their own ("Yes, the robotics one.
        # Oslo was freezing"): the event's words count from any plain statement of it
        in_turn = {e for e in event if any(same_word(e, w) for s in sents if _stated(s)
                                           for w in content_terms(s.text))}
        # or in words of its own ("greetings from Leipzig! we shifted here finally")
        told_in_turn = told is not None and any(_stated(s) and _told_done(told, s) for s in sents)
        for sent, whole in zip(sents, continued(sents), strict=True):
            text = sent.text.lower()
            a = about(subject, speaker=ev.speaker, sentence=whole, turn=ev.text, others=speakers) \
                if subject else 1.0
            words = content_terms(sent.text)
            words |= {e for e in event if any(same_word(e, w) for w in words)}  # "propose" ~ "propos"
            for n in need_names:
                if not says_name(n, text) or names_no_one(sent, n):
                    continue
                if asked.kind == "date" and a > 0:  # an idiom said to them calls off nothing
                    retracted[n] = _denies(sent, n) and not hypothetical(sent)
                went = bool(event & GOING) and placed[n] and heading_to(text, n)
                if _stated(sent) and (not event or not placed[n] or words & event or in_turn or went
                                      or nouns_said or told_in_turn) \
                        or not event and told_outcome(sent, (replies or {}).get(ev.episode)):
                    need_names[n] = True
                    seen_any = seen_any or ev
            if need_event and (_stated(sent) and (words & need_event or need_event & GOING and any(
                    placed[n] and heading_to(text, n) for n in need_names))
                    or told is not None and _told_done(told, sent)
                    or words & need_event and _answered_when(sent.text, (replies or {}).get(ev.episode), ev)):
                need_event = set()
            # a whole word: "son" is not said by "son-in-law"
            said = [w for w in nouns if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
            theirs = a >= 0.8 or a >= 0.6 and subject is not None and not subject.speaker \
                and _third_owned(sent, said)
            own = subject is not None and subject.said_by(ev.speaker)  # their own word on an animal
            if own and _anothers(sent, said):
                said = []  # "my daughter Eleanor… her son Oliver": in their own words, Eleanor's son
            # "my dog", or an animal in a turn where they present it: "meet mabel. lurcher, 3 years old"
            mine = own and (_my(sent, said) or bool(_PRESENTS.search(low))
                            and any(w in ANIMALS for w in said) or _got(sent, said)
                            or _the(sent, said) and not _ahead(sent))
            # their own word on a relative states one; on an animal, unless it is only a preposition's
            # object ("a breeder with a litter of springer spaniels" gives them none)
            kept = _stated(sent) and (own and not (_animals(said) and _in_phrase(sent, said))
                                      or _kept(sent, said))
            if said and (theirs and (kept or _possessed(sent, said)) or mine
                         or asked_about_theirs(sent, said, ev.speaker, subject)):
                need_noun = True
                seen_any = seen_any or ev
    parts = one_name(question, need_names)  # "the Skoda Octavia" is stated by "the octavia"
    missing = [n for n, ok in need_names.items() if not any(need_names[p] for p in parts[n])]
    if missing:
        return Premise(
            False, f"no sentence states {', '.join(missing)} (stated, not asked, planned or denied)"
        )
    if need_event:
        return Premise(
            False, f"no plain statement says any of {', '.join(sorted(need_event))}: the event has no date"
        )
    called_off = [n for n, off in retracted.items() if off]
    if called_off:
        return Premise(False, f"the last word on {', '.join(called_off)} calls it off, so it has no date")
    if not need_noun:
        who = subject.name if subject else "the subject"
        return Premise(False, f"no sentence about {who} states a {asked.head}", unstated=asked.head)
    off = last_word_calls_off(q, subject, turns, replies)
    if off is not None:
        return off
    return Premise(True, "every presupposition is stated", seen_any)


def _told_nouns(question: str, event: AbstractSet[str], subject: Subject | None, turns: list[Evidence],
                speakers: tuple[str, ...]) -> set[str]:
    """The question's event words that are nouns ("postdoc", "wedding") some plain statement about the
    subject, or in the subject's own turn, says, in any of ``turns``."""
    nouns = {w for w in event if any(t.pos_ == "NOUN" and same_word(w, t.lower_) for t in parse(question))}
    if not nouns:
        return set()
    found: set[str] = set()
    for ev in turns:
        if not any(n in ev.text.lower() for n in nouns):
            continue
        for sent in parse(ev.text).sents:
            a = about(subject, speaker=ev.speaker, sentence=sent.text, turn=ev.text, others=speakers) \
                if subject else 1.0
            if (a >= 0.8 or subject is not None and subject.said_by(ev.speaker)) and _stated(sent):
                found |= {n for n in nouns if any(same_word(n, w) for w in content_terms(sent.text))}
    return found


def last_word_calls_off(q: Question, subject: Subject | None, turns: list[Evidence],
                        replies: dict[str, str] | None = None) -> Premise | None:
    """A question that takes as done a plan or an outing the conversation last called off ("what
    did they see in Amsterdam?" after "amsterdam is off for me"; "how did the talk go?" after "they
    cancelled the meetup"): a false premise (`procedures.calloff`). Questions about the call-off
    itself (why, what happened, when it was meant to be) presuppose nothing of the kind, nor does a
    summary other than how something went."""
    summary = q.asked.kind == "summary" and not OUTCOME.search(q.text)
    if summary or q.asked.kind in ("reason", "event", "status") or q.asked.yesno or q.asked.recency \
            or _ABOUT_PLANS.search(q.text) or _REPORTED.search(q.text):
        return None  # "what is their status now" asks how things stand, not about a thing done
    got = last_called_off(q, subject, turns, replies)
    if got is None:
        return None
    return Premise(False, f"the last word on {', '.join(got[0])} calls it off", got[1])
