"""The story's closeness to a topic, scored for every turn at once, against the row-by-row reading."""

from __future__ import annotations

import numpy as np

from procedures.group_vectors import GroupVectors
from procedures.story import Closeness, _closeness
from procedures.topic import change_in, says_something


def _row_by_row(gv: GroupVectors, vector: np.ndarray, wanted: set[str]) -> Closeness:
    scores = gv.scores(vector)
    best: dict[str, float] = {}
    sentence: dict[str, tuple[float, str]] = {}
    for i, row in enumerate(gv.rows):
        turn, kind, s = str(row.get("episode_uuid") or ""), row.get("kind"), float(scores[i])
        if turn not in wanted or kind not in ("turn", "sentence"):
            continue
        best[turn] = max(best.get(turn, -1.0), s)
        if kind == "sentence" and s > sentence.get(turn, (-1.0, ""))[0]:
            sentence[turn] = (s, str(row.get("text") or ""))
    if len(best) < 2:
        return Closeness({}, {})
    values = np.array(list(best.values()))
    mean, std = float(values.mean()), float(values.std()) or 1.0
    return Closeness({u: (s - mean) / std for u, s in best.items()}, {u: t for u, (_, t) in sentence.items()})


def test_closeness_matches_the_row_by_row_reading_with_ties() -> None:
    rng = np.random.default_rng(7)
    for _ in range(30):
        n = int(rng.integers(0, 40))
        kinds = rng.choice(["turn", "sentence", "fact"], size=n)
        turns = rng.choice([f"t{k}" for k in range(8)], size=n)
        # few distinct directions, so equal scores (ties between sentences of a turn) are common
        matrix = rng.integers(-1, 2, size=(n, 3)).astype(np.float32)
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
        rows = [{"uuid": f"r{i}", "episode_uuid": str(turns[i]), "kind": str(kinds[i]),
                 "text": f"sentence {i}"} for i in range(n)]
        gv = GroupVectors(rows, matrix.reshape(n, 3))
        vector = rng.integers(-1, 2, size=3).astype(np.float32)
        wanted = {f"t{k}" for k in range(8) if rng.random() < 0.7}
        got = _closeness(gv, vector, [{"uuid": t} for t in sorted(wanted)])
        want = _row_by_row(gv, vector, wanted)
        assert got.sentence == want.sentence
        assert list(got.z.items()) == list(want.z.items())


def test_closeness_of_an_empty_group() -> None:
    gv = GroupVectors([], np.zeros((0, 3), dtype=np.float32))
    assert _closeness(gv, np.ones(3, dtype=np.float32), [{"uuid": "t1"}]) == Closeness({}, {})


def test_kept_text_readings_answer_the_same_the_second_time() -> None:
    said = "ok so Tamsin quit the bakery on friday"
    for _ in range(2):  # the second reading comes from the per-text cache
        assert change_in(said) == "quit" and says_something(said)
        assert change_in("lol same") is None and not says_something("are you ok? did it go well?")
