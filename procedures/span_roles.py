"""Roles said of someone ("I'm a paralegal", "promoted to team lead", "Ines is captaining the late ferry"),
and the noun chunks the span finders read them from, kept with the parsed doc. `procedures.spans` types
a role span with them; the role heads, agent-noun suffixes and role verbs are in `procedures.span_words`.
"""

from __future__ import annotations

from typing import Any

from tkg.words import is_common_word, is_place_name

from .span_base import Span, any_words_abroad, clean, copular_s, foreign_sentence
from .span_context import of_what
from .span_words import (
    DASHES,
    DET,
    PREDICATING,
    ROLE_HEADS,
    ROLE_SUFFIX,
    ROLE_VERBS,
    SEAT_ROLES,
    SPAN_MEMBERS,
)

# a role named before the noun for a job ("the design lead role", "the charge nurse post"), and the
# verbs that give or take one ("they gave me the design lead role", "I took the senior nurse job")
_JOB_NOUNS = frozenset("role job position post".split())
_TAKING = frozenset("give offer get land take accept start begin win".split())
# work named by what it is, not by a role noun: a post taken ("the greggs job", "an internship at Vos &
# Kamper"; a bare "job" or "summer job" names none), a staff one is on ("i'm odeon staff now"), a way of
# working ("he's gone freelance"), a business of one's own ("starting a small consultancy, Keller Data")
_POSTS = frozenset("job gig".split())
_OWN_POSTS = frozenset("internship apprenticeship traineeship placement".split())
_NOT_WHOSE = frozenset("summer winter weekend day night holiday side dream first new old current part full "
                       "time shift retail office temp temporary seasonal casual evening morning".split())
_BUSINESSES = frozenset("business company consultancy firm agency practice studio shop bakery boulangerie "
                        "cafe café restaurant salon startup".split())
_FOUNDING = frozenset("start open launch found run own".split())


# "to be" in the languages a code-switched turn mixes with English ("voy a ser lineman apprentice",
# "es dental hygienist"); not Tagalog's "yung" ("si Omar, yung respiratory therapist"), which says
# whose a role is no more than an apposition does
_BE_ABROAD = frozenset("es soy eres ser sera será fue era somos son sou é è sono est suis ist bin".split())


def _roles_abroad(sent: Any) -> list[Span]:
    """English role words right after another language's "to be" in a code-switched sentence,
    whose own parse says nothing: the run of English words there, when one of them names a role.

    >>> from tkg.nlp import parse
    >>> [s.text for s in _roles_abroad(next(parse("Me aceptaron, voy a ser lineman apprentice.").sents))]
    ['lineman apprentice']
    """
    out = []
    for t in sent:
        if t.lower_ not in _BE_ABROAD or t.i + 1 >= sent.end:
            continue
        run = []
        for x in sent.doc[t.i + 1 : min(t.i + 4, sent.end)]:
            if not (x.is_alpha and x.is_lower or x.lower_ in ROLE_HEADS) or not is_common_word(x.lower_) \
                    or x.lower_ in _BE_ABROAD or x.lower_ in any_words_abroad():
                break
            run.append(x)
        while run and not (run[-1].lower_ in ROLE_HEADS or ROLE_SUFFIX.search(run[-1].lower_)):
            run.pop()  # "es dental hygienist": the run ends on its role word
        if run:
            out.append(Span(" ".join(x.text for x in run), "role", 0.9, run[0].i, run[-1].i + 1, True))
    return out


def _run_after(at: Any) -> list[Any]:
    """The name "at" a post is with ("at Vos & Kamper"): the capitalised run after the word."""
    run: list[Any] = []
    for x in at.doc[at.i + 1 : min(at.i + 6, at.sent.end)]:
        if not (x.pos_ == "PROPN" or x.text == "&" or run and x.lower_ == "and"):
            break
        run.append(x)
    while run and not run[-1].pos_ == "PROPN":
        run.pop()
    return [at, *run] if run else []


