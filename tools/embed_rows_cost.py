"""What the int8 embedder's calls cost per text, and a check that batching changed no bit of a vector.

Takes the chunk texts ingest embeds for a LoCoMo file (each turn's sentences and long turns'
windows, as the indexes see them) and embeds them two ways on one worker: every distinct text alone
on the one-thread session (how every text ran before `tkg.embed_onnx_graph.rows_model`), and as ingest
embeds them now (``OnnxEmbedder.embed`` in calls of ``--per-call`` texts: up to ``ROWS`` texts of one
token length a call, a length only one text has alone). It prints the CPU milliseconds a text costs
each way (thread time, so other work on the machine inflates both alike), how many texts ran in rows,
and how many vectors are bitwise equal (all of them, or the change is wrong).

    python3 tools/embed_rows_cost.py ../shared/data/locomo/locomo_dev5.json
    python3 tools/embed_rows_cost.py FILE --per-call 450 --limit 3000
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from tkg.embed_base import normalise_rows
from tkg.embed_onnx import ROWS, OnnxEmbedder, _pooled, same_length_runs
from tkg.ingest.chunking import chunk_episode
from tkg.ingest.loaders import load_locomo
from tkg.ingest.prepare import derived_turn, episode_uuid, search_text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="a LoCoMo JSON file")
    ap.add_argument("--per-call", type=int, default=450, help="texts an ingest call embeds (128 turns: ~450)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N texts (0: all)")
    args = ap.parse_args()
    texts: list[str] = []
    for ep in load_locomo(args.path).episodes:
        chunks = chunk_episode(ep, episode_uuid(ep))
        derived = derived_turn(chunks)
        texts += [search_text(c) for c in chunks if c is not derived]
    texts = texts[: args.limit] if args.limit else texts
    calls = [texts[k : k + args.per_call] for k in range(0, len(texts), args.per_call)]
    now = OnnxEmbedder(threads=1)
    now.load()
    started = time.thread_time()
    batched = np.concatenate([now.embed(call) for call in calls])
    now_ms = (time.thread_time() - started) * 1000
    distinct = sum(len(set(call)) for call in calls)
    in_rows = 0
    for call in calls:
        lengths = [sum(e.attention_mask) for e in now._tokenizer.encode_batch(list(dict.fromkeys(call)))]
        in_rows += sum(len(run) for run in same_length_runs(lengths, ROWS) if len(run) > 1)
    alone_embedder = OnnxEmbedder(threads=1)
    alone_embedder.load()
    single = alone_embedder._session(1)
    unique = list(dict.fromkeys(texts))
    encodings = alone_embedder._tokenizer.encode_batch(unique)
    started = time.thread_time()
    alone = normalise_rows(np.stack([_pooled(single, [e])[0] for e in encodings]))
    alone_ms = (time.thread_time() - started) * 1000
    position = {text: i for i, text in enumerate(unique)}
    equal = int(np.all(batched == alone[[position[t] for t in texts]], axis=1).sum())
    print(json.dumps({
        "texts": len(texts), "distinct": len(unique), "distinct_per_call": distinct, "calls": len(calls),
        "in_rows_of": ROWS, "texts_in_rows": in_rows,
        "alone_cpu_ms_per_distinct_text": round(alone_ms / len(unique), 3),
        "now_cpu_ms_per_text": round(now_ms / len(texts), 3),
        "before_cpu_s": round(alone_ms / len(unique) * distinct / 1000, 2),  # each call's texts alone
        "now_cpu_s": round(now_ms / 1000, 2),
        "bitwise_equal": equal, "load": [round(x, 2) for x in os.getloadavg()],
    }))


if __name__ == "__main__":
    main()
