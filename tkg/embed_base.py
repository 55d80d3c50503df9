"""What every embedder shares: the `Embedder` protocol, a base class, row normalisation and the
default model's name and width.

The concrete embedders (`tkg.embed` torch, `tkg.embed_onnx`, `tkg.embed_openai`) and the cache
(`tkg.embed_cache`) build on this module; `tkg.embed.get_embedder` picks one of them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from tkg.errors import ConfigError

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIM = 384


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 rows of a fixed width."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_one(self, text: str) -> list[float]: ...


def normalise_rows(vectors: np.ndarray) -> np.ndarray:
    """float32 rows scaled to unit length (zero rows stay zero)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0).astype(np.float32)


class EmbedderBase:
    """Shared convenience for the concrete embedders."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    def embed_one(self, text: str) -> list[float]:
        """One text as a plain list, the form store adapters take.

        >>> len(get_embedder("local").embed_one("hello"))  # doctest: +SKIP
        384
        """
        return [float(x) for x in self.embed([text])[0]]


def env_int(name: str, default: int | None) -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a positive integer, not {raw!r}") from None
    if value < 1:
        raise ConfigError(f"{name} must be a positive integer, not {raw!r}")
    return value