def _name_next(sent: Any) -> str:
    """The capitalised name the next sentence opens with, when it says nothing else ("… the studio. Kil
    Atölye — 'clay workshop'.", a sentence with no verb): up to four words, else ""."""
    doc = sent.doc
    if sent.end >= len(doc) or any(t.pos_ in ("VERB", "AUX") for t in doc[sent.end].sent):
        return ""
    run: list[str] = []
    after = None
    for t in doc[sent.end : min(sent.end + 5, len(doc))]:
        if not (t.is_alpha and t.text[:1].isupper()) or len(run) == 4:
            after = t
            break
        run.append(t.text)
    # the name is all there is up to a stop or a dash ("Little Heron.", not "Crazy week.")
    return " ".join(run) if after is None or after.is_punct else ""


def _work_named(sent: Any) -> list[Span]:
    """Work told by what it is rather than by a role noun (`_POSTS`, `_BUSINESSES` above): the post,
    staff or business as the sentence names it, said of the clause's subject.

    >>> from tkg.nlp import parse
    >>> [s.text for s in _work_named(next(parse("I start an internship at Vos & Kamper in June.").sents))]
    ['internship at Vos & Kamper']
    >>> [s.text for s in _work_named(next(parse("I'm starting a small consultancy, Keller Data.").sents))]
    ['small consultancy, Keller Data']
    >>> _work_named(next(parse("I got a summer job").sents)), _work_named(next(parse("she's staff").sents))
    ([], [])
    >>> _work_named(next(parse("They offered me the Leeds job.").sents))
    []
    """
    out = []
    for t in sent:
        verb, low = t.head, t.lemma_.lower()
        if low == "freelance" and verb.lemma_ in ("go", "be", "become", "turn") and t.dep_ in (
                "npadvmod", "dobj", "acomp", "attr", "oprd"):
            out.append(Span(t.text, "role", 0.9, t.i, t.i + 1, True))  # "he's gone freelance"
            continue
        if t.pos_ != "NOUN" or t.tag_ == "NNS":
            continue
        named = [c for c in t.children if c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")
                 and c.lower_ not in _NOT_WHOSE and c.lower_ not in ROLE_HEADS
                 and not is_place_name(c.text)]  # "the Leeds job": where it is, not what
        taken = t.dep_ == "dobj" and verb.lemma_.lower() in _TAKING or (
            t.dep_ == "attr" and verb.lemma_ == "be")
        at = next((c for c in t.children if c.dep_ == "prep" and c.lower_ == "at"), None)
        where = _run_after(at) if at is not None else []
        if taken and (low in _OWN_POSTS or low in _POSTS and (named or where)):
            words = [*(named[:1] and sent.doc[named[0].i : t.i]), t, *where]
            out.append(Span(" ".join(x.text for x in words), "role", 0.9, words[0].i, words[-1].i + 1, True))
        elif low == "staff" and named and t.dep_ == "attr" and verb.lemma_ == "be":
            out.append(Span(f"{named[0].text} staff", "role", 0.9, named[0].i, t.i + 1, True))
        elif low in _BUSINESSES and t.dep_ == "dobj" and (verb.lemma_.lower() in _FOUNDING or (
                verb.lemma_ == "set" and any(c.lower_ == "up" for c in verb.children))) and any(
                c.dep_ == "nsubj" for c in verb.children):  # whose, its clause says: not "left to start one"
            appos = next((c for c in t.children if c.dep_ == "appos" and c.pos_ == "PROPN"), None)
            last = appos.i if appos is not None else t.i
            cleaned = clean([x for x in t.subtree if x.i <= last and x.lower_ != "own"])
            named_next = _name_next(sent) if appos is None and last + 2 >= sent.end else ""
            if cleaned:  # "I'm opening the studio. Kil Atölye.": the name told right after it
                out.append(Span(f"{cleaned[0]}, {named_next}" if named_next else cleaned[0], "role", 0.8,
                                cleaned[1], cleaned[2], True))
    return out


def noun_chunks(sent: Any) -> tuple[Any, ...]:
    """The sentence's noun chunks, kept with the parsed doc like the spans (spaCy re-walks the parse)."""
    key = ("tkg.chunks", sent.start, sent.end)
    if key not in sent.doc.user_data:
        sent.doc.user_data[key] = tuple(sent.noun_chunks)
    return sent.doc.user_data[key]


