"""The `tkg` CLI driven through typer's CliRunner on each store, errors included.

A small JSONL conversation (tests/data/cli/small.jsonl: Priya moves Bristol → Leeds → Lisbon)
is ingested once per backend under a unique group, which is forgotten afterwards. Kuzu runs
in a temporary directory; Neo4j runs when ``TKG_TEST_NEO4J_URI`` is set.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner, Result

from tkg.cli import app
from tkg.cli.common import FormatChoice, ModeChoice, check_params, parse_as_of, parse_params, query_params
from tkg.doctor import run_checks
from tkg.embed import get_embedder
from tkg.errors import InputError
from tkg.ingest.loaders import FORMATS
from tkg.memory import Memory
from tkg.models import MODES
from tkg.stores import parse_store_url

DATA = Path(__file__).parent / "data" / "cli" / "small.jsonl"
NEO4J_ENV = "TKG_TEST_NEO4J_URI"
UNREACHABLE = "bolt://neo4j:s3cretpass@127.0.0.1:1"
runner = CliRunner()


def tkg(url: str | None, *args: str, input: str | None = None) -> Result:
    argv = (["--store", url] if url else []) + list(args)
    return runner.invoke(app, argv, input=input)


def ok_json(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # --json: stdout holds one JSON document and nothing else


def failed(result: Result, text: str) -> str:
    """Exit 1 with one line on stderr containing ``text`` and no traceback."""
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], result.stderr
    assert "Traceback" not in result.output
    return lines[0]


@pytest.fixture(scope="module", params=["kuzu", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "neo4j":
        uri = os.environ.get(NEO4J_ENV)
        if not uri:
            pytest.skip(f"{NEO4J_ENV} is not set")
        return uri
    return f"kuzu://{tmp_path_factory.mktemp('cli')}/cli.kuzu"


def unique_group() -> str:
    return f"cli-{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="module")
def ingested(url: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    group = unique_group()
    report = ok_json(tkg(url, "ingest", str(DATA), "--group", group, "--json"))
    yield url, group, report
    tkg(url, "forget", "--group", group, "--yes")


# --- help and wiring -----------------------------------------------------------------------------


def _commands(cmd: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, cmd
    for name, sub in (getattr(cmd, "commands", None) or {}).items():
        yield from _commands(sub, (*path, name))


def test_every_command_and_option_has_help() -> None:
    root = get_command(app)
    found = dict(_commands(root))
    assert {
        ("bench",),
        ("bench", "locomo"),
        ("bench", "classifier"),
        ("ask",),
        ("cypher",),
        ("doctor",),
    } <= set(found)
    assert {p[0] for p in found if p} >= {
        "demo", "ingest", "ask", "explain", "state", "history", "cypher", "forget", "doctor", "groups",
        "bench",
    }
    for path, cmd in found.items():
        assert (cmd.help or "").strip(), f"tkg {' '.join(path)} has no help"
        if path and not getattr(cmd, "commands", None):
            assert "Example: tkg " in cmd.help, f"tkg {' '.join(path)} has no example invocation"
        for param in cmd.params:
            assert (getattr(param, "help", None) or "").strip(), (
                f"tkg {' '.join(path)} {param.name} has no help"
            )
        assert tkg(None, *path, "--help").exit_code == 0


def test_help_shows_no_type_placeholders_and_an_example_everywhere() -> None:
    """Usage lines name arguments as click does (PATH, [QUERY]); a flag shows no <bool>; every
    command and group, the root included, ends its help with an example."""
    for path, _ in _commands(get_command(app)):
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        usage = next(line for line in result.stdout.splitlines() if "Usage:" in line)
        assert "{" not in usage and "}" not in usage, usage
        assert "<bool>" not in result.stdout, f"tkg {' '.join(path)} --help shows <bool>"
        assert "Example: tkg" in result.stdout, f"tkg {' '.join(path)} --help has no example"
    assert "Usage: tkg ingest [OPTIONS] PATH" in tkg(None, "ingest", "--help").stdout
    assert "Usage: tkg state [OPTIONS] SUBJECT [PREDICATE]" in tkg(None, "state", "--help").stdout
    assert "Usage: tkg bench [OPTIONS] COMMAND [ARGS]..." in tkg(None, "bench", "--help").stdout


def test_completion_stays_enabled_and_choices_match_the_library() -> None:
    names = {opt for p in get_command(app).params for opt in p.opts}
    assert {"--install-completion", "--show-completion", "--store"} <= names
    assert tuple(m.value for m in ModeChoice) == MODES
    assert tuple(f.value for f in FormatChoice) == FORMATS


def test_usage_errors_keep_exit_status_2() -> None:
    assert tkg(None, "ask", "Where?").exit_code == 2  # --group missing
    assert tkg(None, "ask", "Where?", "-g", "x", "--mode", "nonsense").exit_code == 2
    assert tkg(None, "no-such-command").exit_code == 2


def test_bench_sub_app_is_registered() -> None:
    result = tkg(None, "bench", "--help")
    assert result.exit_code == 0
    for name in ("locomo", "temporal", "ingest", "extraction", "classifier"):
        assert name in result.stdout


def test_serve_mcp_and_bench_mcp_have_help_with_an_example(monkeypatch: pytest.MonkeyPatch) -> None:
    found = dict(_commands(get_command(app)))
    assert {("serve",), ("serve", "mcp"), ("bench", "mcp")} <= set(found)
    for path in (("serve", "mcp"), ("bench", "mcp")):
        result = tkg(None, *path, "--help")
        assert result.exit_code == 0 and "Example: tkg " in result.stdout, result.stdout
    assert all(
        opt in tkg(None, "serve", "mcp", "--help").stdout
        for opt in ("--group", "--http", "--allow-forget", "--store")
    )
    monkeypatch.delenv("TKG_MCP_TOKEN", raising=False)
    failed(
        tkg(None, "serve", "mcp", "--http", "0.0.0.0:8765"), "TKG_MCP_TOKEN"
    )  # refused before any store opens
    failed(tkg(None, "serve", "mcp", "--http", "nowhere"), "HOST:PORT")


# --- input parsing -------------------------------------------------------------------------------


def test_as_of_accepts_iso_and_english_and_rejects_nonsense() -> None:
    assert parse_as_of("2023-03-01").isoformat() == "2023-03-01T00:00:00+00:00"
    assert parse_as_of("March 2023") == parse_as_of("2023-03-01")
    assert parse_as_of("2023-03-01T12:00:00+02:00").hour == 10
    with pytest.raises(InputError, match="cannot read"):
        parse_as_of("the day after never")


def test_params_are_json_dates_or_strings() -> None:
    params = parse_params(["n=3", "names=[\"a\"]", "who=Priya", "at=2023-07-01", "quoted=\"2023-07-01x\""])
    assert params["n"] == 3 and params["names"] == ["a"] and params["who"] == "Priya"
    assert params["at"].isoformat() == "2023-07-01T00:00:00+00:00" and params["quoted"] == "2023-07-01x"
    for bad in (["novalue"], ["=3"], ["a=1", "a=2"]):
        with pytest.raises(InputError):
            parse_params(bad)
    assert query_params("RETURN $a, '$b' // $c\n, $a") == ["a"]
    with pytest.raises(InputError, match="needs parameter"):
        check_params(["RETURN $a AS a"], {})
    with pytest.raises(InputError, match="no parameter"):
        check_params(["RETURN 1 AS a"], {"a": 1})


def test_rows_table_hides_empty_columns_and_expands_when_too_wide() -> None:
    from rich.console import Console
    from rich.table import Table

    from tkg.cli.render import rows_table

    rows: list[dict[str, Any]] = [
        {"name": "Priya", "note": None, "at": datetime(2023, 5, 1, tzinfo=UTC)},
        {"name": "Marco", "note": "", "at": None},
    ]
    table = rows_table(rows, width=200)
    assert isinstance(table, Table) and [c.header for c in table.columns] == ["name", "at"]
    assert table.caption == "empty in every row: note"
    console = Console(width=30, record=True)
    console.print(rows_table(rows, width=12))  # too narrow for a table: one block per row
    text = console.export_text()
    assert "row 1" in text and "row 2" in text and "2023-05-01" in text and "note" in text


# --- commands on each store ----------------------------------------------------------------------


def test_ingest_reports_and_is_idempotent(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, group, report = ingested
    assert report["episodes"] == 7 and report["groups"] == [group] and report["facts"] >= 3
    assert {"chunks", "entities", "superseded", "seconds", "turns_per_s", "warnings"} <= set(report)
    again = ok_json(tkg(url, "ingest", str(DATA), "--group", group, "--format", "jsonl", "--json"))
    assert again["episodes"] == 0 and again["skipped_existing"] == 7
    human = tkg(url, "ingest", str(DATA), "--group", group)
    assert human.exit_code == 0 and "already there" in human.stdout


def test_ingest_bad_file_fails_before_writing(url: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"speaker": "A", "text": "hi"}\n', encoding="utf-8")
    failed(tkg(url, "ingest", str(bad), "--group", unique_group()), "missing field")
    failed(tkg(url, "ingest", str(tmp_path / "missing.jsonl")), "no such file")


def test_groups_lists_the_group(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, group, _ = ingested
    data = ok_json(tkg(url, "groups", "--json"))
    mine = [g for g in data["groups"] if g["group"] == group]
    assert mine and mine[0]["episodes"] == 7 and mine[0]["facts"] >= mine[0]["current_facts"] > 0
    assert group in tkg(url, "groups").stdout


def test_memory_names_its_store_and_counts_its_groups(url: str, tmp_path: Path) -> None:
    """`Memory.url` and `Memory.groups()` (with counts) are what `tkg groups` prints."""
    target = (
        url if url.startswith("bolt") else f"kuzu://{tmp_path}/memory.kuzu"
    )  # Kuzu: one process, one open
    group = unique_group()
    with Memory.open(target) as mem:
        mem.ingest(DATA, group=group)
        try:
            assert mem.url == parse_store_url(target).redacted and "***" not in mem.url
            row = next(g for g in mem.groups() if g["group_id"] == group)
            assert {k: row[k] for k in mem.counts(group)} == mem.counts(group)  # the same counts, in one call
            assert (
                row["episodes"] == 7
                and row["facts"] >= row["current_facts"] > 0
                and row["first"] <= row["last"]
            )
        finally:
            mem.forget(group)



def test_history_is_a_timeline_of_versions(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, group, _ = ingested
    data = ok_json(tkg(url, "history", "Priya", "lives_in", "--group", group, "--json"))
    homes = [(f["object"], f["version"]) for f in data["facts"]]
    assert [h for h, _ in homes] == ["Bristol", "Leeds", "Lisbon"]
    assert [v for _, v in homes] == sorted(v for _, v in homes)
    assert [f["invalid_at"] is None for f in data["facts"]] == [False, False, True]
    human = tkg(url, "history", "Priya", "--group", group)
    assert human.exit_code == 0 and "Leeds" in human.stdout and "lives_in" in human.stdout


def test_state_now_and_as_of(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, group, _ = ingested

    def home(*extra: str) -> list[str]:
        data = ok_json(tkg(url, "state", "Priya", "lives_in", "--group", group, "--json", *extra))
        return [f["object"] for f in data["facts"]]

    assert home() == ["Lisbon"]
    assert home("--as-of", "July 2023") == ["Leeds"]
    assert home("--as-of", "2023-03-13") == ["Bristol"]
    human = tkg(url, "state", "Priya", "--group", group)
    assert human.exit_code == 0 and "Lisbon" in human.stdout and "Bristol" not in human.stdout


def test_ask_answers_with_evidence(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, group, _ = ingested
    data = ok_json(tkg(url, "ask", "Where does Priya live now?", "--group", group, "--json"))
    assert {"question", "answer", "abstained", "mode", "procedure", "evidence", "trace", "as_of"} <= set(data)
    assert "Lisbon" in data["answer"] and not data["abstained"] and data["mode"] in MODES
    assert data["evidence"] and {e["source_ref"] for e in data["evidence"]} <= {f"t{i}" for i in range(1, 8)}
    past = ok_json(
        tkg(url, "ask", "Where did Priya live?", "--group", group, "--as-of", "2023-07-01", "--json")
    )
    assert "Leeds" in past["answer"] and past["as_of"].startswith("2023-07-01")
    human = tkg(url, "ask", "Where does Priya live now?", "--group", group, "--mode", "latest_version")
    assert human.exit_code == 0 and "Lisbon" in human.stdout and "latest_version" in human.stdout


def test_explain_prints_the_trace(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, group, _ = ingested
    data = ok_json(tkg(url, "explain", "Where does Priya live now?", "--group", group, "--json"))
    assert isinstance(data["trace"], dict) and data["trace"] and data["mode"] in MODES
    human = tkg(url, "explain", "Where does Priya live now?", "--group", group)
    assert human.exit_code == 0 and data["procedure"] in human.stdout and "A: " in human.stdout


def test_cypher_runs_named_queries_and_lists_them(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, group, _ = ingested
    listed = ok_json(tkg(url, "cypher", "--list", "--json"))["queries"]
    assert {"fact_history", "supersession_chain"} <= {q["name"] for q in listed}
    assert "fact_history" in tkg(url, "cypher", "--list").stdout
    data = ok_json(
        tkg(
            url, "cypher", "--name", "supersession_chain", "-p",
            f"group_id={group}",
            "-p", "subject=Priya", "-p", "predicate=lives_in", "--json",
        )
    )
    assert [r["value"] for r in data["rows"]] == ["Bristol", "Leeds", "Lisbon"] and data["count"] == 3
    assert [r["supersedes_value"] for r in data["rows"]] == [None, "Bristol", "Leeds"]
    as_of = ok_json(
        tkg(
            url, "cypher", "--name", "graph_as_of", "-p",
            f"group_id={group}",
            "-p",
            "as_of=2023-07-01",
            "--json",
        )
    )
    assert ("Priya", "lives_in", "Leeds") in {
        (r["subject"], r["predicate"], r["value"]) for r in as_of["rows"]
    }
    inline = tkg(
        url, "cypher", "MATCH (e:Entity) WHERE e.group_id = $group_id RETURN e.name AS name ORDER BY name",
        "-p",
        f"group_id={group}",
    )
    assert inline.exit_code == 0 and "Priya" in inline.stdout


def test_cypher_refuses_writes_without_write(
    ingested: tuple[str, str, dict[str, Any]], tmp_path: Path
) -> None:
    url, group, _ = ingested
    query = ("MATCH (e:Entity) WHERE e.group_id = $group_id AND e.name = 'Priya' SET e.summary = $text "
             "RETURN e.name AS name")
    failed(tkg(url, "cypher", query, "-p", f"group_id={group}", "-p", "text=hi"), "--write")
    file = tmp_path / "write.cypher"
    file.write_text("// set a summary\n" + query + ";\n", encoding="utf-8")
    assert (
        ok_json(
            tkg(
                url,
                "cypher",
                "--file",
                str(file),
                "-p",
                f"group_id={group}",
                "-p", "text=hi", "--write", "--json",
            )
        )["count"]
        == 1
    )
    check = ok_json(
        tkg(
            url, "cypher",
            "MATCH (e:Entity) WHERE e.group_id = $g AND e.name = 'Priya' RETURN e.summary AS s", "-p",
            f"g={group}",
            "--json",
        )
    )
    assert check["rows"] == [{"s": "hi"}]


def test_cypher_input_errors(url: str) -> None:
    failed(tkg(url, "cypher", "RETURN $a AS a", "--param", "a"), "malformed --param")
    failed(tkg(url, "cypher", "RETURN $a AS a"), "needs parameter(s) a")
    failed(tkg(url, "cypher", "RETURN 1 AS one", "-p", "b=2"), "no parameter(s) b")
    failed(tkg(url, "cypher", "--name", "no_such_query"), "no exploration query named")
    failed(tkg(url, "cypher"), "give a query")
    failed(tkg(url, "cypher", "RETURN 1 AS one", "--name", "fact_history"), "only one of")


def test_unknown_group_and_bad_dates_fail_cleanly(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, group, _ = ingested
    missing = unique_group()
    for args in (
        ("ask", "Where?"),
        ("explain", "Where?"),
        ("state", "Priya"),
        ("history", "Priya"),
        ("forget", "--yes"),
    ):
        failed(tkg(url, *args, "--group", missing), "no group named")
    failed(tkg(url, "state", "Priya", "--group", group, "--as-of", "the day after never"), "cannot read")
    failed(tkg(url, "ask", "Where?", "--group", group, "--as-of", "13th of Smarch"), "cannot read")
    failed(tkg(url, "history", "Nobody", "--group", group), "no entity named")


def test_forget_asks_first_then_deletes(url: str) -> None:
    group = unique_group()
    ok_json(tkg(url, "ingest", str(DATA), "--group", group, "--json"))
    declined = tkg(url, "forget", "--group", group, input="n\n")
    assert declined.exit_code == 1 and "Delete group" in declined.stderr
    assert group in {g["group"] for g in ok_json(tkg(url, "groups", "--json"))["groups"]}
    counts = ok_json(tkg(url, "forget", "--group", group, "--yes", "--json"))
    assert counts["group"] == group and counts["episodes"] == 7 and counts["facts"] > 0
    assert group not in {g["group"] for g in ok_json(tkg(url, "groups", "--json"))["groups"]}


def test_forget_with_no_one_to_ask_names_yes_and_deletes_nothing(url: str) -> None:
    group = unique_group()
    ok_json(tkg(url, "ingest", str(DATA), "--group", group, "--json"))
    try:
        unanswered = tkg(url, "forget", "--group", group)  # stdin at its end, as in a script or cron
        assert unanswered.exit_code == 1, unanswered.output
        assert "--yes" in unanswered.stderr and "nothing deleted" in unanswered.stderr
        assert "Traceback" not in unanswered.output and "Aborted" not in unanswered.output
        assert group in {g["group"] for g in ok_json(tkg(url, "groups", "--json"))["groups"]}
    finally:
        tkg(url, "forget", "--group", group, "--yes")


def test_ingest_limit_takes_the_first_turns_and_a_rerun_goes_on(url: str) -> None:
    group = unique_group()
    try:
        first = ok_json(tkg(url, "ingest", str(DATA), "--group", group, "--limit", "3", "--json"))
        assert first["episodes"] == 3 and first["skipped_existing"] == 0
        rest = ok_json(tkg(url, "ingest", str(DATA), "--group", group, "--json"))
        assert rest["episodes"] == 4 and rest["skipped_existing"] == 3
        assert tkg(url, "ingest", str(DATA), "--limit", "0").exit_code == 2  # a usage error
    finally:
        tkg(url, "forget", "--group", group, "--yes")


def test_ingest_seconds_leave_out_the_model_load(tmp_path: Path) -> None:
    """A fresh embedder loads its model before the clock starts: seconds and turns/s are the turns'."""
    embedder = get_embedder(None, cache=False)
    assert not getattr(embedder, "loaded", True)
    with Memory.open(f"kuzu://{tmp_path}/load.kuzu", embedder=embedder) as mem:
        started = time.perf_counter()
        report = mem.ingest(DATA, group=unique_group())
        total = time.perf_counter() - started
    assert getattr(embedder, "loaded", False) and report.model_load_s > 0
    assert report.seconds + report.model_load_s <= total + 0.01
    data = report.to_dict()
    assert data["turns_per_s"] == round(report.episodes / report.seconds, 1)


