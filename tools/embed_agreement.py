"""How closely the default ONNX embedder's vectors agree with sentence-transformers' float32 ones.

Embeds what ingest embeds from a LoCoMo-shaped file (every chunk's search text: turns, sentences,
windows) and the questions, with the default embedder (all-MiniLM-L6-v2 as the pinned int8 ONNX
file, tkg.embed_onnx) and with the same model through sentence-transformers in float32, and
reports the cosine of each pair: mean, minimum and 1st percentile, for chunks, for turn vectors
as ingest stores them (the normalised mean of a turn's sentences) and for questions. Needs the
``[torch]`` extra beside ``[local]``; no cache is used.

    python3 tools/embed_agreement.py /path/to/locomo_dev5.json [--limit N] [--matmul int8] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tkg.bench.questions import load_questions  # noqa: E402
from tkg.embed import LocalEmbedder  # noqa: E402
from tkg.embed_onnx import OnnxEmbedder  # noqa: E402
from tkg.ingest.chunking import chunk_episode  # noqa: E402
from tkg.ingest.loaders import load  # noqa: E402
from tkg.ingest.prepare import episode_uuid, search_text  # noqa: E402


def summary(cosines: np.ndarray) -> dict[str, float | int]:
    return {
        "n": int(cosines.size),
        "mean": round(float(cosines.mean()), 5),
        "min": round(float(cosines.min()), 5),
        "p1": round(float(np.percentile(cosines, 1)), 5),
    }


def turn_vectors(vectors: dict[str, np.ndarray], turns: list[list[str]]) -> np.ndarray:
    rows = np.stack([np.mean([vectors[t] for t in parts], axis=0) for parts in turns])
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("path", type=Path)
    p.add_argument("--limit", type=int, default=0, help="only the first N turns (default: all)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--matmul", choices=("float32", "int8"), default="float32",
                   help="int8: the onnx:int8-matmul variant instead of the default (needs the [int8] extra)")
    args = p.parse_args()
    episodes = load(args.path).episodes
    episodes = episodes[: args.limit] if args.limit else episodes
    texts: list[str] = []
    turns: list[list[str]] = []  # per multi-sentence turn: the texts whose mean is its vector
    for ep in episodes:
        chunks = chunk_episode(ep, episode_uuid(ep))
        own = [search_text(c) for c in chunks if c.kind != "turn"] or [search_text(chunks[0])]
        texts += own
        if len(own) > 1:
            turns.append(own)
    texts = list(dict.fromkeys(texts))
    questions = [q.question for q in load_questions(args.path)]
    result: dict[str, object] = {"file": str(args.path), "turns": len(episodes)}
    vectors = {}
    for label, emb in (
        ("onnx", OnnxEmbedder(matmul=args.matmul)),
        ("float32", LocalEmbedder(dtype="float32")),
    ):
        started = time.perf_counter()
        vectors[label] = (emb.embed(texts), emb.embed(questions))
        result[f"{label}_model"] = emb.name
        result[f"{label}_embed_s"] = round(time.perf_counter() - started, 2)
    (a_texts, a_q), (b_texts, b_q) = vectors["onnx"], vectors["float32"]
    result["chunks"] = summary(np.sum(a_texts * b_texts, axis=1))
    a_turns = turn_vectors(dict(zip(texts, a_texts, strict=True)), turns)
    b_turns = turn_vectors(dict(zip(texts, b_texts, strict=True)), turns)
    result["turns_from_sentences"] = summary(np.sum(a_turns * b_turns, axis=1))
    result["questions"] = summary(np.sum(a_q * b_q, axis=1))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for key in ("chunks", "turns_from_sentences", "questions"):
        s = result[key]
        assert isinstance(s, dict)
        print(f"{key:22s} n={s['n']:6d}  mean {s['mean']:.5f}  min {s['min']:.5f}  p1 {s['p1']:.5f}")
    print(f"embed time: onnx {result['onnx_embed_s']} s, float32 {result['float32_embed_s']} s")


if __name__ == "__main__":
    main()
