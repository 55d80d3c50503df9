"""README.md's "A short session" is what a run prints: every command in it runs on a fresh store
and every line shown (``…`` marks lines left out) comes out, in order. Only what differs from run
to run is read loosely: the store path, seconds, turns/s, the model load and record times."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tkg.cli import app

README = Path(__file__).resolve().parent.parent / "README.md"
LOOSE = [
    (re.compile(r"kuzu:///\S+"), "kuzu:///PATH"),
    (re.compile(r"^(seconds|turns/s|model load)\s+.*$"), r"\1 N"),
    (re.compile(r"20(2[5-9]|[3-9]\d)-\d\d-\d\d \d\d:\d\d"), "RECORDED"),  # record times: the day of the run
]


def loose(line: str) -> str:
    line = line.rstrip()
    for pattern, repl in LOOSE:
        line = pattern.sub(repl, line)
    return line


def session() -> list[tuple[str, list[str]]]:
    """The README's commands, each with the output lines it shows."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## A short session", 1)[1].split("```", 2)[1]
    runs: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ tkg "):
            runs.append((line[len("$ tkg "):], []))
        elif runs and line.strip() not in ("", "…"):
            runs[-1][1].append(line)
    return runs


def test_the_readme_session_is_parsed() -> None:
    commands = [c for c, _ in session()]
    assert commands[0] == "ingest examples/priya_marco.json" and len(commands) >= 8
    assert all(shown for _, shown in session())


@pytest.mark.slow
def test_the_readme_session_is_what_a_run_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(README.parent)
    url = f"kuzu://{tmp_path}/readme.kuzu"
    runner = CliRunner()
    for command, shown in session():
        result = runner.invoke(app, ["--store", url, *shlex.split(command)], env={"COLUMNS": "100"})
        assert result.exit_code == 0, (command, result.output)
        printed = [loose(line) for line in result.output.splitlines()]
        at = 0
        for want in map(loose, shown):
            assert want in printed[at:], (
                f"`tkg {command}` did not print {want!r} (after line {at}):\n{result.output}"
            )
            at = printed.index(want, at) + 1
