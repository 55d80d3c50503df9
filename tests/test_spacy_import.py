"""spaCy imported without its command line (tkg/spacy_import.py): the reader's pipeline is the same,
spaCy's command line still loads when asked for, and the stand-in never stays behind.

Each check runs in a fresh interpreter, since the point is what a process that has not imported
spaCy yet ends up holding.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("spacy")


def _run(code: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_reader_pipeline_loads_without_spacy_cli_and_parses_as_a_plain_import() -> None:
    seen = _run(
        """
        import json, sys
        from tkg import nlp
        doc = nlp.parse("Tomasz moved to Gdansk in March and does not cycle to work any more.")
        print(json.dumps({
            "cli_loaded": any(m == "spacy.cli" or m.startswith("spacy.cli.") for m in sys.modules),
            "pipes": nlp.pipeline().pipe_names,
            "parse": [(t.text, t.lemma_, t.pos_, t.dep_, t.head.i, t.ent_type_) for t in doc],
        }))
        """
    )
    plain = _run(
        """
        import json, spacy
        from tkg import nlp
        doc = nlp.parse("Tomasz moved to Gdansk in March and does not cycle to work any more.")
        print(json.dumps({
            "pipes": nlp.pipeline().pipe_names,
            "parse": [(t.text, t.lemma_, t.pos_, t.dep_, t.head.i, t.ent_type_) for t in doc],
        }))
        """
    )
    assert seen["cli_loaded"] is False
    assert seen["pipes"] == plain["pipes"]
    assert seen["parse"] == plain["parse"]


def test_spacy_cli_and_info_still_load_after_the_light_import() -> None:
    seen = _run(
        """
        import json, sys
        from tkg.spacy_import import import_spacy
        spacy = import_spacy()
        before = "spacy.cli" in sys.modules
        import spacy.cli
        info = spacy.info()
        print(json.dumps({"before": before, "real_cli": hasattr(spacy.cli, "download"),
                          "version": info["spacy_version"], "again": import_spacy() is spacy}))
        """
    )
    assert seen["before"] is False
    assert seen["real_cli"] is True
    assert seen["again"] is True
    assert isinstance(seen["version"], str) and seen["version"]
