"""What a cold `tkg ask` no longer pays for: fitting the mode classifier (kept on disk by the digest
of its training set and code, tkg/mode_model.py) and importing the ingest pipeline (a Memory makes
its Ingestor at the first ingest)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from planners.classifier import NaiveBayesClassifier, default_classifier, load_questions, training_digest
from tkg import mode_model
from tkg.models import MODES

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("TKG_CACHE_DIR", str(tmp_path))
    mode_model.offline_classifier.cache_clear()
    yield tmp_path
    mode_model.offline_classifier.cache_clear()


def test_kept_model_classifies_every_question_as_the_fitted_one(cache_dir: Path) -> None:
    fitted = default_classifier()
    first = mode_model.offline_classifier()  # none kept yet: fitted, then written
    path = mode_model.model_path()
    assert path.parent == cache_dir / "planners" and path.is_file()
    mode_model.offline_classifier.cache_clear()
    kept = mode_model.offline_classifier()  # read back from the file
    assert kept is not fitted
    questions = [ex.question for ex in load_questions()] + ["How many cats did Oskar adopt in 2021?"]
    assert [kept.scores(q) for q in questions] == [fitted.scores(q) for q in questions]
    assert [first.classify(q) for q in questions] == [fitted.classify(q) for q in questions]


def test_a_broken_or_foreign_kept_model_is_fitted_again(cache_dir: Path) -> None:
    path = mode_model.model_path()
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    assert mode_model.offline_classifier().to_dict() == default_classifier().to_dict()
    foreign = {**default_classifier().to_dict(), "labels": ["lookup", "count"]}
    with pytest.raises(ValueError, match="modes"):
        NaiveBayesClassifier.from_dict(foreign)
    path.write_text(json.dumps(foreign), encoding="utf-8")
    mode_model.offline_classifier.cache_clear()
    assert mode_model.offline_classifier().labels == MODES


def test_unwritable_cache_still_gives_the_classifier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache directory would be")
    monkeypatch.setenv("TKG_CACHE_DIR", str(blocked))
    mode_model.offline_classifier.cache_clear()
    try:
        assert mode_model.offline_classifier().classify("Where does Oskar live now?") == "latest_version"
    finally:
        mode_model.offline_classifier.cache_clear()


def test_training_digest_follows_the_code_that_featurises() -> None:
    code = """
        import json, sys
        import planners.classifier as c
        first = c.training_digest()
        import tkg.cli  # loading more modules does not change what the digest covers
        same = c.training_digest() == first
        c._source_file = lambda name, real=c._source_file: (
            None if name == "tkg.timeparse" else real(name))  # a tkg module planners uses, hidden
        print(json.dumps({"first": first, "same": same, "without_timeparse": c.training_digest()}))
    """
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["same"] and seen["first"] == training_digest()
    assert seen["without_timeparse"] != seen["first"]


def test_asking_never_imports_the_ingest_pipeline(tmp_path: Path) -> None:
    episodes = tmp_path / "talk.jsonl"
    episodes.write_text("\n".join(json.dumps(r) for r in [
        {"group": "cold", "speaker": "Oskar", "text": "I moved to Tromso last spring.",
         "timestamp": "2024-04-02T10:00:00Z"},
        {"group": "cold", "speaker": "Ida", "text": "How is the cold up there?",
         "timestamp": "2024-04-02T10:01:00Z"},
    ]) + "\n", encoding="utf-8")
    store = f"kuzu://{tmp_path / 'cold.kuzu'}"
    code = f"""
        import json, sys
        from tkg import Memory
        with Memory.open({store!r}) as mem:
            answer = mem.ask("Where does Oskar live now?", group="cold")
            asked = sorted(m for m in sys.modules if m.startswith(("tkg.ingest.pipeline", "tkg.extract")))
            mem.ingest({str(episodes)!r})
            print(json.dumps({{"asked": asked, "answer": answer.answer,
                              "ingested": "tkg.ingest.pipeline" in sys.modules}}))
    """
    write = f"from tkg import Memory\nwith Memory.open({store!r}) as m: m.ingest({str(episodes)!r})"
    prepare = subprocess.run([sys.executable, "-c", write], capture_output=True, text=True, timeout=300,
                             check=False, cwd=ROOT)
    assert prepare.returncode == 0, prepare.stderr
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["asked"] == []
    assert seen["answer"] == "Tromso"
    assert seen["ingested"]  # the pipeline arrives with the first ingest, and it still works


def _tkg(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300, check=False, cwd=ROOT)


def test_the_command_line_ends_with_its_status_after_exit_handlers_and_flushed_output(tmp_path: Path) -> None:
    done = _tkg(f"""
        import atexit, sys, tempfile
        kept = tempfile.TemporaryDirectory(dir={str(tmp_path)!r})  # removed by its exit handler
        atexit.register(lambda: print("handler ran", flush=True))
        sys.argv = ["tkg", "--version"]
        from tkg.cli import main
        main()
        print("never reached")
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [done.stdout.splitlines()[0], "handler ran"]
    assert done.stdout.startswith("tkg ") and list(tmp_path.iterdir()) == []
    failed = _tkg(f"""
        import sys
        sys.argv = ["tkg", "--store", "kuzu://{tmp_path / 'empty.kuzu'}", "ask", "Who?", "--group", "nobody"]
        from tkg.cli import main
        main()
    """)
    assert failed.returncode == 1 and "no group named 'nobody'" in failed.stderr
    usage = _tkg("""
        import sys
        sys.argv = ["tkg", "no-such-command"]
        from tkg.cli import main
        main()
    """)
    assert usage.returncode == 2 and "No such command" in usage.stderr


def test_the_command_line_waits_for_a_thread_still_working() -> None:
    done = _tkg("""
        import sys, threading, time
        threading.Thread(target=lambda: (time.sleep(0.5), print("thread done", flush=True))).start()
        sys.argv = ["tkg", "--version"]
        from tkg.cli import main
        main()
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "thread done"