def test_doctor_reports_every_check(ingested: tuple[str, str, dict[str, Any]]) -> None:
    url, _, _ = ingested
    data = ok_json(tkg(url, "doctor", "--json"))
    assert data["ok"] is True
    checks = {c["name"]: c for c in data["checks"]}
    assert set(checks) == {"store", "schema", "indexes", "embedder"}
    assert checks["embedder"]["dim"] == int(checks["schema"]["embedding_dim"]) == 384
    assert {"tkg", "python", "kuzu", "neo4j_driver"} <= set(data["versions"])
    assert "ok" in tkg(url, "doctor").stdout
    # the checks come from the store's own methods: the indexes its schema file makes, its recorded meta
    found, shown = run_checks(url)
    assert shown == parse_store_url(url).redacted and all(c.ok for c in found)
    assert "all" in checks["indexes"]["detail"] and "missing" not in checks["indexes"]["detail"]
    assert ("server" in checks["store"]) == url.startswith("bolt")


# --- failures that need no store -----------------------------------------------------------------


def test_unreachable_neo4j_is_one_line_and_never_shows_the_password() -> None:
    line = failed(tkg(UNREACHABLE, "groups"), "cannot reach Neo4j")
    assert "s3cretpass" not in line
    doctor = tkg(UNREACHABLE, "doctor", "--json")
    assert doctor.exit_code == 1 and "s3cretpass" not in doctor.output
    data = json.loads(doctor.stdout)
    assert data["ok"] is False and data["store"] == "bolt://neo4j:***@127.0.0.1:1"
    assert "cannot reach Neo4j" in data["checks"][0]["detail"]


