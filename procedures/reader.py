"""The offline reader: a value of the asked kind out of the evidence, or an honest abstention.

After a procedure has gathered evidence, the reader reads it for the question: every sentence
about the question's subject (`procedures.about`) is asked for spans of the asked kind
(`planners.asked`, `procedures.spans`); each span is weighed by how sure its typing is, how
surely its sentence is about the subject, how many of the question's and the relation's words
the sentence shares, and whether it is stated (not asked, wished, planned or denied). Graph facts
of a fitting type are candidates too. "Now" takes the latest well-supported value, a date the
latest one said by then, a list every well-supported value; nothing well supported, or a false
premise (`procedures.premise`), is "No information available".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from planners.asked import RACE_TIME, Asked
from tkg.models import NO_INFORMATION, Evidence
from tkg.nlp import parse, parse_many, token_words
from tkg.text import content_terms, stem
from tkg.words import is_place_name

from .about import FIRST, SECOND, Subject, about, another_doer, called_out, clause_about
from .calloff import refused
from .members import Category, bare, widen
from .residence import back_from, home_named, locates, named_home, place_scale, residence_scale, taken_back
from .span_base import addressed, foreign_sentence, greets, opening_name, proper_runs
from .span_context import headline, pronoun_after_next, quoted, tag_after
from .span_objects import glued_cues, not_a_thing, objects_of, site_of_object
from .span_patterns import ACQUIRING, ROMANCE, asks_studied, degrees, introduced, may_hold, sources
from .span_pets import pet_possessor
from .span_roles import pastime_doer
from .span_words import (
    CALENDAR,
    CATEGORY_MEMBERS,
    NAMED_CONTEXT,
    OPEN_MEMBERS,
    PET_WORDS,
    ROLE_HEADS,
    SOMEONE_END,
    SPAN_MEMBERS,
    THEIRS,
    pet_words,
    titled_as,
)
from .span_workplaces import EMPLOYERS, INSTITUTIONS, asks_about_work, workplaces
from .spans import spans_of
from .stated import called_off, denies, hypothetical, negated, only_wished, past_state, said_time
from .swaps import broke_up, ended, given_up, replaced, replacing

if TYPE_CHECKING:
    from tkg.context import Context

SUPPORT = 0.5  # the least support a value needs to answer
# a thing is the loosest kind (any noun phrase types as one): alone it needs more ("bingo card" for a
# graphics card); a list's things stay at SUPPORT
THING_SUPPORT = 0.62
# inside a window whose well-supported values were all said after it, a value of a well-typed kind said by
# its end needs less
WINDOW_SUPPORT = 0.4
NEWER = 1.0  # the support a value said after the graph's newest edge needs to replace it
# a span whose kind is itself specific ("I'm a paralegal", "we got engaged", a member of a known
# category: "me on bass", an amount of money: "£80") needs fewer cue words
_FLOOR = {"role": 0.6, "status": 0.6, "pet_name": 0.45, "animal": 0.45, "amount": 0.5}
FAR_FUTURE = datetime(2200, 1, 1, tzinfo=UTC)
_VISIT = frozenset("visit visiting visited trip holiday holidays vacation weekend conference flight flying "
                   "travel travelling traveling tour stay staying".split())
# a turn that says its speaker has just moved in: "first weekend in Penarth" there is no visit
_MOVED_IN = re.compile(r"\b(?:moved\s+in|unpack\w*|got\s+the\s+keys|new\s+(?:flat|house|place|home))\b", re.I)
# words of a question's race that name no particular race ("the Harbour Run", "her official chip time")
_RACE_GENERIC = {stem(w) for w in "time finish finishing pb best personal record fast run ran race result "
                                  "official chip clock".split()}
_STATE_KINDS = frozenset({"place", "organisation", "person", "role", "thing", "pet_name", "animal", "number"})
# kinds whose values are words: a bare number ("11") is never a role, a name or a place
NAMED_KINDS = frozenset({"place", "organisation", "person", "role", "pet_name", "animal", "status"})


@dataclass
class Candidate:
    value: str
    score: float
    when: datetime | None
    evidence: Evidence
    source: str  # "graph" or "turn"
    owner: float = 0.0  # how surely the value's own clause is about the subject (`clause_about`)
    denied: bool = False  # the clause says the state does not hold ("I have not moved to Oslo")
    left: bool = False  # the clause leaves it ("last ever shift at the warehouse"): held until then


@dataclass
class Reading:
    answer: str
    abstained: bool
    support: list[Evidence]
    trace: dict[str, Any] = field(default_factory=dict)
    typed: bool = False  # a value of a well-typed kind (a place, a person…) stated about the subject
    own: str | None = None  # the speaker whose own first-person clauses state every chosen value


def norm(value: str) -> str:
    """A value's comparison form: casefolded, accents and punctuation gone."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", value) if not unicodedata.combining(c))
    return " ".join("".join(c if c.isalnum() else " " for c in plain.casefold()).split())