def chunks_with(sent: Any, heads: frozenset[str] | set[str]) -> list[tuple[Any, Any]]:
    """Noun chunks of the sentence whose root (or any word) is one of ``heads``, with that word."""
    out = []
    for chunk in noun_chunks(sent):
        hit = next((t for t in chunk if t.lemma_.lower() in heads or t.lower_ in heads), None)
        if hit is not None:
            out.append((chunk, hit))
    return out


def _predicated(chunk: Any) -> bool:
    """The role is said *of* someone ("I'm a nurse", "promoted to team lead", "job as a tester",
    "junior frontend dev 🤓"), not merely mentioned ("I have a new supervisor")."""
    root = chunk.root
    if root.dep_ == "ROOT" and any(c.dep_ == "det" and c.lower_ in _SOMEONE_DET for c in root.children):
        return False  # "Tesco rang. Some recruiter": the one who did, no role of the teller's
    if root.dep_ in PREDICATING:
        return True
    return root.dep_ == "pobj" and root.head.lower_ in ("as", "to", "into")


# a determiner that points at one person without saying who holds the role ("some recruiter")
_SOMEONE_DET = frozenset("some this that another any".split())


def _said_of_a_thing(noun: Any) -> bool:
    """The noun is said of a thing ("a speech which is a disaster", "it's a starter"), no one's role."""
    return any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("which", "that", "it", "this", "what")
               for c in noun.head.children)


def roles(sent: Any) -> list[Span]:
    out = (_roles_abroad(sent) if foreign_sentence(sent) else []) + _work_named(sent)
    for chunk in noun_chunks(sent):  # "i'm senior cartographer now": a predicated agent noun is a role too
        root = chunk.root
        said = copular_s(root)  # "Tomasz's an electrician": the sentence's root, said of Tomasz
        copula = said[1] if said else None
        if root.lower_ not in ROLE_HEADS and root.pos_ == "NOUN" and root.tag_ != "NNS" \
                and ROLE_SUFFIX.search(root.lower_) and not _said_of_a_thing(root) and (
                copula is not None or _predicated(chunk) and root.dep_ != "ROOT"):
            cleaned = clean([t for t in chunk if (copula or 0) <= t.i <= root.i])
            if cleaned:
                out.append(Span(cleaned[0], "role", 0.7, cleaned[1], cleaned[2],
                                _said_of(root) or copula is not None))
    for t in sent:  # "Ines is captaining the late ferry": a role head said of its subject, as sure as a noun
        obj = next((c for c in t.children if c.dep_ == "dobj"), None)
        if t.pos_ == "VERB" and t.lemma_.lower() in ROLE_VERBS and obj is not None and obj.pos_ != "PRON":
            words = [x.text for x in obj.subtree if x.i <= obj.i and x.lower_ not in DET and x.tag_ != "PRP$"]
            if len(words) <= 3:
                out.append(Span(" ".join([*words, t.lemma_.lower()]), "role", 0.9, t.i, obj.i + 1))
    for t in sent:  # "I'll be team lead": a role head the tagger took for a verb, said of the subject
        if t.pos_ == "VERB" and t.lower_ in ROLE_HEADS and t.dep_ in ("acomp", "attr") \
                and t.head.lemma_ == "be":
            start = t.i
            while start > sent.start and sent.doc[start - 1].pos_ in ("NOUN", "ADJ") \
                    and sent.doc[start - 1].head.i in (t.i, start):  # "team lead", "senior tech lead"
                start -= 1
            out.append(Span(sent.doc[start : t.i + 1].text, "role", 0.9, start, t.i + 1, True))
    for chunk, hit in chunks_with(sent, ROLE_HEADS):
        if chunk.root.lemma_.lower() in ROLE_HEADS or chunk.root.lower_ in ROLE_HEADS:
            hit = chunk.root  # "assistant curator": the role its head noun names, modifiers and all
        if (named := _named_as(chunk, hit)) is not None:
            out.append(named)  # "his job - practice manager": the job, named after a dash
            continue
        said = copular_s(hit)  # "my sister's a midwife": not her midwife
        copula = said[1] if said else None
        if copula is None and any(c.dep_ == "poss" for c in hit.children):
            continue  # "my manager", "her boss": someone's relation, not a role
        if copula is None and hit.tag_ in ("NNS", "NNPS"):
            continue  # "four designers reporting to me": others, no one's role
        if hit.lower_ in SEAT_ROLES and not (copula is not None or _predicated(chunk) or hit.text[0].isupper()
                                             or any(c.lower_ == "of" for c in hit.rights)):
            continue  # "a gaming chair" is a seat; "Madam Chair", "chair of the board" a role
        toks = [t for t in chunk if (copula or 0) <= t.i <= hit.i and t.ent_type_ not in ("PERSON", "GPE")] \
            + of_what(hit)
        cleaned = clean(toks)
        job = chunk.root.lemma_.lower() in _JOB_NOUNS and hit.i < chunk.root.i  # "the design lead role"
        # "they gave me the design lead role", "asked me to take design lead" (not "got a new manager")
        taken = chunk.root.dep_ == "dobj" and chunk.root.head.lemma_.lower() in _TAKING and (job or (
            hit.i == chunk.root.i and not any(c.dep_ in ("det", "poss") for c in hit.children)))
        if cleaned:
            sure = (0.9 if hit.i == chunk.root.i or job else 0.6) * (
                1.0 if _predicated(chunk) or copula is not None or taken else 0.4)
            out.append(Span(cleaned[0], "role", sure, cleaned[1], cleaned[2], hit.i == chunk.root.i
                            and (_said_of(hit) or copula is not None or taken or _raised_to(chunk))))
    return out