def test_console_entry_point_exit_codes() -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.run(
        [sys.executable, "-m", "tkg.cli", "cypher", "RETURN 1 AS one", "-p", "x"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert (
        proc.returncode == 1
        and proc.stdout == ""
        and proc.stderr.count("\n") == 1
        and "malformed --param" in proc.stderr
    )
    usage = subprocess.run(
        [sys.executable, "-m", "tkg.cli", "ask"], capture_output=True, text=True, env=env, timeout=120
    )
    assert usage.returncode == 2


@pytest.mark.slow
def test_ctrl_c_during_ingest_exits_130_and_says_what_was_kept(tmp_path: Path) -> None:
    """SIGINT mid-ingest: status 130, one line with the episodes committed (what the store then
    holds), and the same command again finishes the rest."""
    group = unique_group()
    cities = ("Leeds", "Porto", "Ghent", "Tallinn", "Quito", "Lyon", "Oslo", "Turin")
    lines = [json.dumps({"group": group, "speaker": "Ana" if i % 2 else "Bo",
                         "timestamp": f"2023-02-{1 + i // 60:02d}T10:{i % 60:02d}:00Z", "source_ref": f"t{i}",
                         "text": f"I moved to {cities[i % 8]}, I work at Firm{i % 13}: {group} {i}."})
             for i in range(640)]  # fmt: skip
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    url = f"kuzu://{tmp_path}/ctrl-c.kuzu"
    # texts of this run only, and no embedding cache: every turn is embedded, so the ingest is still
    # running when the signal comes (from a warm cache, 960 turns took under two seconds; 640 cold ones
    # take several)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1]), "TKG_EMBED_CACHE": "0"}
    argv = [sys.executable, "-m", "tkg.cli", "--store", url, "ingest", str(path), "--no-bulk"]
    # Ctrl-C at its default, as in a terminal: a suite started in the background (``cmd &``, nohup)
    # ignores SIGINT, and a child inherits that, so it would never be interrupted
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None and "ingesting 640 turn(s)" in proc.stderr.readline()
    time.sleep(2)  # the model loads, then some transactions commit (none yet is fine too: 0 kept)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    said = [line for line in err.splitlines() if "interrupted:" in line]
    assert len(said) == 1 and "Traceback" not in err and out == "", err
    kept = int(said[0].split("interrupted: ")[1].split()[0])
    stored = ok_json(tkg(url, "groups", "--json"))["groups"]
    assert kept == (stored[0]["episodes"] if stored else 0) and kept < 640
    again = ok_json(tkg(url, "ingest", str(path), "--json"))
    assert again["skipped_existing"] == kept and again["episodes"] == 640 - kept


def test_demo_runs_end_to_end_offline() -> None:
    result = tkg(None, "demo")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for heading in (
        "$ tkg ingest", "$ tkg history Priya lives_in", "$ tkg state Priya", "$ tkg ask",
        "$ tkg cypher --name",
    ):
        assert heading in out
    assert "Lisbon" in out and "Leeds" in out
