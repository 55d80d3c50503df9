"""Injection: hostile text is data, never Cypher (or Lucene), on both stores — and no code splices.

Speaker (entity) names, turn texts, refs, group names, questions, predicates and ``cypher``
parameters full of quotes, backticks, braces, ``$``, Cypher keywords, comments, Lucene syntax and
unicode go through the real path — a JSONL file, the loader, ingest, ``history``, ``ask`` — and
come back verbatim, while a sentinel group proves nothing was deleted. A source scan fails on any
Cypher built by string splicing in ``tkg/``, ``planners/`` or ``procedures/``.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reliability.common import bounded, memory, storable_chars, unique

from tkg.bench.soak import snapshot
from tkg.errors import ConfigError, NotFound, ReadOnlyViolation
from tkg.memory import Memory

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_NAMES = [
    "O'Brien", 'Zo"rvik', "`Back`tick", "{Brace}}", "$group_id", "MATCH (n) DETACH DELETE n", "Ana // comment",
    "Ünïcødé 日本語 🐕", "Robert'); DROP TABLE x;--", "Back\\slash", 'Lu:cene AND (x) ~2^3 "q" [a TO b] *? /re/',
    "Mr. {{x}} $1 %s {0}", "Dé /* c */ n}) RETURN n //",
]  # fmt: skip
PAYLOAD = "it's \"quoted\" `tick` {brace} $group_id %s {0} // match (n) detach delete n; call db.clear() /* x */ \\ 🐕"
CITIES = ["Leeds", "Porto", "Quito", "Tartu"]


@pytest.fixture(scope="module", params=["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def mem(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with memory(str(request.param), tmp_path_factory.mktemp("injection")) as m:
        yield m


@pytest.fixture(scope="module")
def hostile(mem: Memory, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A sentinel group, then a hostile-named group ingested from a JSONL file through the loader."""
    sentinel = unique("inj-sentinel")
    group = unique("inj") + " ' \" ` {x} $group_id MATCH (n) DETACH DELETE n //"
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "sentinel.jsonl").write_text(
        json.dumps({"group": sentinel, "speaker": "Priya", "timestamp": "2023-01-01T09:00:00Z", "text": "I live in Leeds."}) + "\n"
    )
    lines = []
    for i, name in enumerate(HOSTILE_NAMES):
        lines.append({
            "group": group, "speaker": name, "listeners": ["Marco"], "timestamp": f"2023-02-{i + 1:02d}T10:00:00Z",
            "source_ref": f"r{i} '\"`{{$", "text": f"I live in {CITIES[i % len(CITIES)]}. {PAYLOAD}",
        })  # fmt: skip
    path = folder / "hostile.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    mem.ingest(folder / "sentinel.jsonl")
    before = snapshot(mem.ctx.store, [sentinel])
    report = mem.ingest(path)
    yield {"group": group, "sentinel": sentinel, "lines": lines, "report": report, "sentinel_before": before}
    for g in (group, sentinel):
        mem.ctx.store.named("group.delete", {"group_id": g})


def test_hostile_turns_are_stored_verbatim_and_nothing_ran(mem: Memory, hostile: dict[str, Any]) -> None:
    group, lines = hostile["group"], hostile["lines"]
    assert hostile["report"].episodes == len(lines)
    rows = mem.cypher(
        "MATCH (e:Episodic) WHERE e.group_id = $g RETURN e.speaker AS speaker, e.content AS text, e.source_ref AS ref",
        {"g": group},
    )
    stored = sorted((r["speaker"], r["text"], r["ref"]) for r in rows)
    assert stored == sorted((x["speaker"], x["text"], x["source_ref"]) for x in lines)
    assert snapshot(mem.ctx.store, [hostile["sentinel"]]) == hostile["sentinel_before"]
    assert {g["group_id"] for g in mem.groups()} >= {group, hostile["sentinel"]}