# the bodies one joins for a pastime, whose name ends in the word ("York City Rowing Club")
_PASTIME_BODIES = frozenset("club choir league crew orchestra squad ensemble".split())
# the words an institution's name ends in, which no person's or pet's does
_BODIES = INSTITUTIONS | frozenset("trust rescue shelter sanctuary kennels society foundation".split())
_PARTNER_CUES = content_terms("partner girlfriend boyfriend bf gf dating seeing engaged fiance fiancé "
                              "husband wife")


# kinds whose spans are typed well enough that the answer to the turn before may be read without its words
_REPLY_KINDS = frozenset({"place", "organisation", "person", "role", "pet_name", "animal"})
# a question asking where, ending its turn (the next turn's first sentence answers it)
_ASKS_WHERE = re.compile(r"\bwhere\b[^.!?]*\?\W*$", re.I)
# the words a reply opens with, which a tagger may take for a name ("Yep, …"): never a value
_REPLY_WORDS = frozenset("yep yes yeah yup yea ya nope nah no ok okay sure lol haha omg wow aww".split())

# the kinds whose value a call-off after it refuses only where its sentence tells an offer (`refused`)
_WHO = frozenset({"person", "pet_name", "animal"})
# the kinds a speaker's own name never answers, wherever it is said
_NOT_NAMED = frozenset({"place", "organisation"})


