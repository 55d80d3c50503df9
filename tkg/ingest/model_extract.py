"""Extraction by a model, decided by tkg: one call per window of turns, every fact checked.

A window is up to `WINDOW` consecutive turns of one session. The model sees the speakers, each
turn's id, time and text, the predicate vocabulary, and the current slots of the entities the
window mentions, and returns facts through a JSON schema (parsed with pydantic). tkg keeps a
fact only if it names a predicate of the closed vocabulary, a turn of the window, and a quote
that really occurs in that turn; its time (words of that turn, else the turn's time) is resolved
by tkg's own parser against that turn's time; supersession stays `supersede.apply_fact`. A window whose output
does not parse is asked
once more, then keeps the rules' facts alone; every drop and fallback is counted.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from ..entities import read_entities
from ..extract import Candidate, mentions
from ..llm import Deferred, ReplayMissing, Reply, Request, StageModel, UsageLog
from ..llm.usage import PROCESS
from ..models import EpisodeInput
from ..predicates import PredicateRegistry
from ..stores.base import GraphStore
from ..text import normalize_name
from ..timeparse import find_times

WINDOW = 12  # turns per call, at most
KNOWN = 40  # current slots shown per window, at most


class FactOut(BaseModel):
    turn: str
    subject: str
    predicate: str
    object: str
    qualifier: str = ""
    polarity: Literal["assert", "retract"] = "assert"
    correction: bool = False
    time: str = ""
    quote: str


class WindowOut(BaseModel):
    facts: list[FactOut]


_FACT_PROPS = {
    "turn": {"type": "string"}, "subject": {"type": "string"}, "predicate": {"type": "string"},
    "object": {"type": "string"}, "qualifier": {"type": "string"},
    "polarity": {"type": "string", "enum": ["assert", "retract"]}, "correction": {"type": "boolean"},
    "time": {"type": "string"}, "quote": {"type": "string"},
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["facts"],
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": list(_FACT_PROPS),
                "properties": _FACT_PROPS,
            },
        }
    },
}

SYSTEM = """You read a chat and report facts about people for a memory graph.
Predicates (use only these names; qualifier only for favorite, e.g. "band"):
{predicates}
For each fact a turn states: turn id; subject and object as names (the speaker for I/me/my/we, the listener \
for you); polarity "retract" when it stops being true (moved out, quit, broke up, sold); correction true \
when the speaker fixes something said before; time = the turn's words saying when (e.g. "last month"), \
else ""; quote = the exact words of that turn stating it (at most 12 words, copied).
Skip questions, hypotheticals, wishes, jokes, negations and visits that are not moves. Known facts are \
current values: report a change only when a turn states one."""


@dataclass(frozen=True)
class ModelCandidate(Candidate):
    """A candidate proposed by a model (or by both the rules and a model): `extractor` says which."""

    extractor: str = "model"


@dataclass
class TurnResult:
    """What the model stage gives one turn: its facts (None: the window fell back to the rules),
    the tokens of its window's call (split across the window's turns), and the window's counts."""

    candidates: list[ModelCandidate] | None
    usage: list[dict[str, Any]] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    warning: str = ""