def test_hostile_entity_names_round_trip_through_history_and_state(mem: Memory, hostile: dict[str, Any]) -> None:
    for i, name in enumerate(HOSTILE_NAMES):
        history = mem.history(name, "lives_in", group=hostile["group"])
        assert [(f.subject, f.object) for f in history] == [(name, CITIES[i % len(CITIES)])], name
        assert [f.subject for f in mem.state(name, group=hostile["group"])] == [name] * len(mem.state(name, group=hostile["group"]))


def test_hostile_questions_get_verbatim_evidence(mem: Memory, hostile: dict[str, Any]) -> None:
    texts = {x["text"] for x in hostile["lines"]}
    for name in HOSTILE_NAMES:
        answer = mem.ask(f"Where does {name} live? {PAYLOAD}", group=hostile["group"])
        assert answer.evidence, name
        assert all(any(e.text in t for t in texts) for e in answer.evidence), "evidence must quote stored turns verbatim"
        assert any(e.speaker == name for e in answer.evidence), name
    assert snapshot(mem.ctx.store, [hostile["sentinel"]]) == hostile["sentinel_before"]


def test_hostile_predicates_subjects_and_groups_are_refused_cleanly(mem: Memory, hostile: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="unknown predicate"):
        mem.history(HOSTILE_NAMES[0], "lives_in' OR 1=1 //", group=hostile["group"])
    with pytest.raises(ConfigError, match="unknown predicate"):
        mem.state(HOSTILE_NAMES[0], "`lives_in`}) MATCH (n) DETACH DELETE n //", group=hostile["group"])
    with pytest.raises(NotFound):
        mem.history("Nobody') MATCH (n) DETACH DELETE n //", group=hostile["group"])
    assert mem.ask(f"Where does {HOSTILE_NAMES[0]} live?", group=hostile["group"] + "'}) //").abstained
    assert snapshot(mem.ctx.store, [hostile["sentinel"]]) == hostile["sentinel_before"]


def test_cypher_read_guard_holds_against_tricks(mem: Memory, hostile: dict[str, Any]) -> None:
    for query in [
        "MATCH (n) DETACH DELETE n",
        "RETURN 1 AS x; MATCH (n) DETACH DELETE n",
        "MATCH (n) WHERE n.name = '//' DETACH DELETE n",
        "MATCH (n) /* RETURN */ DETACH DELETE n",
    ]:
        with pytest.raises(ReadOnlyViolation):
            mem.cypher(query)
    assert mem.cypher("RETURN 'MATCH (n) DETACH DELETE n' AS s") == [{"s": "MATCH (n) DETACH DELETE n"}]
    assert snapshot(mem.ctx.store, [hostile["sentinel"]]) == hostile["sentinel_before"]


storable = st.text(storable_chars, max_size=60)


def test_cypher_params_round_trip(mem: Memory, hostile: dict[str, Any]) -> None:
    @bounded(25)
    @given(value=st.one_of(storable, st.sampled_from(HOSTILE_NAMES + [PAYLOAD])))
    def prop(value: str) -> None:
        assert mem.cypher("RETURN $x AS x", {"x": value}) == [{"x": value}]
        rows = mem.cypher(
            "MATCH (e:Episodic) WHERE e.group_id = $g AND e.speaker = $s RETURN count(e) AS n",
            {"g": hostile["group"], "s": value},
        )
        assert rows == [{"n": HOSTILE_NAMES.count(value)}]

    prop()


# --- no Cypher built by splicing ------------------------------------------------------------------