# the words for a job a role may be named after, past a dash ("his job - practice manager")
_JOB_NAMED = _JOB_NOUNS | {"promotion", "title"}


def _named_as(chunk: Any, hit: Any) -> Span | None:
    """A role named after a dash or a colon that follows a word for a job in the same noun chunk ("they
    have given me his job - practice manager", "the promotion – senior analyst"): that job, as surely
    as a copula says it; None for any other chunk."""
    dash = next((t for t in reversed(chunk) if t.text in DASHES and t.i < hit.i), None)
    if dash is None or not any(t.lemma_.lower() in _JOB_NAMED for t in chunk if t.i < dash.i):
        return None
    cleaned = clean([t for t in chunk if dash.i < t.i <= hit.i])
    return Span(cleaned[0], "role", 0.9, cleaned[1], cleaned[2], True) if cleaned else None


_RAISING = frozenset("promote step move bump appoint elevate hire take".split())


def _raised_to(chunk: Any) -> bool:
    """A role someone is given by a verb of rising or hiring ("step up to VP of Data", "promoted to
    team lead", "hired as a tester"): its clause says who holds it, as a copula does."""
    root = chunk.root
    verb = root.head.head
    if verb.dep_ == "prt":  # "step *up* to VP"
        verb = verb.head
    return root.dep_ == "pobj" and root.head.lower_ in ("to", "as") and verb.lemma_.lower() in _RAISING


def _said_of(root: Any) -> bool:
    """A role a copula says of its clause's subject ("she's a paediatrician", "I'm a paralegal"):
    its own clause states that someone holds it, so it needs no cue word near it."""
    return root.dep_ == "attr" and root.head.lemma_ == "be" and any(
        c.dep_ == "nsubj" for c in root.head.children)


_DOER = ("ist", "er", "or")  # "cyclist", "runner", "sailor"


def pastime_doer(value: str) -> bool:
    """A word for one who does a sport ("cyclist", "runner", "climber"): what someone does for fun,
    not their job, unless they say they are paid for it.

    >>> [pastime_doer(w) for w in ("cyclist", "runner", "climber", "teacher", "deputy head")]
    [True, True, True, False, False]
    """
    low = value.lower()
    if " " in low or not low.endswith(_DOER):
        return False
    root = next(low[: -len(s)] for s in _DOER if low.endswith(s))
    return len(root) >= 3 and any(sport.startswith(root) for sport in SPAN_MEMBERS["sport"])