def candidates(
    ctx: Context, asked: Asked, subject: Subject | None, turns: list[Evidence], cues: set[str],
    speakers: tuple[str, ...], excluded: set[str], verb: str | None, *, attribute: bool = True,
    before: dict[str, tuple[str, ...]] | None = None, residence: bool = False,
    replies: dict[str, str] | None = None, members: Category | None = None,
    employer: frozenset[str] = frozenset(), source: bool = False, loose: set[str] | None = None,
    now: bool = False, trip: bool = False,
) -> list[Candidate]:
    """Every span of the asked kind in ``turns``, weighed (see the module doc). With ``attribute``
    the span's own clause must be about the subject (a slot of the subject's: where they live);
    without it the sentence is enough (a chain: the city the subject's manager came from). With
    ``residence`` (the slot is where someone lives) a place weighs by `residence_scale`; ``replies``,
    a question the other speaker said yes to (`confirmed`). With ``members`` (a list of a head noun's
    members, `procedures.members`) only spans tied to the category count, each as if cued. A role
    asked of a named ``employer`` (its stemmed words) weighs less from a turn that names none of it.
    With ``source`` (where a thing was had from) the place a "from" after a getting verb names counts.
    A turn in ``loose`` (read for no cue word of its own) gives only spans whose words say the relation.
    Asked ``now``, a value a change gave up ("switched from the trumpet to the trombone") weighs less."""
    out: list[Candidate] = []
    # the race a race time is asked of by its name ("the Robin Hood Half"; the question's names but its
    # subject's): a time said in a sentence that names none of it is another run's ("did 7k in 44 minutes")
    named = content_terms(" ".join(excluded - (subject.aliases if subject else set())))
    races = {c for c in named if c not in _RACE_GENERIC and c not in CALENDAR and not c.isdigit()} \
        if asked.head == RACE_TIME else set()
    excluded = excluded | _REPLY_WORDS
    relation = frozenset({asked.head, *cues}) if asked.head else frozenset(cues)
    voices = {s.lower() for s in speakers} | {s.lower().split()[0] for s in speakers if s.strip()}
    pets = asked.kind == "pet_name"  # an animal word (or 🐱) next to a name is the relation's own cue
    species = pet_words(asked.head)  # a cat's words for a cat
    partner = asked.kind == "person" and bool(cues & _PARTNER_CUES)
    orgs = asked.kind == "organisation" and asked.many  # "engineer at X", "my supervisor at X": a workplace
    # "me on bass": specific as a role; "£4,200": a sum of money is specific too
    floor_kind = "role" if asked.head in CATEGORY_MEMBERS or asked.head in OPEN_MEMBERS else (
        asked.head if asked.head == "amount" else asked.kind)
    read = [members.may_hold(ev.text) if members is not None else may_hold(asked, ev.text, verb)
            for ev in turns]
    parse_many([ev.text for ev, r in zip(turns, read, strict=True) if r])  # one batch for all that are read
    for rank, ev in ((rank, ev) for rank, ev in enumerate(turns) if read[rank]):  # ranks as in ``turns``
        doc = parse(ev.text)
        sents = list(doc.sents)
        previous, *earlier = (before or {}).get(ev.episode, ("",))
        answered = (replies or {}).get(ev.episode, "")  # the other speaker's reply
        elsewhere = bool(employer) and not employer & content_terms(ev.text)  # names no employer asked of
        # a partner asked for: a name introduced ("her name is lena") in a turn or reply that says it is one
        romance = partner and bool(ROMANCE.search(ev.text) or ROMANCE.search(answered))
        own = subject is not None and subject.said_by(ev.speaker)  # "Her name is Luna": the speaker's pet
        # (in a turn that tells of an animal: "my engagement is fixed. His name is Dev" names no pet)
        animal = pets and any(t.lower_ in species or t.lower_ in PET_WORDS for t in doc)
        # the turn answers a question the one before asked in the question's own words (ellipsis)
        asked_first = asked.kind in _REPLY_KINDS and previous.rstrip().endswith("?") \
            and bool(content_terms(previous) & cues)
        per_sent = [about(subject, speaker=ev.speaker, sentence=x.text, turn=ev.text, others=speakers,
                          previous=previous, earlier=earlier[0] if earlier else "") if subject else 0.6
                    for x in sents]
        turn_about = max(per_sent, default=0.0)
        homes = [sp.start for x in sents for sp in spans_of(x, "place", asked.head)] \
            if residence and asked.kind == "place" else []
        moved_in = _MOVED_IN.search(ev.text)  # (once a turn: the visit test below reads it per sentence)
        moved = moved_in if homes and subject is not None and subject.said_by(ev.speaker) else None
        # "Moved in! First proper weekend in Penarth.": the first place named after the move is the home
        arrived = next((h for h in sorted(homes) if moved and doc[h].idx >= moved.end()), None)
        last_cues: list[int] = []
        said: list[tuple[int, int]] = []  # (span start, its candidate's index in out) in this turn
        listener = subject is not None and subject.speaker and not subject.said_by(ev.speaker)
        cue_at = [[i for i, st, low, lemma in token_words(x)  # "got" says the question's "get"
                   if st in cues or lemma in cues or (pets and low in species)
                   or (orgs and lemma in ROLE_HEADS)] + glued_cues(x, cues) for x in sents] + [[]]
        for k, (sent, a) in enumerate(zip(sents, per_sent, strict=True)):
            if not (listener and FIRST.search(sent.text) and not SECOND.search(sent.text)):
                a = max(a, 0.8 * turn_about)  # "I …" to the subject is about the speaker, whatever else
            at = cue_at[k]
            # a cue in the sentence before counts, further off; so does one in the sentence after: for a
            # person or a pet ("Tupsu is fourteen. my old whippet sleeps all day"; not "[laughing emoji]"),
            # and after a verbless one that says a number, exclaimed first and told after ("52:40!!! Did the
            # 10k on the 17th"; not "Woohoo! Congrats on the new team")
            of_one = asked.kind in ("person", "pet_name") and not any(t.is_bracket for t in sent)
            told_after = cue_at[k + 1][:1] if of_one or any(t.like_num or ":" in t.text for t in sent) \
                and not any(t.pos_ in ("VERB", "AUX") for t in sent) else []
            near_cues = at + [i - 4 for i in last_cues[-1:]] + [i + 4 for i in told_after]
            # "Liam did his first flight yday. my baby bro!!": the tag after says who its subject is
            # ("Tobias said… So I shall stop calling him that. He is my boyfriend.": the tag after next)
            tagged = "" if asked.kind != "person" else tag_after(sents[k + 1 :]) if cue_at[k + 1] else \
                pronoun_after_next(sents[k + 1 :]) if k + 2 < len(sents) and cue_at[k + 2] else ""
            told = f"{sent.text} {sents[k + 1].text}" if told_after else sent.text  # what says the value
            if sent.start == 0 and asked_first:  # the answer to the turn before: its cue words count, as
                near_cues += [sent.start - 1, sent.end]  # if said at either end of the sentence
                if subject is not None and subject.said_by(ev.speaker):
                    a = max(a, 0.8)  # "still at the vet place?" – "ya still at greenpaw vets": theirs
            if k and cue_at[k - 1] and SOMEONE_END.search(sents[k - 1].text) \
                    and sum(t.is_alpha for t in sent) <= 3:  # "I've been seeing someone. Saoirse.": that one
                near_cues += [sent.start - 1]
            last_cues = at or last_cues
            if a <= 0.0:
                continue
            spans = spans_of(sent, asked.kind, asked.head)
            abroad = foreign_sentence(sent)  # its English parse says nothing of whose a clause is
            if asked.kind == "organisation" and sent.start == 0 and asks_about_work(previous):
                taken = {i for sp in spans for i in range(sp.start, sp.end)}  # the reply to "still at the …?"
                spans += workplaces(sent, taken, asked_about_work=True)
            if asked.kind == "place" and sent.start == 0 and _ASKS_WHERE.search(previous):
                taken = {i for sp in spans for i in range(sp.start, sp.end)}  # "Where are you going for the
                spans += [r for r in opening_name(sent) + proper_runs(sent)  # honeymoon?" – "Madeira.":
                          if not taken & set(range(r.start, r.end))  # the name it answers with
                          and doc[r.start].ent_type_ not in ("PERSON", "ORG")]
            if trip:  # "back from Sardinia": the place a trip is back from, however the tagger took it
                spans += [r for r in proper_runs(sent) if back_from(doc, r.start, ev.valid_at)
                          and not any(sp.start <= r.start < sp.end for sp in spans)]
            if verb and asked.kind == "thing":  # a closed category's members only: "how does she get to
                closed, objects = SPAN_MEMBERS.get(asked.head), objects_of(sent, verb)  # work": no "bedroom"
                spans += [o for o in objects if not closed or o.text.split()[-1].lower() in closed  # one, not
                          and not {"and", "or", "&"} & set(o.text.lower().split())]  # "Bath and the Corsa"
            had = sources(sent) if source else []  # "got him from the rspca centre in leeds"
            had_from = {sp.start for sp in had}
            spans += had
            if asks_studied(asked, verb):
                spans += degrees(sent)  # "got an offer for Bachelor of Nursing", "her midwifery degree"
            if members is not None:
                # a person or a pet tied to the category is cued by the tie; a thing's span is typed by
                # the category's own words already, so its cue words weigh as before
                tie_cues = asked.kind != "thing"
                spans = [replace(sp, text=doc[a:b].text, start=a, end=b, cued=sp.cued or tie_cues)
                         for sp in spans + members.spans(sent) for a, b in [widen(doc, sp.start, sp.end)]
                         if (sp.cued or pets or members.tied(doc, sp.start, sp.end))
                         and (not bare(sp.text, members) or members.activity and sp.cued)]
                # (a pet's name is typed by an animal word; "the bike" names no member, but "joined the
                # choir" takes up an activity, which its kind word names)
            if loose and ev.episode in loose:
                spans = [sp for sp in spans if sp.cued]
            if not spans:
                continue
            words = content_terms(sent.text)
            overlap = len(words & cues)
            weight = 1.15 if rank < 5 else 1.0
            # (not "yes, she's my supervisor" to a question, nor "asked me to run the team" – "congrats!!")
            asking = asked.kind in _STATE_KINDS and only_wished(sent, answered)
            parted = partner and broke_up(sent)  # "Elio and I split up": her partner until then, told so
            if asked.kind in _STATE_KINDS:
                if asked.kind == "place" and words & _VISIT and not moved_in:
                    weight *= 0.4
            for sp in spans:
                if sp.start > sent.start and doc[sp.start - 1].lower_ in ("not", "never"):
                    continue  # "it's 50:48, not 50:58": the value said to be wrong supports nothing
                when = said_time(sent.text, ev.valid_at, doc[sp.start].idx - sent.start_char)
                if asked.head == RACE_TIME and when == ev.valid_at:  # "52:40!!! Did the 10k on the 17th!":
                    when = said_time(ev.text, ev.valid_at)  # a result is dated by its race's day in the turn
                value = norm(sp.text)
                if not value or value in excluded or value in (asked.head, asked.head + "s") or (
                        asked.kind == "thing" and not_a_thing(doc[sp.start : sp.end], asked.head,
                                                              listing=asked.many)):
                    continue
                vouched = sp.start in had_from or (romance or animal and own) and introduced(doc, sp.start) \
                    or tagged == "tag" and doc[sp.end - 1].dep_ in ("nsubj", "nsubjpass") \
                    or tagged == "pronoun" and sp.start == spans[-1].start  # the sentence after says whose
                swapped = asked.kind in _STATE_KINDS and replacing(doc[sp.end - 1])  # "…in for a Leaf"
                gap = 0 if sp.cued or vouched or swapped or parted or titled_as(asked.head, doc[sp.start]) \
                    else min((max(sp.start - i, i - sp.end + 1, 0) for i in near_cues), default=None)
                if asked.kind == "place" and (sp.start > sent.start and locates(doc, sp.start)
                                              or bool(homes) and named_home(doc, sp.end, homes)
                                              or residence and home_named(doc, sp.end)):
                    gap = min(gap if gap is not None else 9, 2)  # "she's in bergen now", "moved to porto"
                if trip and when is not None and (back := back_from(doc, sp.start, ev.valid_at)) is not None:
                    gap, when = 0, min(when, back)  # "back from Sardinia": the trip, over by the telling
                near = _FLOOR.get(floor_kind, 0.3) + (0.9 / (1 + gap / 3) if gap is not None else 0.0) \
                    + 0.15 * min(overlap, 3)
                last = doc[sp.end - 1]
                a_name = asked.kind == "person" or doc[sp.start].ent_type_ == "PERSON" \
                    or sp.text.lower() in voices or greets(sp.text)  # ("Dear Doug")
                if a_name and addressed(doc.text, doc[sp.start].idx, last.idx + len(last)):
                    continue  # "Ben,\n\nHappy new year", "Dear Doug,": the letter's reader, not a value
                if asked.kind != "person" and sp.text.lower() in voices and (called_out(
                        doc.text, doc[sp.start].idx, last.idx + len(last)) or asked.kind in _NOT_NAMED):
                    continue  # "Sofia, quick heads-up": a speaker called by name, not the city; "it's
                    # Shona from Proper Crumb": the speaker (a person asked may be the one called: "thanks
                    # Maria, yoga was fun")
                penalty = 0.6 if asked.kind == "person" and sp.text.lower() in voices else 1.0
                if asked.kind == "person" and doc[sp.start].ent_type_ != "PERSON" and not vouched \
                        and is_place_name(sp.text, locative=True):  # ("his name is marco": a name)
                    penalty *= 0.4  # "I've gone full Yorkshire": a place, not a partner
                owner = a if not (subject and attribute) or abroad else clause_about(
                    subject, doc[sp.start], speaker=ev.speaker, speakers=speakers, fallback=a,
                    relation=relation)
                if sp.by_context and doc[sp.end - 1].dep_ == "nsubj" and doc[sp.end - 1].head.lemma_.lower() \
                        in NAMED_CONTEXT.get(asked.head, ()):  # "Atleti won": the team did, in a sentence
                    owner = max(owner, a * 0.6)  # about the subject, who tells it; not "Jordi took me"
                if vouched and not (owner == 0.0 and another_doer(doc[sp.start])):
                    owner = max(owner, a)  # "got him from the rspca centre", "her name is lena": whose, the
                    # sentence's (not "she has a cat called pancake", a clause someone else does)
                if pets and doc[sp.start].dep_ == "nsubj" and any(  # "Biscuit (the old collie) is nine":
                        c.dep_ == "appos" and c.lower_ in PET_WORDS for c in doc[sp.start].children):
                    owner = max(owner, a * 0.8)  # a pet is its clause's subject, which says not whose it is
                # "she brought Mango, her cockapoo": hers, not the speaker's or the listener's; "Rory's
                # collie": Rory's
                if pets and subject is not None and (whose := pet_possessor(sp, doc)) is not None:
                    low = whose.lower_
                    if low in ("my", "me") and subject.said_by(ev.speaker) or subject.named_in(whose.text):
                        owner = max(owner, a)
                    elif low in ("my", "me") or whose.pos_ == "PROPN" or subject.speaker and low in THEIRS:
                        owner = 0.0
                if asked.kind == "thing" and own and sp.cued and doc[sp.end - 1].dep_ == "nsubj" \
                        and doc[sp.end - 1].head.lemma_ != "be":  # (not "the Hilux was too much truck")
                    owner = max(owner, a * 0.6)  # "the Picanto did its first big shop": the teller's
                scale = place_scale(asked.head, sp.text) if asked.kind == "place" else 1.0
                if source and not had_from and not any(t.lemma_.lower() in ACQUIRING for t in sent):
                    scale *= 0.5  # "writing from the new flat in york" tells no getting
                if residence and asked.kind == "place" and sp.start != arrived:
                    scale *= residence_scale(doc, sp.start, sp.end)
                elif sp.start == arrived:
                    owner = max(owner, a)
                if asked.kind == "organisation" and sp.start > sent.start and locates(doc, sp.start) \
                        and is_place_name(sp.text, locative=True):
                    scale *= 0.3  # "a postcard from Geiranger", "moved to Leeds": a place, not a club
                if asked.kind == "organisation" and site_of_object(doc[sp.end - 1]):
                    scale *= 0.4  # "joined Barclays at Canary Wharf": where the workplace is
                if asked.kind == "organisation" and asked.head in EMPLOYERS \
                        and sp.text.split()[-1].lower() in _PASTIME_BODIES:
                    scale *= 0.3  # "joined York City Rowing Club": a pastime's club, not an employer
                if asked.kind in ("pet_name", "person") and sp.text.split()[-1].lower() in _BODIES:
                    scale *= 0.2  # "came home from the Retired Greyhound Trust with Pippa": where, not who
                if asked.kind == "thing" and is_place_name(sp.text, locative=True):
                    scale *= 0.3  # a city is not a band or a food; it still backs "Rotterdam marathon"
                # "…offered me a ward manager post. I said no.": refused, so never held
                turned_down = asked.kind in _STATE_KINDS and refused(sents, k, sp.text,
                                                                     who=asked.kind in _WHO)
                denial = asked.kind in _STATE_KINDS and denies(sent, doc[sp.start]) or turned_down
                left = asked.kind in ("place", "organisation") and ended(sent, doc[sp.start]) or parted
                if left and now:
                    scale *= 0.35  # "bye Clapham": not where they live now
                # "I'm over The Marigold Engine", "switched from keyboard to bass", "quitting volleyball":
                # held until then, so left, as a home one moved out of
                over = asked.kind in _STATE_KINDS and given_up(sent, doc[sp.start])
                swapped = asked.kind in _STATE_KINDS and replaced(doc[sp.end - 1])
                left = left or over or swapped
                if asked.kind in _STATE_KINDS and (negated(sent, doc[sp.start]) or over or now and swapped
                                                   or called_off(sent, doc[sp.start]) or turned_down):
                    scale *= 0.35  # "didn't get the job", "the Thornby cottage is off", "…a post. I said no"
                if races and not races & content_terms(told) and not (k and headline(sents[k - 1], races)):
                    scale *= 0.3  # "did 7k on Sunday in 44 minutes" for "her time at the Robin Hood Half"
                if asked.kind == "role" and (quoted(sent, sp.start, sp.end)
                                             or asked.head == "job" and pastime_doer(sp.text)):
                    scale *= 0.3  # "they call me 'chief biscuit officer'", "I'm a climber now": not a job
                if elsewhere:
                    scale *= 0.3  # "what job did he take at Tallyho Brewing": a role of a turn naming it
                if asked.kind in _STATE_KINDS and when == ev.valid_at and past_state(doc[sp.start]):
                    scale *= 0.6  # "In Brazil I was a developer": held before the turn, when undated
                if asking and hypothetical(sent, doc[sp.start]):
                    scale *= 0.25  # asked, wished or planned, not stated
                said.append((sp.start, len(out)))
                score = sp.sure * (0.3 + owner) * weight * near * penalty * scale
                # (a Spanish opening mark the tokenizer glued to the value is no part of it: "¡Tesla")
                out.append(Candidate(sp.text.lstrip("¡¿") or sp.text, score, when, ev, "turn", owner, denial,
                                     left))
        if asked.kind in _STATE_KINDS:
            starts = [s for s, _ in said]
            for start, i in said:
                if taken_back(doc, start, starts):
                    out[i].score *= 0.3
    return out


def no_information(reason: str, evidence: list[Evidence], trace: dict[str, Any]) -> Reading:
    """An abstention that keeps what was looked at, labelled as related turns, not support."""
    return Reading(NO_INFORMATION, True, evidence, {**trace, "abstained_by": "reader", "reason": reason,
                                                     "evidence_role": "related"})