_CYPHER = re.compile(
    r"\b(MATCH|MERGE|CREATE|DELETE|DETACH|RETURN|UNWIND|WHERE|SET|REMOVE|CALL|YIELD|LOAD|COPY|DROP|ALTER|SHOW)\b"
)
_PLACEHOLDER = re.compile(r"^(\{\w+\}|\$\w+)$")
_RUNS = {"run", "read", "named", "execute", "execute_read", "execute_write", "run_named"}
# (file, function) → why splicing is safe there. Keep it short; every entry must still match.
ALLOWED = {
    ("tkg/cypher.py", "load_schema"): "DDL takes no parameters; the vector dimension is a validated int in 1..8192",
    ("tkg/stores/kuzu_store.py", "_conn"): "LOAD EXTENSION of names from a literal tuple ('fts', 'vector')",
    ("tkg/stores/kuzu_store.py", "_set_checkpoint_threshold"): "a setting takes a literal only; the value is an int",
    ("tkg/stores/kuzu_store.py", "_reset_empty"): "DDL on table and index names matched as \\w+ in tkg's own schema file",
}


def splices(source: str) -> list[tuple[int, str, str]]:
    """(line, enclosing function, code) of every string build whose literal part reads like Cypher."""
    tree = ast.parse(source)
    found: list[tuple[int, str, str]] = []

    def literal(node: ast.AST) -> str | None:
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    def about_cypher(fn: ast.AST) -> bool:
        """Whether a function touches Cypher: names a .cypher file or runs a statement."""
        for sub in ast.walk(fn):
            if "cypher" in (literal(sub) or "").lower():
                return True
            if isinstance(sub, ast.Call):
                name = sub.func.attr if isinstance(sub.func, ast.Attribute) else getattr(sub.func, "id", "")
                if name in _RUNS:
                    return True
        return False

    def visit(node: ast.AST, func: str, cypherish: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            func, cypherish = node.name, about_cypher(node)
        text: str | None = None
        if isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values):
            text = "".join(literal(v) or " " for v in node.values)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
            text = " ".join(t for t in (literal(node.left), literal(node.right)) if t)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("format", "format_map"):
                text = literal(node.func.value)
            elif cypherish and node.func.attr == "replace" and node.args and _PLACEHOLDER.match(literal(node.args[0]) or ""):
                text = "MATCH"  # filling a placeholder of a Cypher template is splicing
        if text and _CYPHER.search(text):
            found.append((getattr(node, "lineno", 0), func, ast.unparse(node)[:100]))
        for child in ast.iter_child_nodes(node):
            visit(child, func, cypherish)

    visit(tree, "<module>", False)
    return found


def test_the_splice_scan_sees_splicing_and_passes_parameters() -> None:
    bad = 'def f(name):\n    return run(f"MATCH (n) WHERE n.name = \'{name}\' RETURN n")\n'
    bad += 'def g(x):\n    return "MATCH (n {uuid: \'%s\'}) RETURN n" % x\n'
    bad += 'def h(x):\n    return "MATCH (n) WHERE n.k = " + x\n'
    bad += 'def i(t, d):\n    return run(t.replace("{dim}", d))\n'
    assert [f for _, f, _ in splices(bad)] == ["f", "g", "h", "i"]
    good = 'def f(name):\n    return run("MATCH (n) WHERE n.name = $name RETURN n", {"name": name})\n'
    good += 'def g(x):\n    return f"no such group {x!r}; see `tkg groups`"\n'
    good += 'def h(p, n):\n    return p.replace("{name}", n)  # a regex template, no Cypher in sight\n'
    assert splices(good) == []


def test_no_cypher_is_built_by_string_splicing() -> None:
    hits: dict[tuple[str, str], list[str]] = {}
    for folder in ("tkg", "planners", "procedures"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line, func, code in splices(path.read_text(encoding="utf-8")):
                hits.setdefault((rel, func), []).append(f"{rel}:{line} in {func}(): {code}")
    spliced = [msg for key, msgs in hits.items() if key not in ALLOWED for msg in msgs]
    assert not spliced, "Cypher built by string splicing (pass values as $parameters):\n" + "\n".join(spliced)
    stale = [key for key in ALLOWED if key not in hits]
    assert not stale, f"allow-list entries that no longer match anything (remove them): {stale}"
