"""The OpenAI embedder: optional, remote, for stores built with ``TKG_EMBEDDER=openai:MODEL``.

Apart from `tkg.embed` (the torch MiniLM and `get_embedder`) because it is
the one embedder that talks to a network service: batching, the API's error shapes and keeping
the key out of messages are its own concerns. ``openai`` is imported only when one is built, so
importing tkg never loads it. ``get_embedder`` builds it for ``openai:MODEL``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from tkg.embed_base import EmbedderBase, normalise_rows
from tkg.errors import EmbeddingError
from tkg.llm import DEFAULT_RETRIES, DEFAULT_TIMEOUT, redact_secrets

_OPENAI_DIMS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}


class OpenAIEmbedder(EmbedderBase):
    """OpenAI embeddings (optional). `dim` shortens text-embedding-3 vectors server-side.

    >>> emb = OpenAIEmbedder("text-embedding-3-small")  # doctest: +SKIP
    >>> emb.dim                                         # doctest: +SKIP
    1536
    """

    max_batch = 512  # inputs per request, well under the API's limit

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        dim: int | None = None,
        client: Any | None = None,
        *,
        http_client: Any | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_RETRIES,
    ) -> None:
        if dim is None and model not in _OPENAI_DIMS:
            raise EmbeddingError(f"unknown dimension for OpenAI model {model!r}: pass dim=")
        self.model = model
        self.dim = dim or _OPENAI_DIMS[model]
        self._send_dim = dim is not None
        self.name = f"openai:{model}" + (f"@{dim}" if dim is not None else "")
        self._key: str | None = None
        if client is None:
            try:
                import openai
            except ImportError:  # pragma: no cover - a core dependency
                raise EmbeddingError("OpenAIEmbedder needs the openai package: pip install openai") from None
            self._key = os.environ.get("OPENAI_API_KEY", "").strip()
            if not self._key:
                raise EmbeddingError("OpenAIEmbedder needs an API key: set OPENAI_API_KEY")
            client = openai.OpenAI(
                api_key=self._key, timeout=timeout, max_retries=max_retries, http_client=http_client
            )
        self.client = client

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import openai

        texts = [t if t.strip() else " " for t in texts]  # the API rejects empty strings
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self.max_batch):
            chunk = texts[start : start + self.max_batch]
            params: dict[str, Any] = {"model": self.model, "input": chunk, "encoding_format": "float"}
            if self._send_dim:
                params["dimensions"] = self.dim
            try:
                response = self.client.embeddings.create(**params)
            except openai.OpenAIError as exc:
                status = getattr(exc, "status_code", None)
                detail = getattr(exc, "message", None) or str(exc)
                message = f"OpenAI embeddings ({self.model}) failed" + (
                    f" with HTTP {status}" if status else ""
                )
                raise EmbeddingError(redact_secrets(f"{message}: {detail}", self._key)) from None
            rows = sorted(response.data, key=lambda d: d.index)
            if len(rows) != len(chunk) or any(len(r.embedding) != self.dim for r in rows):
                raise EmbeddingError(
                    f"OpenAI embeddings ({self.model}) returned {len(rows)} vectors for {len(chunk)} texts "
                    f"or not {self.dim}-dim ones"
                )
            out[start : start + len(chunk)] = np.asarray([r.embedding for r in rows], dtype=np.float32)
        return normalise_rows(out)
