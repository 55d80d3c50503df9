"""House rules a reading of the source can check: Cypher is written in cypher/ only, and the CLI and
the benchmarks never ask which backend they run on (the store says what they need)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# a string that starts like a Cypher statement (SQLite's CREATE TABLE and bare keywords do not)
CYPHER = re.compile(
    r"^\s*(MATCH\s*\(|OPTIONAL\s+MATCH\s*\(|MERGE\s*\(|UNWIND\s+\$|CALL\s+[\w.]+\s*[(=]|RETURN\s+\w+\s+AS|SHOW\s+[A-Z]+\b|CREATE\s*\()"
)
# the Kuzu adapter formats DDL and probes from its own schema file's table and index names (never input)
FORMATTED_DDL = {"tkg/stores/kuzu_store.py"}
BACKEND_CHECK = re.compile(r"""(backend|dialect)\s*[!=]=|[!=]=\s*["'](kuzu|neo4j)["']""")


def _sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def inline_cypher(path: Path) -> list[str]:
    """The string literals of ``path`` (docstrings aside) that hold a Cypher statement."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    rel = path.relative_to(ROOT).as_posix()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            if CYPHER.match(parts) and rel not in FORMATTED_DDL:
                out.append(f"{rel}:{node.lineno}: {parts[:60]}")
            skip.update(id(v) for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if CYPHER.match(node.value):
                out.append(f"{rel}:{node.lineno}: {node.value[:60]}")
    return out


def test_no_cypher_is_written_outside_cypher_folder() -> None:
    found = [hit for path in _sources("tkg", "planners", "procedures") for hit in inline_cypher(path)]
    assert not found, "Cypher belongs in cypher/ops (store.named):\n" + "\n".join(found)


def test_the_checker_sees_inline_cypher() -> None:
    sample = ROOT / "tests" / "_inline_sample.py"
    sample.write_text(
        'Q = "MATCH (n) RETURN n"\nC = f"CALL db.x({Q})"\nS = "CREATE TABLE IF NOT EXISTS x (a)"\n',
        encoding="utf-8",
    )
    try:
        assert [h.split(": ", 1)[1] for h in inline_cypher(sample)] == ["MATCH (n) RETURN n", "CALL db.x({})"]
    finally:
        sample.unlink()


# a measured figure: a score, a before → after, a commit, a latency, a rate (BENCHMARKS.md holds
# them); a budget written "~100 turns/s" is a target, not a measurement
FIGURE = re.compile(
    r"(Hit@\d+|MRR|accuracy) \d\.\d|\d\.\d+ ?→ ?\d\.\d+|\bat [0-9a-f]{7,40}\b|\d+(\.\d+)? ?ms\b"
    r"|(?<![~\d])\d+ turns/s"
)


def prose(path: Path) -> list[tuple[int, str]]:
    """The comments and docstrings of ``path`` (doctest lines aside), line by line."""
    source = path.read_text(encoding="utf-8")
    found = [
        (t.start[0], t.string)
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        ) and ast.get_docstring(node):
            first = node.body[0]
            found += [
                (first.lineno + i, line)
                for i, line in enumerate((ast.get_docstring(node) or "").splitlines())
            ]
    return [(n, line) for n, line in found if ">>>" not in line]


def test_no_benchmark_figures_in_docstrings_or_comments() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:90]}"
        for path in _sources("tkg", "planners", "procedures")
        for n, line in prose(path)
        if FIGURE.search(line)
    ]
    assert not found, "figures belong in BENCHMARKS.md with the command that took them:\n" + "\n".join(found)


def test_cli_and_bench_never_ask_which_backend() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _sources("tkg/cli", "tkg/bench", "tkg/mcpserver")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BACKEND_CHECK.search(line.split("#", 1)[0])
    ]
    assert not found, "ask the store (shared, server_uri, fact_shadows...) instead:\n" + "\n".join(found)


def test_the_cli_reads_the_store_through_memory() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}" for path in _sources("tkg/cli", "tkg/mcpserver")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "ctx.store" in line
    ]
    assert not found, "use Memory's methods (url, groups, counts...):\n" + "\n".join(found)
