"""The MCP server's warm-up asks a group its embedder can read: a group embedded with another
model keeps its clear error for questions, but never keeps the server from starting."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest
from test_bulk_load import WordHashEmbedder, episodes, url_for

from tkg.errors import EmbeddingError
from tkg.mcpserver.run import open_warm
from tkg.memory import Memory


def test_the_warm_up_skips_a_group_of_another_model(tmp_path: Path) -> None:
    url = url_for("kuzu", tmp_path)
    group = f"other-model-{os.urandom(3).hex()}"
    first = Memory.open(url, embedder=WordHashEmbedder())  # type: ignore[arg-type]
    try:
        first.ingest_episodes(episodes(group, 4), bulk=False)
    finally:
        first.close()
    mem = open_warm(url, None)  # the default embedder is another model than the group's
    try:
        assert mem.embedding_model(group) == "test-word-hash"
        with pytest.raises(EmbeddingError, match="tkg reembed --group"):
            mem.ask("Where does Priya live?", group=group)
    finally:
        mem.close()
    with pytest.raises(EmbeddingError, match="test-word-hash"):
        open_warm(url, group)  # a server scoped to that group cannot answer: it says so at start


def test_what_the_warm_up_loaded_leaves_the_collectors_full_passes(tmp_path: Path) -> None:
    url = url_for("kuzu", tmp_path)
    group = f"frozen-{os.urandom(3).hex()}"
    first = Memory.open(url)
    try:
        first.ingest_episodes(episodes(group, 4), bulk=False)
    finally:
        first.close()
    before = gc.get_freeze_count()
    mem = open_warm(url, group)
    try:
        assert gc.get_freeze_count() > before  # the models and caches the warm-up loaded
        assert mem.ask("Where does Priya live?", group=group).evidence
    finally:
        mem.close()
        gc.unfreeze()  # this test process goes on: give its objects back to the collector
