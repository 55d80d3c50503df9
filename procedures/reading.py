"""Reading step of `answer_question`: turn a procedure's evidence into a typed answer or "No info".

It parses what the question asks for (`planners.asked`), finds its subject, widens the evidence with
the subject's own turns, checks the question's presuppositions (`procedures.premise`), and lets
`procedures.reader` pick a value of the asked kind: the latest for "now", the one said by the date
(or event) for a time-anchored question, all for a list. Summaries and dates keep the procedure's answer.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from planners.head_words import kind_of_noun
from planners.query_text import employer_named, names_in
from planners.question import Question
from tkg.nlp import parse_many
from tkg.text import content_terms

from .about import Subject, own_voice, subject_of
from .abstain import INFERENCE
from .bridge import (
    bridge_facts,
    dates_relation,
    find_bridge,
    relation_cues,
    relation_of,
    said_with,
    says_relation,
    unnamed_relative,
    value_predicate,
    verb_relation,
)
from .calloff import OUTCOME, asks, followed, question_nouns
from .choice import ALL_LEFT, address, choose, phrase
from .cue_words import TRIP_WORDS, cue_terms, trip_question
from .event_turns import continuing_turns, event_window, newest_own, read_event, subject_turns
from .gather import same_value
from .graph_values import (
    edge_fault,
    ends_at_person,
    graph_candidates,
    said_by_other_verb,
    slot_verbs,
    with_workplace,
)
from .group_turns import before_history, replies_to, turns_before
from .held import count_reading, held_since, sale_reading, still_held, taken_up
from .lead import leading
from .members import category_of, headed_facts, kind_words, member_facts
from .pets import group_pets, owned_pets, pet_reading
from .premise import check
from .presupposed import presupposed
from .reader import FAR_FUTURE, NEWER, Reading, candidates, no_information, norm
from .relatives import not_the_person_asked
from .residence import lives_question
from .result import ProcedureResult
from .sentence_value import (
    answered_by_reply,
    answering,
    asks_a_name,
    echoed,
    names_kind,
    sentence_for_value,
    title_answer,
)
from .slots import FAR_PAST, group_time
from .span_patterns import asks_where_had, may_hold
from .span_words import CATEGORY_MEMBERS, NAMED_CONTEXT, OPEN_MEMBERS, SPAN_MEMBERS
from .span_workplaces import AT_WORK, EMPLOYERS
from .synthesis import dedupe, fact_evidence, format_day
from .verb_args import by_verb, echoes, main_verb, present
from .when import AGO_Q, ago, is_when, names_date, read_when

if TYPE_CHECKING:
    from tkg.context import Context

# kinds whose spans are typed well enough that finding none means the evidence does not say
TYPED = frozenset({"place", "organisation", "person", "role", "pet_name", "animal", "status", "number"})
_RELATION_HEADS = frozenset("""manager boss supervisor sister brother mother father son daughter husband wife
    partner girlfriend boyfriend fiance fiancee friend job title profession occupation role city town country
    relationship dog cat age baby child kid""".split())
_SLOT_KINDS = frozenset({"place", "person", "role", "status", "pet_name", "organisation"})
_THROUGH = frozenset({"place", "organisation", "role", "thing", "pet_name"})
# a value read from the turns for "now" that a later turn may end or take back ("the offer got withdrawn")
_HELD = frozenset({"person", "organisation", "role", "place"})
_PARTNERS = frozenset("partner boyfriend girlfriend husband wife fiance fiancé fiancee fiancée spouse"
                      .split())


def read(ctx: Context, q: Question, group: str, *, mode: str, as_of: datetime | None,
         result: ProcedureResult, predicate: str | None, by_category: bool = True) -> Reading | None:
    """The reader's answer for the question, or None to keep the procedure's own (see the module doc).
    A list of a category's members that finds none tied to it reads again without the category
    (``by_category`` False), edges and spans as before: the category narrows a list, never empties one."""
    question, asked = q.text, q.asked
    trace: dict[str, Any] = {"asked": asked.to_trace()}
    if asked.kind == "summary" and not OUTCOME.search(question):
        return None  # "how did the talk go" is read for its premise only
    speakers = tuple(ctx.speakers(group))
    subject = subject_of(q, ctx.speakers(group))
    trace["subject"] = subject.name if subject else None
    cue_set = cue_terms(ctx, question, predicate, subject, asked)
    had_from = asks_where_had(asked, question)  # "where did she adopt him from" (reader.sources)
    listing = asked.many and mode == "aggregation"  # a list reads all the subject's turns
    asks_home = lives_question(question)  # "where does she live": her home, whatever the relation asked
    home = predicate == "lives_in" and asks_home  # a list of homes too: "which cities has she lived in"
    every = listing or home and subject is not None and subject.speaker  # so does where a speaker lives
    # the turns naming a member of the category ("an electric scooter"), or what is done with one ("a gig")
    members_of = (SPAN_MEMBERS.get(asked.head) or OPEN_MEMBERS.get(asked.head, frozenset())
                  if asked.kind == "thing" and not listing else
                  frozenset()) | NAMED_CONTEXT.get(asked.head, frozenset())
    if asked.kind == "organisation" and asked.head in EMPLOYERS:  # "my team at Brenner won an award"
        members_of |= AT_WORK
    trip = asked.kind == "place" and trip_question(question)  # "back from Sardinia" names no holiday
    members_of |= TRIP_WORDS if trip else frozenset()
    turns = dedupe(result.evidence + subject_turns(ctx, group, subject, cue_set | content_terms(" ".join(
        members_of)), k=60 if every else 24, own=every))
    turns = dedupe(turns + continuing_turns(ctx, group, subject, turns))  # "she's a doctor" after her name
    # a speaker's job or workplace "now": their newest turns that share no cue word are read too, for a
    # value whose own words say the relation only ("now I'm Head of Design", "my team at Brenner")
    loose = newest_own(ctx, group, subject, turns) if asked.kind in ("role", "organisation") and not \
        asked.many and (asked.recency or mode == "latest_version") else []
    turns = dedupe(turns + loose)
    kin = presupposed(q)  # the turns that would state a presupposed relative or pet ("my son", "our dog")
    stating = subject_turns(ctx, group, subject, content_terms(" ".join(kin))) if kin else []
    pool = dedupe(turns + stating)
    follow = followed(q, subject, pool) - question_nouns(q, subject)  # "the cruise" the fjords were in
    pool = dedupe(pool + subject_turns(ctx, group, subject, follow)) if follow else pool
    # a question's reply may call off what it asks about (calloff.py), or tell how it went (stated.py)
    asking = [e for e in pool if "?" in e.text or asks(e.text)]
    premise = check(q, subject, pool, speakers, replies_to(ctx, group, asking))
    trace["premise"] = premise.reason
    pets = owned_pets(ctx, group, subject, asked.head) \
        if asked.kind == "pet_name" and asked.head and subject is not None and subject.speaker else []
    if pets and not premise.holds and premise.unstated == asked.head:  # a pet shown, never called a cat
        return pet_reading(pets, result.evidence, {**trace, "premise": "the pet is shown, not named a "
                                                   f"{asked.head}: {premise.reason}"})
    if not premise.holds:
        return no_information(f"false premise: {premise.reason}", result.evidence or turns[:5], trace)
    if asked.kind == "summary":
        return None
    if subject is not None and asked.many and asked.head and norm(subject.name) in kind_words(asked.head):
        subject = None  # "who have been the startup's CTOs": the category asked for, not whose
    if asked.kind in ("reason", "manner"):
        return None  # a reason or a manner is a clause: the procedure's sentence stands
    sale = sale_reading(ctx, q, group, subject, turns, speakers, result.evidence, trace)
    if sale is not None:
        return sale
    if asked.count and asked.head and subject is not None:  # "how many hens does she have": run the count
        counted = count_reading(ctx, group, subject, q, turns, result.evidence, trace)
        if counted is not None:
            return counted
    if is_when(q) and not asked.count:  # the date of the asked event, never a sentence
        names = frozenset({n.lower() for n in q.named} | (subject.aliases if subject else set()))
        when = read_when(ctx, q, group, turns, result.evidence, names, subject)
        if when is not None and when.untold:
            return no_information("no turn states the event", result.evidence or turns[:5],
                                  {**trace, "when": when.trace})
        if when is not None:  # told by the subject or naming them: whose event it is is settled
            teller = subject.name if when.theirs and subject and subject.said_by(when.teller) else None
            answer = when.answer  # "how long ago": the time between the date and the group's latest turn
            if AGO_Q.search(question) and when.start is not None:
                now = group_time(ctx, group)
                answer = f"{ago(when.start, now)} before {format_day(now)}: {answer}"
            return Reading(answer, False, when.support, {**trace, "when": when.trace}, typed=when.theirs,
                           own=teller)
        if not names_date(result.answer):  # the procedure's date stands (a turn's, an edge's); a sentence not
            return no_information("no turn ties a date to the event", result.evidence or turns[:5], trace)
    if asked.count and asked.head and mode == "aggregation" and not result.trace.get("from_graph") \
            and by_category and kind_of_noun(asked.head) not in ("number", "date"):
        counted = count_of_list(ctx, q, group, as_of=as_of, result=result, predicate=predicate)
        if counted is not None:  # "how many sports has she taken up": the sports a list names
            return counted
    if asked.kind == "date" or asked.count:  # dates and counts are the procedures' (temporal, aggregation)
        return answered_by_reply(ctx, q, group, subject, result, trace, turns) or sentence_for_value(
            q, result, trace, turns)
    if asked.kind == "event" or (asked.yesno and asked.kind == "thing" and not asked.head):
        got = read_event(asked, question, subject, turns)
        if got is None:
            return None  # no event word next to it: the procedure's answer stands
        word, ev = got
        answer = (f"No, {word}" if asked.yesno else word) + (
            f" ({format_day(ev.valid_at)})" if ev.valid_at else ""
        )
        return Reading(answer, False, dedupe([ev, *result.evidence]), {**trace, "event": word})
    # the steps from here read the question's verb and the turns' spans: one batch for the question
    # and every turn that may hold a span without the verb (a batch parses a text several times cheaper
    # than a call of its own, with the same result); the steps before parse only the turns they read
    asked_doc = parse_many([question, *(e.text for e in turns if may_hold(asked, e.text, None))])[0]
    excluded = {norm(n) for n in names_in(question)} | (
        {norm(a) for a in subject.aliases} if subject else set()
    ) | echoes(asked, asked_doc)  # a question noun is not its answer
    if asked.kind in ("place", "organisation", "person", "role"):  # a dog called Paris is no place, nor
        excluded |= {norm(p.name) for p in group_pets(ctx, group).pets}  # one called Pilot a job
    window, why = ((FAR_PAST, as_of), "as_of") if as_of else event_window(ctx, question, group, turns,
                                                                           group_time(ctx, group))
    if why and before_history(ctx, group, window):  # said of only later: the best-supported value
        window, why = None, f"{why}, before the first turn: not used"
    if why:
        trace["window"] = {"from": why, "start": window[0] if window else None,
                           "end": window[1] if window else None}
    # a state that changes, asked in the present tense, is asked as it stands now: "What is her status?",
    # "Who is Nadia's partner?"
    latest = asked.recency or mode == "latest_version" or present(question) and (
        asked.kind == "status" or asked.kind == "person" and asked.head in _PARTNERS)
    verb = main_verb(asked_doc)
    if asked.kind == "person":
        excluded |= not_the_person_asked(ctx, group, q, subject, verb)
    asserted = verb_relation(ctx, content_terms(question)) if asked.kind == "person" else None
    if predicate is None and asserted is not None:
        cue_set |= relation_cues(ctx, asserted)  # "who is she marrying": "Sam proposed" says it too
    # a walked chain needs no bridge; one ending at a person asked for an airline stopped a hop short
    walked = bool(result.trace.get("from_graph")) and not (
        asked.kind in _THROUGH and ends_at_person(ctx, result.facts, result.answer))
    kinds = category_of(ctx, group, asked, mode, predicate, relatives=_RELATION_HEADS) \
        if by_category else None
    # "which aides have helped Dana's mother": the category names who is asked; whose, only which ones
    listed = kinds is not None and asked.kind == "person" and not kinds.relation
    relation = relation_of(ctx, q, subject) if subject is not None and not walked and not listed else None
    rel_cues: set[str] = set()
    if relation is not None and subject is not None:
        rel_cues = relation_cues(ctx, relation)
        who, rel_turns = subject, subject_turns(ctx, group, subject, rel_cues)
        found = find_bridge(ctx, group, relation, subject, rel_turns, speakers, excluded, window,
                            result.trace, rel_cues, trace,
                            fetch=lambda terms: subject_turns(ctx, group, who, terms, own=True),
                            terms=content_terms(question, drop=sorted(subject.aliases)))
        trace["relation"] = relation.to_trace()
        if found is not None and norm(found.name) == norm(f"{subject.name}'s {relation.word}"):
            found = None  # the ingest's name for a relative never named ("Tariq's sister"): read as unnamed
        # "my brother" in the subject's turns: a stand-in for a relative never named, or a name for the found
        owned = unnamed_relative(relation, subject, dedupe(result.evidence + rel_turns)) \
            if found is None or not found.speaker else None
        stand_in = owned if found is None else None
        if stand_in is not None:  # "my daughter … she settled in Bath": read the daughter's turns
            found, trace["bridge_from"] = stand_in[0], {"unnamed": [e.source_ref for e in stand_in[1]]}
        if found is None and asked.kind in TYPED:  # the subject's own value would answer another question
            return no_information(f"no {relation.word} of {subject.name} is stated",
                                  result.evidence or turns[:5], trace)
        if found is not None:  # "Tobias's manager" is Olu: read Olu's city, not Tobias's
            subject = found if owned is None or stand_in is not None else Subject(  # "my brother … he flies
                found.name, found.aliases | owned[0].aliases, False)  # for Jet2 now" names Kieran too
            trace["bridge"] = subject.name
            if re.search(rf"\b(?:current|present|new|latest)\s+{re.escape(relation.word)}\b", question, re.I):
                latest = False  # "her current manager's old city": "current" chose the manager, not the city
            asked_of = value_predicate(q, predicate)  # "her husband's job": job_title, not married_to
            cue_set = cue_terms(ctx, question, asked_of, subject, asked) - {relation.word}
            turns = dedupe(subject_turns(ctx, group, subject, cue_set) + result.evidence)
            excluded |= {norm(a) for a in subject.aliases}
            if dates_relation(q, relation):  # "the man she dated in 2019": the date was the bridge's
                window, trace["window"] = None, {"from": "the relation, not the value"}
    facts = result.facts if walked else [  # a walk's path is the question's; other edges, the subject's
        f for f in result.facts if subject is None or subject.named_in(f"{f.subject} | {f.object}")]
    evidence = result.evidence
    unnamed = isinstance(trace.get("bridge_from"), dict) and "unnamed" in trace["bridge_from"]
    if "bridge" in trace and subject is not None and not unnamed:  # the bridge person's own edges answer too
        own = bridge_facts(ctx, group, subject, q, predicate, window)
        facts, evidence = facts + own, dedupe(evidence + fact_evidence(ctx, group, own))
    if kinds is None and asked.many and asked.kind == "organisation" and asked.head and not walked:
        facts = headed_facts(ctx, asked.head, facts)
    if kinds is not None:  # a list of a head noun's members: only edges of its relation or its members
        facts = member_facts(ctx, kinds, facts)
        trace["members"] = {"head": kinds.head, "names": sorted(kinds.names)}
    graph = graph_candidates(ctx, asked, facts, evidence, excluded,  # edges of the subject only
                             at=window[1] if window is not None and window[1] < FAR_FUTURE else None,
                             open_only=latest and window is None)
    employer = employer_named(question) if asked.kind == "role" else frozenset()
    if employer:  # "her role with the Friends of the Museum": an edge said of no Friends is another job
        graph = [c for c in graph if employer & content_terms(c.evidence.text)]
    back = 1 if subject is None or subject.speaker else 2  # "she" of a third person: the exchange before
    turn_cands = candidates(
        ctx, asked, subject, turns, cue_set, speakers, excluded, verb,
        attribute="bridge" in trace or mode != "relation_chain", before=turns_before(ctx, group, turns, back),
        replies=replies_to(ctx, group, turns),
        residence=home, members=kinds,
        employer=employer,
        source=had_from, loose={e.episode for e in loose}, now=latest and window is None, trip=trip)
    if "bridge" in trace and verb and not asks_home and not says_relation(verb, rel_cues):
        turn_cands = said_with(turn_cands, verb)  # "where did her old boss *move*": the turn says the event
    if verb and asked.kind in TYPED - {"number"}:  # "who looked after her hens": who *looks after* them
        turn_cands = by_verb(turn_cands, verb, asked_doc, subject)
    # graph first (a list of a category's members reads both): the edges valid then stand; "now",
    # unless a turn clearly said a newer value
    read_from_turns = turn_cands  # each value the turns say, before an edge's newer-value test
    if graph and kinds is None:
        newest = max((c.when for c in graph if c.when), default=None)
        edge_turns = {c.evidence.episode for c in graph}  # a turn that stated an edge says nothing newer
        lemmas = slot_verbs(ctx, predicate, verb)  # a newer turn's value must be said by the slot's verbs
        # "which cities has she lived in": every value named over time, which the edges may not all hold
        history = asked.many and not latest and asked.kind in _SLOT_KINDS
        turn_cands = [] if window is not None else [
            c for c in turn_cands
            if latest and c.left  # "handed the keys of Rose Cottage to…": the edge's value is left
            or (history or c.score >= NEWER and (newest is None or (c.when and c.when > newest)))
            and c.evidence.episode not in edge_turns
            and not said_by_other_verb(c.value, c.evidence.text, lemmas)]
        trace["graph_values"] = [c.value for c in graph]
    if asked.many and latest:  # "now": a value the graph holds only as closed is not a turn's to reopen
        closed = {norm(f.object) for f in facts if f.invalid_at is not None} - {
            norm(f.object) for f in facts if f.invalid_at is None}
        turn_cands = [c for c in turn_cands if not any(same_value(c.value, v) for v in closed)]
    if latest and window is None and turn_cands:  # "now" is the newest turn: a value dated after it is
        now = group_time(ctx, group)  # a plan still to come ("I'm moving to Ghent in January")
        turn_cands = [c for c in turn_cands if c.when is None or c.when <= now]
    graph, turn_cands = answering(graph, q), answering(turn_cands, q)  # not the question's own words
    chosen, how = choose(asked, graph + turn_cands, latest=latest, window=window,
                         members=kinds is not None and asked.kind != "thing")
    trace["choice"] = how
    if asked.many and subject is not None:  # a list: no value later denied; "now": none since ended
        chosen = still_held(ctx, group, subject, chosen, turns, trace, latest=latest)
    # "now", and a later turn ends the value: a person's edge has closed it already, a thing's has not
    elif latest and window is None and subject is not None and chosen and (  # ("I sold my bass")
            asked.kind in _HELD and chosen[0].source != "graph"
            or asked.kind == "thing" and chosen[0].source == "graph"):
        chosen, how = held_since(ctx, group, subject, asked, chosen, graph + read_from_turns, turns, how)
        trace["choice"] = how
    elif latest and window is None and how.get("chosen_by") == ALL_LEFT:  # sold the bass, bought a piano
        chosen, how = taken_up(asked, graph + read_from_turns, how)
        trace["choice"] = how
    if not chosen and kinds is not None:
        again = read(ctx, q, group, mode=mode, as_of=as_of, result=result, predicate=predicate,
                     by_category=False)
        if again is not None:
            again.trace["members"] = {**trace["members"], "none_tied": True}
        return again
    if not chosen and pets:
        return pet_reading(pets, result.evidence, trace)
    if not chosen and asked.head == "breed":  # "we adopted a cat" names no breed of dog, whole or not
        return no_information("no breed of the animal asked is stated", result.evidence or turns[:5], trace)
    if not chosen:
        slot = asked.head in _RELATION_HEADS or ((latest or window is not None) and asked.kind in _SLOT_KINDS)
        if asked.many and mode == "aggregation" and not result.trace.get("from_graph"):
            return no_information(f"no {asked.head or asked.kind} of the kind asked is stated",
                                  result.evidence or turns[:5], trace)
        if result.trace.get("from_graph") and result.answer:  # an answer walked over edges stands, unless
            fault = edge_fault(ctx, asked, result.answer, result.facts, facts, result.evidence, excluded,
                               now=latest and window is None, left=how.get("chosen_by") == ALL_LEFT)
            return None if fault is None else no_information(fault, result.evidence or turns[:5], trace)
        if isinstance(trace.get("bridge_from"), dict) and "roles" in trace["bridge_from"] \
                and asked.kind in TYPED:
            # a person read from a role's clause: the procedure's answer is about the question's subject
            return no_information(f"no {asked.kind} of {subject.name if subject else 'theirs'} is stated",
                                  result.evidence or turns[:5], trace)
        # a value that must be a name (a person, a pet, a role, an instrument…); places and organisations
        # are often said by common nouns ("my old area", "a local charity") the spans do not type
        # "where does she work now" answered by the newest turn: a sentence is no place either
        typed = asked.kind in (TYPED if mode == "latest_version" else TYPED - {"place", "organisation"}) \
            or asked.head in SPAN_MEMBERS or asked.head in NAMED_CONTEXT or asks_a_name(q) \
            or home and question.lower().startswith("where")  # "where does she live": a place, or none
        copied = echoed(result) or result.trace.get("answered_by") == "newest_chunks"  # "YESSS." is a turn's
        if not asked.yesno and (titled := title_answer(q, result, trace)) is not None:
            return titled  # a name was asked, and the copied sentence's turn quotes one title
        if not asked.yesno and typed and copied and not INFERENCE.search(question) \
                and not names_kind(result.answer, q):  # a value was asked; the turn says none
            return no_information(f"no {asked.head or asked.kind} is named in the evidence, only whole turns",
                                  result.evidence or turns[:5], trace)
        if asked.kind not in TYPED or not slot or INFERENCE.search(question):
            # an untyped or open question is not read, nor one asking for a guess; a value is never a sentence
            return answered_by_reply(ctx, q, group, subject, result, trace, turns) or sentence_for_value(
                q, result, trace, turns, state=latest and window is None)
        return no_information(
            f"no {asked.kind} is supported by the evidence", result.evidence or turns[:5], trace
        )
    one = home and len(chosen) == 1
    answer = address(asked, chosen[0], read_from_turns, window) if one else phrase(asked, chosen)
    if asked.kind == "role" and not asked.many and not asked.count and subject is not None and (
            latest or window is not None) and "bridge" not in trace:
        answer = with_workplace(ctx, group, subject.name, answer, chosen[0].evidence.text,
                                window[1] if window is not None and window[1] < FAR_FUTURE else None)
    if asked.yesno:
        answer = f"Yes, {answer}"
    trace["support"], trace["listed"] = [c.evidence.source_ref for c in chosen], [c.value for c in chosen]
    values = content_terms(" ".join(c.value for c in chosen))  # the turns that may name it again (lead.py)
    pool = dedupe(turns + subject_turns(ctx, group, subject, values)) if subject and "dated_by" in how else []
    named = asked.kind in TYPED or asked.head in NAMED_CONTEXT or asked.head in SPAN_MEMBERS  # a band, a car
    lead = leading(asked.kind if named and not asked.many else None, how, graph + turn_cands,
                   chosen, pool, subject, window, trace, ranked=result.evidence)
    support = dedupe(lead + result.evidence + [c.evidence for c in chosen])
    # "violin" is typed, and "Suzuki Jimny" by its make; "different cultures" is not
    members = CATEGORY_MEMBERS.get(asked.head) or SPAN_MEMBERS.get(asked.head, frozenset())
    typed = asked.kind in TYPED or all(set(norm(c.value).split()) & members for c in chosen)
    voice = own_voice(subject, [(c.evidence.speaker, c.owner) for c in chosen]) if typed else None
    return Reading(answer, False, support, trace, typed=typed, own=voice)


def count_of_list(ctx: Context, q: Question, group: str, *, as_of: datetime | None, result: ProcedureResult,
                  predicate: str | None) -> Reading | None:
    """A count of a head noun's things read as the list of them ("how many sports has Ilse taken up" is
    how many "which sports has Ilse taken up" names), or None when the list names none."""
    head = q.asked.head
    listing = replace(q, asked=replace(q.asked, kind=kind_of_noun(head), many=True, count=False))
    listed = read(ctx, listing, group, mode="aggregation", as_of=as_of, result=result, predicate=predicate)
    if listed is None or listed.abstained or not listed.trace.get("listed"):
        return None
    return replace(listed, answer=f"{len(listed.trace['listed'])}: {listed.answer}",
                   trace={**listed.trace, "asked": q.asked.to_trace(), "counted": listed.trace["listed"]})
