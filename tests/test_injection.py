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
from reliability.common import bounded, storable_chars, unique

from tkg.bench.soak import snapshot
from tkg.errors import ConfigError, InputError, NotFound, ReadOnlyViolation, StoreError
from tkg.memory import Memory

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_NAMES = [
    "O'Brien", 'Zo"rvik', "`Back`tick", "{Brace}}", "$group_id", "MATCH (n) DETACH DELETE n",
    "Ana // comment",
    "Ünïcødé 日本語 🐕", "Robert'); DROP TABLE x;--", "Back\\slash",
    'Lu:cene AND (x) ~2^3 "q" [a TO b] *? /re/',
    "Mr. {{x}} $1 %s {0}", "Dé /* c */ n}) RETURN n //",
]  # fmt: skip
PAYLOAD = ("it's \"quoted\" `tick` {brace} $group_id %s {0} // match (n) detach delete n; "
           "call db.clear() /* x */ \\ 🐕")
CITIES = ["Leeds", "Porto", "Quito", "Tartu"]


@pytest.fixture(scope="module")
def hostile(mem: Memory, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A sentinel group, then a hostile-named group ingested from a JSONL file through the loader."""
    sentinel = unique("inj-sentinel")
    group = unique("inj") + " ' \" ` {x} $group_id MATCH (n) DETACH DELETE n //"
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "sentinel.jsonl").write_text(
        json.dumps(
            {
                "group": sentinel,
                "speaker": "Priya",
                "timestamp": "2023-01-01T09:00:00Z",
                "text": "I live in Leeds.",
            }
        )
        + "\n"
    )
    lines = []
    for i, name in enumerate(HOSTILE_NAMES):
        lines.append({
            "group": group, "speaker": name, "listeners": ["Marco"],
            "timestamp": f"2023-02-{i + 1:02d}T10:00:00Z",
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
        "MATCH (e:Episodic) WHERE e.group_id = $g RETURN e.speaker AS speaker, e.content AS text, "
        "e.source_ref AS ref",
        {"g": group},
    )
    stored = sorted((r["speaker"], r["text"], r["ref"]) for r in rows)
    assert stored == sorted((x["speaker"], x["text"], x["source_ref"]) for x in lines)
    assert snapshot(mem.ctx.store, [hostile["sentinel"]]) == hostile["sentinel_before"]
    assert {g["group_id"] for g in mem.groups()} >= {group, hostile["sentinel"]}


def test_hostile_entity_names_round_trip_through_history_and_state(
    mem: Memory, hostile: dict[str, Any]
) -> None:
    for i, name in enumerate(HOSTILE_NAMES):
        history = mem.history(name, "lives_in", group=hostile["group"])
        assert [(f.subject, f.object) for f in history] == [(name, CITIES[i % len(CITIES)])], name
        assert [f.subject for f in mem.state(name, group=hostile["group"])] == [name] * len(
            mem.state(name, group=hostile["group"])
        )


def test_hostile_questions_get_verbatim_evidence(mem: Memory, hostile: dict[str, Any]) -> None:
    texts = {x["text"] for x in hostile["lines"]}
    for name in HOSTILE_NAMES:
        answer = mem.ask(f"Where does {name} live? {PAYLOAD}", group=hostile["group"])
        assert answer.evidence, name
        assert all(any(e.text in t for t in texts) for e in answer.evidence), (
            "evidence must quote stored turns verbatim"
        )
        assert any(e.speaker == name for e in answer.evidence), name
    assert snapshot(mem.ctx.store, [hostile["sentinel"]]) == hostile["sentinel_before"]


def test_hostile_predicates_subjects_and_groups_are_refused_cleanly(
    mem: Memory, hostile: dict[str, Any]
) -> None:
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
    (
        "tkg/cypher.py",
        "load_schema",
    ): "DDL takes no parameters; the vector dimension is a validated int in 1..8192",
    ("tkg/stores/kuzu_store.py", "_conn"): "LOAD EXTENSION of names from a literal tuple ('fts', 'vector')",
    (
        "tkg/stores/kuzu_store.py",
        "_set_checkpoint_threshold",
    ): "a setting takes a literal only; the value is an int",
    (
        "tkg/stores/kuzu_store.py",
        "_reset_empty",
    ): "DDL on table and index names matched as \\w+ in tkg's own schema file",
    (
        "tkg/stores/kuzu_schema.py",
        "drop",
    ): "DDL on table and index names matched as \\w+ in tkg's own schema file",
    (
        "tkg/stores/read_guard.py",
        "_call",
    ): "the refusal message names the CALL it refused; nothing built here is run",
    (
        "tkg/stores/read_guard.py",
        "check_read_only",
    ): "the refusal message lists the allowed clauses; nothing built here is run",
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
            elif (
                cypherish
                and node.func.attr == "replace"
                and node.args
                and _PLACEHOLDER.match(literal(node.args[0]) or "")
            ):
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


# --- the read-only guard (issue 19): what a hostile review got through, and a fuzzer -------------

FUZZ_EXAMPLES = {"kuzu": 300, "neo4j": 200}


@pytest.fixture(scope="module")
def trap(mem: Memory, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A folder where nothing may appear, a secret file no read may return, and the settings to watch."""
    folder = tmp_path_factory.mktemp("trap")
    secret = folder / "secret.csv"
    token = unique("secret-token")
    secret.write_text(f"{token},x\n", encoding="utf-8")
    out = folder / "out"
    out.mkdir()
    return {"out": out, "secret": secret, "token": token, "mark": unique("FuzzMark").replace("-", "_"),
            "settings": settings_of(mem)}


def settings_of(mem: Memory) -> dict[str, Any]:
    if mem.ctx.store.dialect != "kuzu":
        return {}
    return {name: mem.ctx.store.run(f"CALL current_setting('{name}') RETURN *")[0][name]
            for name in ("timeout", "checkpoint_threshold", "threads")}


def payloads(trap: dict[str, Any], dialect: str) -> list[str]:
    """Statements that would leave a trace if they ran: a file, a node, a setting, the secret read."""
    out, secret, mark = trap["out"], trap["secret"], trap["mark"]
    # writes touch only the mark's own node: on the shared Neo4j a slip must not hurt other tests
    common = [
        f"CREATE (:TkgMeta {{key: '{mark}', value: 'x'}})",
        f"MERGE (m:TkgMeta {{key: '{mark}'}})",
        f"MATCH (m:TkgMeta {{key: '{mark}'}}) SET m.value = 'y'",
        f"MATCH (m:TkgMeta {{key: '{mark}'}}) DETACH DELETE m",
    ]
    if dialect == "neo4j":
        return common + [
            f"LOAD CSV FROM 'file://{secret}' AS row RETURN row",
            f"CALL {{ CREATE (:TkgMeta {{key: '{mark}'}}) }}",
            f"FOREACH (x IN [1] | CREATE (:TkgMeta {{key: '{mark}'}}))",
        ]
    return common + [
        f"COPY (MATCH (e:Episodic) RETURN e.content) TO '{out}/copy.csv'",
        f"EXPORT DATABASE '{out}/export'",
        f"LOAD FROM '{secret}' (header=false) RETURN *",
        f"ATTACH '{out}/attached.kuzu' AS fuzz (dbtype kuzu)",
        "CALL timeout=1", "CALL checkpoint_threshold=1", "CALL threads=1", "CHECKPOINT",
    ]


def traces(mem: Memory, trap: dict[str, Any], rows: Any = None) -> list[str]:
    """What a forbidden statement would have left behind."""
    found = [f"file {p}" for p in trap["out"].rglob("*")]
    if mem.ctx.store.run(
        "MATCH (m:TkgMeta) WHERE m.key = $k OR m.value = $k RETURN count(m) AS n", {"k": trap["mark"]}
    )[0]["n"]:
        found.append("a node was written or changed")
    if settings_of(mem) != trap["settings"]:
        found.append(f"settings changed: {settings_of(mem)}")
    if rows is not None and trap["token"] in json.dumps(rows, default=str):
        found.append("the secret file was read")
    return found


def test_the_reviews_read_only_escapes_are_refused(
    mem: Memory, hostile: dict[str, Any], trap: dict[str, Any]
) -> None:
    out = trap["out"]
    for query in [
        f"/* **/ 'x */ COPY (MATCH (e:Episodic) RETURN e.group_id, e.content) TO \"{out}/x.csv\" //'",
        f"/* **/ 'x */ EXPORT DATABASE '{out}/exp' //'",
        f"/* **/ 'x */ ATTACH '{out}/a.kuzu' AS a (dbtype kuzu) //'",
        f'UNWIND [1] AS x WITH x LIMIT 1LOAD FROM "{trap["secret"]}" (file_format="csv", header=false) '
        'RETURN * LIMIT 3',
        "CALL timeout=1", "CALL checkpoint_threshold=1", "CHECKPOINT", "RETURN 1 AS a; RETURN 2 AS b",
        "MATCH (n) RETURN n LIMIT 1 /* */ USE other", "SHOW INDEXES",
        "MATCH (n) CALL { MATCH (m) DETACH DELETE m } RETURN n",
    ]:
        with pytest.raises(ReadOnlyViolation) as refused:
            mem.cypher(query)
        assert "read-only:" in str(refused.value) and "line 1, column" in str(refused.value), query
    assert traces(mem, trap) == []
    assert mem.ask("Where does O'Brien live?", group=hostile["group"]).evidence  # later questions still work
    assert snapshot(mem.ctx.store, [hostile["sentinel"]]) == hostile["sentinel_before"]


def test_several_statements_are_refused_even_with_write(mem: Memory) -> None:
    """Kuzu 0.11.3 ended the process (SIGSEGV) on this string; now it never reaches the store."""
    with pytest.raises(InputError, match="several statements"):
        mem.cypher("RETURN 1 AS a; RETURN 2 AS b", write=True)
    assert mem.cypher("RETURN 1 AS a;", write=True) == [{"a": 1}]


def test_reads_tkg_and_analysts_use_pass_the_guard(mem: Memory, hostile: dict[str, Any]) -> None:
    g = {"g": hostile["group"]}
    assert mem.cypher(
        "MATCH (e:Episodic) WHERE e.group_id = $g WITH e ORDER BY e.seq DESC LIMIT 2 RETURN count(*) AS n", g
    ) == [{"n": 2}]
    assert mem.cypher("OPTIONAL MATCH (e:Episodic) WHERE e.group_id = $g AND e.speaker STARTS WITH 'O' "
                      "RETURN CASE WHEN e IS NULL THEN 0 ELSE 1 END AS x SKIP 0 LIMIT 1", g) == [{"x": 1}]
    assert mem.cypher("UNWIND [1, 2] AS x RETURN x /* a // comment */ UNION RETURN 3 AS x // end") != []
    schema = (
        "CALL SHOW_TABLES() RETURN name"
        if mem.ctx.store.dialect == "kuzu"
        else "CALL db.labels() YIELD label RETURN label"
    )
    assert mem.cypher(schema)


# hostile surroundings: comments of every shape, strings with escapes, names, unicode, glued digits
_COMMENT_BODY = st.lists(
    st.sampled_from(list("*/ '\"`\\\nxX1;") + ["**/", "*/", "/*", "\u2028", "é"]), max_size=12
).map("".join)
_STRING_BODY = st.lists(
    st.sampled_from(list("ab '\"`*/;") + ["\\'", '\\"', "\\\\", "\\n", "*/", "//", "🐕"]), max_size=10
).map("".join)
NOISE = st.one_of(
    st.sampled_from(
        [
            " ",
            "\t",
            "\n",
            "\r\n",
            "\u00a0",
            "\u2028",
            "", "1", " 1", "LIMIT 1", "'", '"', "`",
            "\\",
            ";",
            "é",
            "0x1",
        ]
    ),
    _COMMENT_BODY.map(lambda b: f"/*{b}*/"),
    _COMMENT_BODY.map(lambda b: f"//{b}\n"),
    _STRING_BODY.map(lambda b: f"'{b}'"),
    _STRING_BODY.map(lambda b: f'"{b}"'),
    _STRING_BODY.map(lambda b: f"`{b}`"),
)
PREFIXES = st.sampled_from(
    [
        "", "RETURN 1 AS x", "UNWIND [1] AS x WITH x LIMIT 1", "MATCH (m:TkgMeta) WITH m LIMIT 1", "RETURN '",
        "RETURN 1 AS x //", "RETURN 1 AS x /*", "WITH 1 AS x",
    ]
)


def test_fuzzed_queries_never_run_anything_forbidden(
    mem: Memory, hostile: dict[str, Any], trap: dict[str, Any]
) -> None:
    dialect = mem.ctx.store.dialect
    stats = {"tried": 0, "refused": 0, "ran": 0, "store_errors": 0}

    @bounded(FUZZ_EXAMPLES[dialect])
    @given(
        prefix=PREFIXES,
        before=st.lists(NOISE, max_size=4),
        payload=st.sampled_from(payloads(trap, dialect)),
        after=st.lists(NOISE, max_size=4),
        upper=st.booleans(),
    )
    def prop(prefix: str, before: list[str], payload: str, after: list[str], upper: bool) -> None:
        query = (
            prefix
            + "".join(before)
            + (payload.upper() if upper and "'" not in payload else payload)
            + "".join(after)
        )
        stats["tried"] += 1
        rows = None
        try:
            rows = mem.cypher(query)
            stats["ran"] += 1
        except ReadOnlyViolation:
            stats["refused"] += 1
        except StoreError:
            stats["store_errors"] += 1  # the database's own parse error: it ran nothing either
        assert traces(mem, trap, rows) == [], query

    prop()
    print(f"\n{dialect} guard fuzzer: {stats}")
    assert stats["tried"] >= FUZZ_EXAMPLES[dialect] and stats["refused"] > 0
    assert snapshot(mem.ctx.store, [hostile["sentinel"]]) == hostile["sentinel_before"]