def _norm(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").lower().split())


def _windows(items: Sequence[tuple[str, EpisodeInput]]) -> list[list[tuple[str, EpisodeInput]]]:
    out: list[list[tuple[str, EpisodeInput]]] = []
    for item in items:
        ep = item[1]
        last = out[-1][-1][1] if out else None
        if last is None or last.group != ep.group or last.session != ep.session or len(out[-1]) >= WINDOW:
            out.append([])
        out[-1].append(item)
    return out


class ModelExtractor:
    """The `extract` stage: windows of turns to checked candidates (see the module docstring)."""

    def __init__(
        self, model: StageModel, registry: PredicateRegistry, store: GraphStore | None = None
    ) -> None:
        self.model = model
        self.registry = registry
        self.store = store  # where the current slots of the entities a window mentions are read
        lines = []
        for p in registry.predicates():
            kind = "one value" if p.single else "many"
            lines.append(f"- {p.name} ({kind}): {p.description}" if p.description else f"- {p.name} ({kind})")
        self.system = SYSTEM.format(predicates="\n".join(lines))

    def run(self, items: Sequence[tuple[str, EpisodeInput]],
            rules: Mapping[str, Sequence[Candidate]] | None = None) -> dict[str, TurnResult]:
        """Per episode uuid: the model's candidates for each turn of ``items`` (uuid, episode).

        A window is shown the store's current slots and what the rules read off the earlier
        turns of ``items`` (not earlier windows' model output: so a prompt does not depend on
        another prompt's answer, and `record:` and `replay:` see the same prompts)."""
        windows = _windows(items)
        out: dict[str, TurnResult] = {}
        if not windows:
            return out
        requests: list[Request] = []
        earlier: list[Candidate] = []
        for w in windows:  # on this thread: they read the store
            requests.append(self.request(w, earlier))
            earlier += [c for uuid, _ in w for c in (rules or {}).get(uuid, ())]
        with ThreadPoolExecutor(max_workers=min(len(windows), self.model.concurrency),
                                thread_name_prefix="tkg-llm") as pool:
            for result in pool.map(self._window, windows, requests):
                out.update(result)
        return out

    def known(self, group: str, names: Sequence[str], earlier: Sequence[Candidate] = ()) -> list[str]:
        """Current slots of the entities named, as "Name predicate Object" (at most `KNOWN`): the
        store's, then the rules' readings of earlier turns (a newer value replaces a single slot's)."""
        slots: dict[tuple[str, str, str], list[str]] = {}

        def put(subject: str, predicate: str, qualifier: str, obj: str, retract: bool = False) -> None:
            key = (normalize_name(subject), predicate, qualifier or "")
            values = slots.setdefault(key, [])
            if retract:
                slots[key] = [v for v in values if not v.endswith(f" {obj}")]
                return
            line = f"{subject} {predicate}{'/' + qualifier if qualifier else ''} {obj}"
            slots[key] = (
                [line]
                if predicate in self.registry and self.registry.is_single(predicate)
                else [*values, line]
            )

        if self.store is not None:
            index = read_entities(self.store, group)
            uuids = list(dict.fromkeys(e.uuid for n in names if (e := index.find(n, "person")) is not None))
            if uuids:
                params = {"group_id": group, "subject_uuids": uuids, "predicate": ""}
                for r in self.store.named("fact.state_current", params):
                    put(r["subject"], r["predicate"], r.get("qualifier") or "", r["object"])
        wanted = {normalize_name(n) for n in names}
        for c in earlier:
            if normalize_name(c.subject) in wanted:
                put(c.subject, c.predicate, c.qualifier, c.object, c.polarity == "retract")
        lines = [line for values in slots.values() for line in values]
        return list(dict.fromkeys(lines))[-KNOWN:]

    def request(
        self, window: Sequence[tuple[str, EpisodeInput]], earlier: Sequence[Candidate] = ()
    ) -> Request:
        """The prompt of one window: speakers, known slots, and the turns with ids and times."""
        first = window[0][1]
        people = list(dict.fromkeys(n for _, ep in window for n in [ep.speaker, *ep.listeners] if n))
        names = list(people)
        for _, ep in window:
            names += [n for n, _ in mentions(ep.text, speaker=ep.speaker, listeners=ep.listeners)]
        known = self.known(first.group, list(dict.fromkeys(names)), earlier)
        turns = "\n".join(f"[t{i}] {ep.timestamp:%Y-%m-%d %H:%M} {ep.speaker}: {' '.join(ep.text.split())}"
                          for i, (_, ep) in enumerate(window, 1))
        user = f"Speakers: {', '.join(people)}\nKnown: {'; '.join(known) or 'nothing yet'}\nTurns:\n{turns}"
        return Request("extract", self.system, user, "facts", SCHEMA, max_tokens=120 + 90 * len(window))

    def _window(self, window: list[tuple[str, EpisodeInput]], request: Request) -> dict[str, TurnResult]:
        log = UsageLog()
        counts: Counter[str] = Counter(windows=1)
        parsed: WindowOut | None = None
        warning = ""
        for attempt in range(2):
            try:
                reply = self.model.ask(request, log)
            except Deferred:
                counts["deferred"] += 1
                break
            except ReplayMissing:  # the response set does not cover this run: an error, not a fallback
                raise
            except Exception as exc:  # ProviderError naming the stage and model; the window keeps the rules
                counts["provider_errors"] += 1
                warning = str(exc)
                break
            parsed = _parse(reply)
            if parsed is not None:
                self.model.keep(request, reply)
                break
            counts["invalid_outputs"] += 1
            if attempt == 1:
                PROCESS.fallback("extract", self.model.name)
            if attempt == 0:
                counts["retries"] += 1
        results: dict[str, TurnResult] = {}
        if parsed is None:
            counts["fallback_windows"] += 1
            log.fallback("extract", self.model.name)
            per_turn: dict[str, list[ModelCandidate]] | None = None
        else:
            per_turn = self._check(parsed, window, counts)
        shares = _split(log.rows(), len(window))
        for i, (uuid, _) in enumerate(window):
            results[uuid] = TurnResult(
                None if per_turn is None else per_turn.get(uuid, []), shares[i],
                counts if i == 0 else Counter(), warning if i == 0 else "")
        return results

    def _check(self, out: WindowOut, window: list[tuple[str, EpisodeInput]],
               counts: Counter[str]) -> dict[str, list[ModelCandidate]]:
        """The proposed facts that pass tkg's checks, by episode uuid; the rest counted by reason."""
        by_id = {f"t{i}": (uuid, ep) for i, (uuid, ep) in enumerate(window, 1)}
        kept: dict[str, list[ModelCandidate]] = {}
        for f in out.facts:
            counts["proposed"] += 1
            turn = by_id.get(f.turn.strip().strip("[]"))
            if turn is None:
                counts["dropped_unknown_turn"] += 1
                continue
            uuid, ep = turn
            if f.predicate not in self.registry:
                counts["dropped_unknown_predicate"] += 1
                continue
            if not f.quote.strip() or _norm(f.quote) not in _norm(ep.text):
                counts["dropped_quote_not_in_turn"] += 1
                continue
            if not f.subject.strip() or not f.object.strip():
                counts["dropped_empty"] += 1
                continue
            pred = self.registry.get(f.predicate)
            valid_at, time_text = None, None
            if f.time.strip() and _norm(f.time) not in _norm(ep.text):
                counts["time_not_in_turn"] += (
                    1  # kept, at the turn's time: tkg reads times from the turn only
                )
            elif f.time.strip():
                times = find_times(f.time, ep.timestamp)
                if times:
                    valid_at, time_text = times[0].start, times[0].text
            counts["kept"] += 1
            kept.setdefault(uuid, []).append(ModelCandidate(
                subject=f.subject.strip(), predicate=f.predicate, object=f.object.strip(),
                qualifier=f.qualifier.strip().lower() if pred.qualifier else "", polarity=f.polarity,
                confidence=0.85, valid_at=valid_at, time_text=time_text, correction=f.correction,
                sentence=_quote_sentence(ep.text, f.quote), subject_type=pred.subject_type,
                object_type=pred.object_type, extractor=self.model.name))
        return kept


def _parse(reply: Reply) -> WindowOut | None:
    try:
        return WindowOut.model_validate(json.loads(reply.text))
    except (ValueError, ValidationError):
        return None


def _quote_sentence(text: str, quote: str) -> str:
    """The quote as it is written in the turn (so the turn's sentence chunk is found by it)."""
    m = re.search(r"\s+".join(re.escape(w) for w in quote.split()), text, re.IGNORECASE)
    return m.group(0) if m else quote


def _split(rows: list[dict[str, Any]], n: int) -> list[list[dict[str, Any]]]:
    """A window's usage rows split across its ``n`` turns (the first turn takes the remainders)."""
    out: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    for row in rows:
        for i in range(n):
            share = {
                k: (v // n + (v % n if i == 0 else 0)) if isinstance(v, int) else v for k, v in row.items()
            }
            out[i].append(share)
    return out


def merge(
    rules: list[Candidate], model: list[ModelCandidate], registry: PredicateRegistry
) -> list[Candidate]:
    """One turn's facts from both extractors, merged per slot.

    The same fact from both keeps the rules' reading with ``extractor`` naming both; in a
    single-valued slot where they disagree, the model's value wins (it read the turn in context);
    other facts of either are kept.
    """
    def slot(c: Candidate) -> tuple[str, str, str]:
        return normalize_name(c.subject), c.predicate, c.qualifier

    out: list[Candidate] = []
    taken: set[int] = set()
    for r in rules:
        same = next(
            (
                i
                for i, m in enumerate(model)
                if i not in taken
                and slot(m) == slot(r)
                and normalize_name(m.object) == normalize_name(r.object)
                and m.polarity == r.polarity
            ),
            None,
        )
        if same is not None:
            taken.add(same)
            out.append(ModelCandidate(**{**r.__dict__, "extractor": f"rules+{model[same].extractor}"}))
            continue
        if registry.is_single(r.predicate) and any(slot(m) == slot(r) for m in model):
            continue
        out.append(r)
    out += [m for i, m in enumerate(model) if i not in taken]
    return out


def tally(report_llm: dict[str, Any], results: Sequence[TurnResult]) -> None:
    """Add the counts and warnings of ``results`` to an ingest report's ``llm`` section."""
    counts = Counter(report_llm.get("extract", {}))
    for r in results:
        counts.update(r.counts)
    report_llm["extract"] = dict(sorted(counts.items()))
    warnings = report_llm.setdefault("warnings", [])
    for r in results:
        if r.warning and r.warning not in warnings:
            warnings.append(r.warning)
    log = UsageLog()
    log.merge(report_llm.get("usage", []))
    log.merge(row for r in results for row in r.usage)
    report_llm["usage"] = log.rows()
