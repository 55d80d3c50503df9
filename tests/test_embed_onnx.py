"""The default embedder: the pinned MiniLM ONNX file on onnxruntime, for real."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from reliability.common import EMBED_TEXTS

from tkg import embed_onnx
from tkg.embed import LocalEmbedder, bundled_minilm_dir, get_embedder
from tkg.embed_onnx import (
    MEMO,
    ONNX_MATMUL_ID,
    ONNX_MODEL_ID,
    ONNX_SHA256,
    ROWS,
    TOKENIZER_PATH,
    TOKENIZER_SHA256,
    OnnxEmbedder,
    onnx_model_path,
    rows_model_path,
    same_length_runs,
    sha256_of,
)
from tkg.embed_onnx_graph import _zero_point_rows
from tkg.errors import ConfigError, EmbeddingError

REPO = Path(__file__).resolve().parents[1]

TEXTS = [
    *EMBED_TEXTS,
    "My sister moved from a small flat in the north of the city to a house by the river, "
    "and she says the garden is the best thing that has happened to her in years.",
]


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TKG_CACHE_DIR", str(tmp_path / "cache"))
    for var in ("TKG_EMBEDDER", "TKG_EMBED_CACHE", "TKG_EMBED_BATCH", "TKG_EMBED_THREADS", "TKG_ONNX_MODEL"):
        monkeypatch.delenv(var, raising=False)


def test_pinned_files_are_the_installed_ones() -> None:
    assert sha256_of(onnx_model_path()) == ONNX_SHA256
    assert sha256_of(TOKENIZER_PATH) == TOKENIZER_SHA256


def test_vectors_are_unit_rows_that_rank_paraphrases_first() -> None:
    emb = OnnxEmbedder()
    vectors = emb.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sims = vectors @ vectors.T
    assert sims[0, 1] > 0.4 > sims[0, 2]
    assert emb.embed([]).shape == (0, 384)
    assert emb.embed_one(TEXTS[0]) == pytest.approx(list(vectors[0]), abs=1e-5)


@pytest.mark.parametrize("matmul", ["float32", "int8"])
def test_a_text_gets_the_same_vector_alone_and_in_any_batch(matmul: str) -> None:
    """Float32 batches are cut by length and padded, int8 texts run alone: neither may change a vector."""
    emb = OnnxEmbedder(batch_size=2, threads=2, matmul=matmul)
    many = TEXTS + [f"On day {i} of the trip we saw {i * 3} birds near the harbour." for i in range(20)]
    together = emb.embed(many)
    for i, text in enumerate(TEXTS):  # int8 on a new embedder: it keeps recent vectors and would reuse them
        by = emb if matmul == "float32" else OnnxEmbedder(batch_size=2, threads=2, matmul=matmul)
        np.testing.assert_allclose(together[i], by.embed([text])[0], atol=1e-5)
    # float32: one text ran on one thread, the batch on two; int8: every text on one thread
    assert set(emb._sessions) == ({1, 2} if matmul == "float32" else {1})


def test_int8_vectors_are_bitwise_reproducible_across_batches_and_workers() -> None:
    """A text's int8 vector does not depend on what it was embedded with, nor on how many workers
    ran: a replayed run sees the same evidence order as the recorded one."""
    many = TEXTS + [f"Week {i}: the ferry to the island was {i} minutes late again." for i in range(30)]
    one_worker = OnnxEmbedder(threads=1).embed(many)
    two_workers = OnnxEmbedder(threads=2).embed(many)
    alone = np.stack([OnnxEmbedder(threads=2).embed([t])[0] for t in TEXTS])
    assert np.array_equal(one_worker, two_workers)
    assert np.array_equal(two_workers[: len(TEXTS)], alone)


NAMES = ["Anna", "Ben", "Carl", "Dora", "Emma", "Frank", "Grace", "Henry", "Iris", "Jack", "Kate", "Liam",
         "Mary", "Nina", "Oscar", "Paul", "Rosa", "Sam", "Tom", "Vera"]


def test_texts_of_one_length_run_together_and_keep_their_own_vectors_bitwise(tmp_path: Path) -> None:
    """Texts of one token length run together (up to ``ROWS`` a call), each quantised by itself: every
    vector is bitwise the one the text gets alone on a new embedder, with one worker or two."""
    same = [f"{name} walked the dog to the park before breakfast." for name in NAMES]
    emb = OnnxEmbedder(threads=2)
    emb.load()
    lengths = [sum(e.attention_mask) for e in emb._tokenizer.encode_batch(same)]
    assert len(set(lengths)) == 1 and 2 < len(same) <= ROWS
    mixed = same + TEXTS
    together = emb.embed(mixed)
    assert emb._rows  # the rows session loaded and agreed with one text alone
    assert np.array_equal(together, OnnxEmbedder(threads=1).embed(mixed))
    alone = np.stack([OnnxEmbedder(threads=1).embed([text])[0] for text in mixed])
    assert np.array_equal(together, alone)
    assert rows_model_path(tmp_path / "cache").is_file()


def test_zero_point_rows_take_off_each_texts_zero_point_exactly() -> None:
    """The extra weight rows sum to minus the column sums, each within ±63 so that a zero point (up to
    255) times two of them fits int16 (the pairs a CPU without VNNI sums before widening), and a text's
    zero point repeated in as many input columns gives the product of the shifted input, in integers."""
    rng = np.random.default_rng(7)
    weight = np.concatenate([np.full((64, 3), 127, np.int8), np.full((64, 3), -127, np.int8)], axis=1)
    weight = np.concatenate([weight, rng.integers(-127, 128, (64, 6)).astype(np.int8)])
    below = _zero_point_rows(weight)
    assert below.dtype == np.int8 and np.abs(below.astype(np.int32)).max() <= 63
    assert 255 * 2 * 63 <= np.iinfo(np.int16).max
    assert np.array_equal(below.astype(np.int64).sum(axis=0), -weight.astype(np.int64).sum(axis=0))
    quantised = rng.integers(0, 256, (5, len(weight)))
    zero = rng.integers(0, 256, (5, 1))
    shifted = (quantised - zero) @ weight.astype(np.int64)
    extended = np.concatenate([quantised, np.repeat(zero, len(below), axis=1)], axis=1)
    assert np.array_equal(extended @ np.concatenate([weight, below]).astype(np.int64), shifted)


def test_a_rows_graph_that_disagrees_with_one_text_alone_is_not_used() -> None:
    """The rows graph is checked on probe texts when it loads: one that gives other vectors (here the
    float32 graph standing in for a CPU kernel that rounds otherwise) is dropped, texts then run alone
    and keep their own vectors."""
    emb = OnnxEmbedder(threads=1)
    emb.load()
    assert emb._rows
    with emb._lock:
        assert emb._rows_agree(emb._rows)
        assert not emb._rows_agree(OnnxEmbedder(matmul="float32")._session(1))
    emb._rows = False  # what a disagreeing graph leaves
    same = [f"{name} walked the dog to the park before breakfast." for name in NAMES]
    assert emb._rows_session() is None
    alone = np.stack([OnnxEmbedder(threads=1).embed([text])[0] for text in same])
    assert np.array_equal(emb.embed(same), alone)


def test_calls_group_texts_of_one_length_and_leave_the_rest_alone() -> None:
    runs = same_length_runs([4, 7, 4, 4, 9, 4, 4], 2)
    assert sorted(i for run in runs for i in run) == list(range(7))
    assert runs == [[4], [1], [0, 2], [3, 5], [6]]  # longest first, at most 2 a call
    assert same_length_runs([4, 4, 4], 1) == [[0], [1], [2]]
    assert same_length_runs([4] * 70, ROWS) == [list(range(k, min(k + ROWS, 70))) for k in range(0, 70, ROWS)]


def test_recent_vectors_are_reused_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    emb = OnnxEmbedder(threads=1)
    first = emb.embed(TEXTS)
    assert list(emb._memo) == TEXTS
    calls: list[int] = []
    real = embed_onnx._pooled
    monkeypatch.setattr(embed_onnx, "_pooled", lambda s, encs: calls.append(len(encs)) or real(s, encs))
    again = emb.embed([TEXTS[2], "a text not seen before", TEXTS[0]])
    assert calls == [1]  # only the new text was embedded
    assert np.array_equal(again[[0, 2]], first[[2, 0]])
    monkeypatch.setattr(embed_onnx, "MEMO", 3)
    emb.embed(["one more", "and another"])
    assert len(emb._memo) == 3 and list(emb._memo)[-2:] == ["one more", "and another"]
    assert MEMO >= 1000


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None or bundled_minilm_dir() is None,
    reason='the float32 reference needs pip install "tkg[torch]"',
)
def test_agrees_with_sentence_transformers_float32() -> None:
    reference = LocalEmbedder(dtype="float32")
    assert reference.name not in (ONNX_MODEL_ID, ONNX_MATMUL_ID)
    exact = reference.embed(TEXTS)
    assert np.sum(OnnxEmbedder(matmul="float32").embed(TEXTS) * exact, axis=1).min() >= 0.99
    cosines = np.sum(OnnxEmbedder().embed(TEXTS) * exact, axis=1)  # the default: integer matrix products
    assert cosines.mean() >= 0.98 and cosines.min() >= 0.95


def test_a_file_that_is_not_the_pinned_model_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    monkeypatch.setenv("TKG_ONNX_MODEL", str(tmp_path))
    with pytest.raises(EmbeddingError, match="not the pinned"):
        OnnxEmbedder().embed(["hello"])
    monkeypatch.setenv("TKG_ONNX_MODEL", str(tmp_path / "missing.onnx"))
    with pytest.raises(EmbeddingError, match="does not exist"):
        OnnxEmbedder().embed(["hello"])


def test_a_copy_of_the_pinned_file_elsewhere_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    copy = tmp_path / "copy.onnx"
    copy.write_bytes(onnx_model_path().read_bytes())
    monkeypatch.setenv("TKG_ONNX_MODEL", str(copy))
    np.testing.assert_allclose(OnnxEmbedder().embed(TEXTS[:2]), OnnxEmbedder().embed(TEXTS[:2]), atol=1e-6)
    assert onnx_model_path() == copy


def test_the_default_embedder_never_imports_torch(tmp_path: Path) -> None:
    code = (
        "import sys; from tkg.embed import get_embedder; v = get_embedder(cache=False).embed(['hello "
        "there']); "
        "print(v.shape, sorted({'torch', 'sentence_transformers', 'transformers'} & set(sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "TKG_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    assert out.stdout.strip() == "(1, 384) []"


@pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason='needs pip install "tkg[local]"')
def test_int8_matmul_variant_is_made_once_and_stays_close(tmp_path: Path) -> None:
    fast = get_embedder("onnx:int8-matmul", cache=False)
    assert isinstance(fast, OnnxEmbedder) and fast.name == ONNX_MATMUL_ID != ONNX_MODEL_ID
    cosines = np.sum(fast.embed(TEXTS) * OnnxEmbedder(matmul="float32").embed(TEXTS), axis=1)
    assert cosines.min() >= 0.95 and cosines.mean() >= 0.98
    made = list((tmp_path / "cache" / "models").glob("minilm-int8-fused-*.onnx"))
    assert len(made) == 1
    stamp = made[0].stat().st_mtime_ns
    OnnxEmbedder(matmul="int8").embed(["hello"])
    assert made[0].stat().st_mtime_ns == stamp  # reused, not rewritten
    assert get_embedder("onnx:float32-matmul", cache=False).name == ONNX_MODEL_ID
    with pytest.raises(ConfigError, match="int8-matmul"):
        get_embedder("onnx:bert-base", cache=False)


@pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason='needs pip install "tkg[local]"')
def test_int8_matmul_runs_from_memory_when_the_cache_dir_is_unwritable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory would be")
    monkeypatch.setenv("TKG_CACHE_DIR", str(blocker))
    vectors = OnnxEmbedder(matmul="int8").embed(TEXTS[:2])
    assert vectors.shape == (2, 384) and float(vectors[0] @ vectors[1]) > 0.4
