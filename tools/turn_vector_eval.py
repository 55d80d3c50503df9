"""Dense turn retrieval on a LoCoMo-shaped file: a turn encoded whole vs the mean of its sentences.

Why tkg derives a multi-sentence turn's vector from its sentences (tkg/ingest/pipeline.py):
this scores both choices the same way, brute force over each conversation's turns, on the
evidence turns of the answerable questions (categories 1-4): Hit@10 and MRR.

    python3 tools/turn_vector_eval.py /path/to/locomo_dev5.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tkg.bench.questions import load_questions  # noqa: E402
from tkg.embed import LocalEmbedder  # noqa: E402
from tkg.ingest.chunking import chunk_episode  # noqa: E402
from tkg.ingest.loaders import load  # noqa: E402
from tkg.ingest.prepare import episode_uuid, search_text  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("path", type=Path)
    path = p.parse_args().path
    emb = LocalEmbedder()
    turns: dict[str, list[tuple[str, list[str], str]]] = {}  # group -> (ref, sentence texts, turn text)
    for ep in load(path).episodes:
        chunks = chunk_episode(ep, episode_uuid(ep))
        sentences = [search_text(c) for c in chunks if c.kind == "sentence"]
        turns.setdefault(ep.group, []).append((ep.source_ref or "", sentences, search_text(chunks[0])))
    questions = [q for q in load_questions(path) if q.category in (1, 2, 3, 4)]
    qv = emb.embed([q.question for q in questions])
    whole: dict[str, np.ndarray] = {}
    mean: dict[str, np.ndarray] = {}
    for group, rows in turns.items():
        whole[group] = emb.embed([t for _, _, t in rows])
        sent = emb.embed([s for _, ss, _ in rows for s in ss]) if any(ss for _, ss, _ in rows) else None
        out, i = [], 0
        for k, (_, ss, _) in enumerate(rows):
            if ss and sent is not None:
                m = sent[i : i + len(ss)].mean(axis=0)
                out.append(m / (np.linalg.norm(m) or 1.0))
                i += len(ss)
            else:
                out.append(whole[group][k])  # one sentence: the turn is its own sentence
        mean[group] = np.stack(out)
    for name, vectors in (("turn encoded whole", whole), ("mean of its sentences", mean)):
        hits = rr = n = 0.0
        for q, v in zip(questions, qv, strict=True):
            refs = [r for r, _, _ in turns.get(q.group, [])]
            gold = set(q.evidence) & set(refs)
            if not gold:
                continue
            order = [refs[i] for i in np.argsort(-(vectors[q.group] @ v))]
            rank = next(i for i, r in enumerate(order) if r in gold) + 1
            n += 1
            hits += rank <= 10
            rr += 1 / rank
        print(f"{name}: n {int(n)}, Hit@10 {hits / n:.3f}, MRR {rr / n:.3f}")


if __name__ == "__main__":
    main()
