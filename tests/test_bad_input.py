"""Bad input: every malformed file is refused whole, with where and why; the CLI explains, never crashes.

Hypothesis builds valid JSONL and LoCoMo files and breaks each in one known way (truncated JSON,
a missing field, a wrong type, an invalid date, binary bytes, a NUL, a duplicate id, a speaker
who is not in the conversation, ...). `Memory.ingest` must then either ingest the file exactly
(the untouched controls) or raise `InputError` naming the file, the position the break was put
at and a reason — and the store must hold exactly what it held before. Huge values (a 10 MB
turn, a 40 000-character name) must be refused the same way rather than half-written. The CLI
turns bad arguments into one line and a status, never a traceback.
"""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reliability.common import bounded, storable_chars, track, unique
from typer.testing import CliRunner

from tkg.bench.soak import snapshot
from tkg.cli import app
from tkg.cli.common import parse_as_of
from tkg.errors import InputError, TkgError
from tkg.ingest.loaders import load
from tkg.memory import Memory

EXAMPLES = {"kuzu": 25, "neo4j": 8}
name = st.from_regex(r"\A[A-Z][a-z]{2,9}\Z")
text = st.text(storable_chars, max_size=80)
stamp = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2035, 1, 1))
WRONG = st.sampled_from([17, 2.5, True, ["a"], {"x": 1}])
runner = CliRunner()


def state_of(mem: Memory, groups: list[str]) -> Any:
    """Everything the store holds for these groups, plus the list of groups (the Kuzu store is ours alone)."""
    listed = sorted(g["group_id"] for g in mem.groups()) if mem.ctx.store.dialect == "kuzu" else None
    return snapshot(mem.ctx.store, groups), listed


def check_refused_or_exact(mem: Memory, path: Path, groups: list[str], expect: dict[str, Any]) -> None:
    """The heart of every case: an exact ingest, or InputError(file, position, reason) with nothing
    written."""
    track(mem, *groups)
    before = state_of(mem, groups)
    try:
        report = mem.ingest(path)
    except InputError as exc:
        assert expect["error"] is not False, f"a valid file was refused: {exc}"
        assert exc.source == str(path), exc
        assert exc.reason and exc.reason in str(exc) and str(path) in str(exc)
        position = expect.get("position")
        if position is not None:
            assert exc.position is not None and exc.position.startswith(position), (str(exc), position)
        assert state_of(mem, groups) == before, f"{exc} — but something was written"
        return
    except (
        TkgError
    ) as exc:  # any other refusal must also leave nothing behind, and should have been an InputError
        written = [mem.counts(g) for g in groups]
        pytest.fail(
            f"{expect['what']}: ingest raised {type(exc).__name__} (not InputError) after writing {written}: "
            f"{exc}"
        )
    assert expect["error"] is not True, f"{expect['what']}: ingested instead of refused ({report.to_dict()})"
    texts = expect["texts"]
    assert report.episodes + report.skipped_existing == len(texts)
    rows = mem.cypher("MATCH (e:Episodic) WHERE e.group_id IN $g RETURN e.content AS text", {"g": groups})
    assert sorted(r["text"] for r in rows) == sorted(texts)


def check_generated_files(mem: Memory, folder: Path, cases: st.SearchStrategy[Any], suffix: str) -> None:
    """Each generated file, written to `folder`, is ingested exactly or refused whole."""

    @bounded(EXAMPLES[mem.ctx.store.dialect])
    @given(case=cases)
    def prop(case: tuple[bytes, list[str], dict[str, Any]]) -> None:
        data, groups, expect = case
        path = folder / f"{groups[0]}{suffix}"
        path.write_bytes(data)
        check_refused_or_exact(mem, path, groups, expect)

    prop()


def finished(
    draw: st.DrawFn, data: bytes, groups: list[str], expect: dict[str, Any], texts: list[str], *, bad: bytes,
    one: bool,
) -> tuple[bytes, list[str], dict[str, Any]]:
    """A generated case: `bad` (invalid UTF-8) put in at a drawn byte for "binary"; a control, or a
    "duplicate" with a single record (nothing to duplicate), must be ingested exactly."""
    if expect["what"] == "binary":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + bad + data[at:]
        expect["position"] = "byte "
    if expect["what"] == "control" or (expect["what"] == "duplicate" and one):
        expect["error"] = False
    expect["texts"] = texts
    return data, groups, expect


# --- JSONL ---------------------------------------------------------------------------------------


@st.composite
def jsonl_case(draw: st.DrawFn) -> tuple[bytes, list[str], dict[str, Any]]:
    group = unique("bad-jsonl")
    n = draw(st.integers(1, 4))
    records: list[dict[str, Any]] = [
        {"group": group, "speaker": draw(name), "text": draw(text) + " I live in Leeds.",
         "source_ref": f"r{i}",
         "timestamp": draw(stamp).isoformat() + draw(st.sampled_from(["", "Z", "+02:00"])),
         "listeners": [draw(name)]}
        for i in range(n)
    ]  # fmt: skip
    texts = [r["text"].strip() for r in records]  # what an untouched file must store
    k = draw(st.integers(0, n - 1))  # the record to break
    what = draw(st.sampled_from(["control", "truncate", "missing", "wrong_type", "bad_date", "nul",
                                 "duplicate", "not_object", "binary", "empty", "blank_lines",
                                 "bad_listeners"]))  # fmt: skip
    expect: dict[str, Any] = {"what": what, "error": True, "position": f"line {k + 1}"}
    if what == "missing":
        del records[k][draw(st.sampled_from(["group", "speaker", "text", "timestamp"]))]
    elif what == "wrong_type":
        records[k][draw(st.sampled_from(["group", "speaker", "text", "timestamp", "source_ref"]))] = draw(
            WRONG
        )
    elif what == "bad_date":
        records[k]["timestamp"] = draw(
            st.sampled_from(["2023-13-45T10:00:00Z", "yesterday", "", "2023/01/01", "12:00"])
        )
    elif what == "nul":
        records[k][draw(st.sampled_from(["text", "speaker"]))] += "\x00"
    elif what == "bad_listeners":
        records[k]["listeners"] = draw(st.sampled_from(["Marco", [1, 2], {"a": "b"}]))
    elif what == "duplicate" and n > 1:
        k = draw(st.integers(1, n - 1))
        records[k]["source_ref"] = records[0]["source_ref"]
        expect["position"] = f"line {k + 1}"
    lines = [json.dumps(r, ensure_ascii=draw(st.booleans())) for r in records]
    if what == "truncate":
        cut = draw(st.integers(1, len(lines[k]) - 2))
        lines[k] = lines[k][:cut]
    elif what == "not_object":
        lines[k] = draw(st.sampled_from(["[1, 2]", '"a string"', "42", "null"]))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if what == "empty":
        data = draw(st.sampled_from([b"", b"\n\n", b"   \n\t\n"]))
        expect["position"] = None
    elif what == "blank_lines":
        data = b"\n" + data.replace(b"\n", b"\n\n")
        expect["error"] = False
    return finished(draw, data, [group], expect, texts, bad=b"\xff\xfe\x80", one=n == 1)


def test_jsonl_files_are_ingested_exactly_or_refused_whole(
    mem: Memory, tmp_path_factory: pytest.TempPathFactory
) -> None:
    check_generated_files(mem, tmp_path_factory.mktemp("jsonl"), jsonl_case(), ".jsonl")


# --- LoCoMo --------------------------------------------------------------------------------------


@st.composite
def locomo_case(draw: st.DrawFn) -> tuple[bytes, list[str], dict[str, Any]]:
    sid = unique("bad-locomo")
    a, b = draw(st.lists(name, min_size=2, max_size=2, unique=True))
    turns = [
        {"speaker": [a, b][j % 2], "dia_id": f"D1:{j + 1}", "text": draw(text) + " I work at Globex."}
        for j in range(draw(st.integers(1, 4)))
    ]  # fmt: skip
    conv: dict[str, Any] = {
        "speaker_a": a,
        "speaker_b": b,
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": turns,
    }
    sample: dict[str, Any] = {"sample_id": sid, "conversation": conv, "qa": []}
    texts = [t["text"].strip() for t in turns]
    j = draw(st.integers(0, len(turns) - 1))
    what = draw(st.sampled_from(["control", "truncate", "missing_sample", "missing_turn_field",
                                 "wrong_type_turn", "bad_session_date", "stranger", "duplicate",
                                 "turns_not_list", "binary", "not_list", "missing_date"]))  # fmt: skip
    expect: dict[str, Any] = {"what": what, "error": True, "position": f"sample 0 session_1 turn {j}"}
    if what == "missing_sample":
        key = draw(st.sampled_from(["sample_id", "conversation"]))
        del sample[key]
        expect["position"] = "sample 0"
    elif what == "missing_turn_field":
        del turns[j][draw(st.sampled_from(["speaker", "dia_id", "text"]))]
    elif what == "wrong_type_turn":
        turns[j][draw(st.sampled_from(["speaker", "dia_id", "text"]))] = draw(WRONG)  # type: ignore[assignment]
    elif what == "bad_session_date":
        conv["session_1_date_time"] = draw(
            st.sampled_from(["32 Smarch 2023", "", "soon", "25:61 on 8 May, 2023"])
        )
        expect["position"] = "sample 0 session_1"
    elif what == "missing_date":
        del conv["session_1_date_time"]
        expect["position"] = "sample 0 session_1"
    elif what == "stranger":
        turns[j]["speaker"] = "Zz" + a
    elif what == "duplicate" and len(turns) > 1:
        j = draw(st.integers(1, len(turns) - 1))
        turns[j]["dia_id"] = turns[0]["dia_id"]
        expect["position"] = f"sample 0 session_1 turn {j}"
    elif what == "turns_not_list":
        conv["session_1"] = {"0": turns}
        expect["position"] = "sample 0 session_1"
    elif what == "not_list":
        sample = {"not": draw(st.sampled_from([[1, 2], "x", 3]))}
        expect["position"] = None
    data = json.dumps(
        [sample] if what != "not_list" else sample["not"], ensure_ascii=draw(st.booleans()), indent=1
    ).encode("utf-8")
    if what == "truncate":
        data = data[: draw(st.integers(1, len(data) - 2))]
        expect["position"] = "line "
    return finished(draw, data, [sid], expect, texts, bad=b"\xc3\x28", one=len(turns) == 1)


def test_locomo_files_are_ingested_exactly_or_refused_whole(
    mem: Memory, tmp_path_factory: pytest.TempPathFactory
) -> None:
    check_generated_files(mem, tmp_path_factory.mktemp("locomo"), locomo_case(), ".json")


def test_a_line_separator_inside_a_jsonl_string_is_text(mem: Memory, tmp_path: Path) -> None:
    """json.dumps(ensure_ascii=False) leaves U+2028, U+2029 and U+0085 raw inside strings; they are not line
    ends."""
    group = unique("bad-linesep")
    texts = [
        "I live in Leeds.\u2028It rains.",
        "I work at Globex.\u2029Long day.",
        "I have a dog\u0085named Pim.",
    ]
    lines = [
        {"group": group, "speaker": "Priya", "timestamp": f"2023-01-0{i + 1}T10:00:00Z", "text": t}
        for i, t in enumerate(texts)
    ]
    path = tmp_path / "linesep.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    check_refused_or_exact(
        mem, path, [group], {"what": "raw U+2028 in a string", "error": False, "texts": texts}
    )


# --- sizes: refused up front, never half-written ---------------------------------------------------


def test_a_ten_megabyte_turn_is_refused_before_anything_is_written(mem: Memory, tmp_path: Path) -> None:
    group = unique("bad-huge")
    words = random.Random(3).choices(["river", "stone", "Lisbon", "quiet", "garden", "coffee."], k=1_800_000)
    lines = [
        {"group": group, "speaker": "Priya", "timestamp": "2023-01-01T10:00:00Z", "text": "I live in Leeds."},
        {"group": group, "speaker": "Priya", "timestamp": "2023-01-02T10:00:00Z", "text": " ".join(words)},
    ]
    path = tmp_path / "huge.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert path.stat().st_size > 10_000_000
    # Measured: a 1 MB turn takes ~400 s to ingest here (17 000 chunks to embed), so a 10 MB one
    # must be refused by the loader; never try to ingest it to find out.
    with pytest.raises(InputError) as refused:
        load(path)
    assert refused.value.position == "line 2"
    check_refused_or_exact(mem, path, [group], {"what": "10 MB turn", "error": True, "position": "line 2"})


LONG_IN_TEXT = 40_000  # a 40 000-character word inside a turn (extraction blanks words of 64+ characters)


@pytest.mark.parametrize(
    "speaker, text",
    [
        ("P" * 40_000, "I live in Porto."),  # a name field: the loader's to refuse
        (
            "Marco",
            "I work at " + "Q" * LONG_IN_TEXT + ".",
        ),  # a name inside a turn: stored whole, never half-written
        ("Marco", "My sister " + "Z" * LONG_IN_TEXT + " lives in Leeds."),
    ],
    ids=["speaker", "employer-in-text", "sister-in-text"],
)
def test_a_very_long_name_is_ingested_whole_or_refused_whole(
    mem: Memory, tmp_path: Path, speaker: str, text: str
) -> None:
    """A 40 000-character speaker is refused by the loader; a long name inside a turn is ingested with its
    file."""
    group = unique("bad-longname")
    lines = [
        {"group": group, "speaker": "Priya", "timestamp": "2023-01-01T10:00:00Z", "text": "I live in Leeds."},
        {"group": group, "speaker": speaker, "timestamp": "2023-01-02T10:00:00Z", "text": text},
        {
            "group": group,
            "speaker": "Priya",
            "timestamp": "2023-01-03T10:00:00Z",
            "text": "I work at Globex.",
        },
    ]
    path = tmp_path / "longname.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    check_refused_or_exact(mem, path, [group], {"what": "a very long name", "error": None,
                                                "texts": [x["text"] for x in lines]})  # fmt: skip


# --- the CLI -------------------------------------------------------------------------------------


def one_line_error(argv: list[str], status: int, needle: str) -> str:
    result = runner.invoke(app, argv)
    assert result.exit_code == status, (argv, result.output)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    message = result.stderr.strip()
    assert needle in message, (argv, message)
    if status == 1:
        assert len(message.splitlines()) == 1, message
    return message


def test_cli_arguments_are_validated_with_messages(tmp_path: Path) -> None:
    store = f"kuzu://{tmp_path}/cli.kuzu"
    data = tmp_path / "one.jsonl"
    data.write_text(
        json.dumps({"group": "g", "speaker": "Priya", "timestamp": "2023-01-01T10:00:00Z", "text": "Hi."})
        + "\n"
    )
    one_line_error(
        ["--store", store, "ask", "Where?", "--group", "g", "--as-of", "not a date at all"], 1, "as a date"
    )
    one_line_error(
        ["--store", store, "state", "Priya", "--group", "g", "--as-of", "2023-13-45"], 1, "as a date"
    )
    one_line_error(["--store", "foo://nowhere", "groups"], 1, "unknown store scheme 'foo'")
    one_line_error(["--store", "bolt://neo4j:pw@127.0.0.1:notaport", "groups"], 1, "bad port")
    one_line_error(["--store", "bolt://127.0.0.1:7687?colour=red", "groups"], 1, "unknown store URL option")
    one_line_error(["--store", store, "ingest", str(tmp_path / "missing.jsonl")], 1, "no such file")
    one_line_error(["--store", store, "ingest", str(tmp_path), "--format", "jsonl"], 1, "is a directory")
    one_line_error(["--store", store, "ingest", str(data), "--format", "xml"], 2, "'xml'")
    one_line_error(["--store", store, "ingest", str(tmp_path / "notes.txt"), "--group", "g"], 1, "format")
    one_line_error(["--store", store, "ask", "Where?", "--group", "g", "--mode", "psychic"], 2, "'psychic'")
    one_line_error(["--store", store, "ingest", str(data), "--group", "  "], 1, "group")
    one_line_error(["--store", store, "cypher", "RETURN $x AS x", "--param", "x"], 1, "malformed --param")


@bounded(25)
@given(raw=st.text(max_size=40))
def test_as_of_is_a_date_or_an_input_error(raw: str) -> None:
    try:
        value = parse_as_of(raw)
    except InputError as exc:
        assert repr(raw) in str(exc) or "empty date" in str(exc)
        return
    offset = value.utcoffset()
    assert offset is not None and offset.total_seconds() == 0, value


# --- issue 19: edge dates, deep JSON, group names, wrong types, hidden errors, the cache ---------


def jsonl(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("stamp", ["0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00"])
def test_timestamps_past_the_calendar_name_the_file_and_line(mem: Memory, tmp_path: Path, stamp: str) -> None:
    group = unique("edge-year")
    path = jsonl(
        tmp_path / "edge.jsonl",
        [{"group": group, "speaker": "Ana", "timestamp": stamp, "text": "I moved to Leeds."}],
    )
    before = state_of(mem, [group])
    with pytest.raises(InputError) as refused:
        mem.ingest(path)
    assert str(refused.value).startswith(f"{path}, line 1: timestamp") and "out of range" in str(
        refused.value
    )
    assert state_of(mem, [group]) == before


@pytest.mark.parametrize("when", ["31 December, 9999", "11:59 pm on 31 December, 9999", "1 January, 0001"])
def test_relative_times_past_the_calendar_are_no_times(mem: Memory, tmp_path: Path, when: str) -> None:
    """"next year" said on 31 December 9999 names no date: the turn is kept, the time expression is not."""
    group = unique("edge-locomo")
    track(mem, group)
    sample = {
        "sample_id": group,
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": when,
            "session_1": [
                {
                    "speaker": "Ana",
                    "dia_id": "D1:1",
                    "text": "I moved to Leeds last week, and next year to Oslo.",
                },
                {"speaker": "Ben", "dia_id": "D1:2", "text": "A year ago I lived in Rome."},
            ],
        },
    }
    path = tmp_path / "edge.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    assert mem.ingest(path).episodes == 2


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_json_nested_200000_deep_names_the_file_and_position(
    mem: Memory, tmp_path: Path, suffix: str
) -> None:
    group = unique("deep")
    deep = "[" * 200_000 + "]" * 200_000
    path = tmp_path / f"deep{suffix}"
    if suffix == ".json":
        path.write_text(deep, encoding="utf-8")
    else:
        line = json.dumps(
            {"group": group, "speaker": "Ana", "timestamp": "2023-01-01T00:00:00Z", "text": "hi"}
        )
        path.write_text(line + "\n" + line[:-1] + ', "x": ' + deep + "}\n", encoding="utf-8")
    before = state_of(mem, [group])
    with pytest.raises(InputError) as refused:
        mem.ingest(path)
    message = str(refused.value)
    assert message.startswith(str(path)) and "nested more than 512 levels" in message
    assert (
        "line 1 column 513" if suffix == ".json" else "line 2: JSON nested more than 512 levels deep (column"
    ) in message
    assert state_of(mem, [group]) == before


def test_a_group_is_stripped_however_it_arrives(mem: Memory, tmp_path: Path) -> None:
    """A JSONL line's group " B " and --group " B " (and the API's) are one group, B: the loaders strip
    every name a file gives, so the option and the API strip too."""
    group = unique("strip")
    track(mem, group)
    line = {
        "group": f"  {group} ",
        "speaker": "Ana",
        "timestamp": "2023-01-01T00:00:00Z",
        "text": "I live in Oslo.",
    }
    assert load(jsonl(tmp_path / "a.jsonl", [line])).groups == [group]
    assert load(jsonl(tmp_path / "b.jsonl", [{**line, "group": "other"}]), group=f" {group}\t").groups == [
        group
    ]
    mem.ingest(tmp_path / "a.jsonl")
    mem.ingest(jsonl(tmp_path / "c.jsonl", [{**line, "text": "I work at Acme."}]), group=f" {group} ")
    assert mem.counts(f" {group} ")["episodes"] == mem.counts(group)["episodes"] == 2
    assert [f.object for f in mem.state("Ana", "lives_in", group=f" {group} ")] == ["Oslo"]


@pytest.mark.parametrize("bad", [None, ["g"], ("g",), 3, "", "   "])
def test_a_group_of_the_wrong_kind_is_a_config_error(mem: Memory, bad: Any) -> None:
    from tkg.errors import ConfigError
    from tkg.models import EpisodeInput

    calls = [
        lambda: mem.ask("Where?", group=bad),
        lambda: mem.state("Ana", group=bad),
        lambda: mem.history("Ana", group=bad),
        lambda: mem.counts(bad),
        lambda: mem.forget(bad),
        lambda: mem.ingest_episodes([EpisodeInput(bad, "Ana", "hi", datetime(2023, 1, 1))]),
    ]
    if bad is not None:
        calls.append(lambda: mem.ingest(Path("examples/priya_marco.json"), group=bad))
    for call in calls:
        with pytest.raises(ConfigError, match="group"):
            call()


def test_the_stores_own_errors_are_not_hidden_behind_rollback(mem: Memory) -> None:
    from tkg.errors import StoreError

    for query, params, word in [
        ("RETURN nosuchfunction(1) AS x", None, "nosuchfunction"),
        ("UNWIND $xs AS x RETURN x + 1 AS y", {"xs": [["a"], 1]}, ""),
        (
            "MATCH (e:Entity) RETURN e.nosuch AS x"
            if mem.ctx.store.dialect == "kuzu"
            else "MATCH (e:NoSuchLabelAtAll) RETURN e.x + [] + {} AS x",
            None,
            "",
        ),
    ]:
        try:
            mem.cypher(query, params)
        except StoreError as exc:
            assert "No active transaction" not in str(exc) and word in str(exc).lower(), str(exc)
        assert mem.cypher("RETURN 1 AS one") == [{"one": 1}]  # the connection is still usable


def test_forget_removes_the_groups_texts_from_the_embedding_cache(tmp_path: Path) -> None:
    from reliability.common import shared_embedder

    from tkg.embed_cache import CachedEmbedder, cache_key
    from tkg.models import EpisodeInput

    inner = getattr(shared_embedder(), "inner", shared_embedder())
    emb = CachedEmbedder(inner, tmp_path / "cache.sqlite")
    group, text = unique("forget-cache"), "I adopted a parrot called Zebedee-7f3a."
    with Memory.open(f"kuzu://{tmp_path}/db.kuzu", embedder=emb) as mem:
        mem.ingest_episodes([EpisodeInput(group, "Ana", text, datetime(2023, 1, 1), listeners=("Ben",))])
        key = cache_key(emb.name, f"Ana: {text}")
        assert emb.cache.get_many([key], emb.dim)  # the turn, as indexed, is cached
        kept = emb.cache.count()
        mem.forget(group)
        assert not emb.cache.get_many([key], emb.dim)  # the cache cannot say it was ever ingested
        assert emb.cache.count() < kept
        assert not emb.cache.get_many([cache_key(emb.name, "Zebedee-7f3a")], emb.dim)


def test_cli_errors_are_one_line_and_debug_shows_the_traceback(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    store = f"kuzu://{tmp_path}/cli.kuzu"
    result = runner.invoke(app, ["--store", store, "ingest", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{path}, line 1 column 513" in result.output and len(result.output.strip().splitlines()) <= 2
    debug = runner.invoke(app, ["--store", store, "--debug", "ingest", str(path)])
    assert isinstance(debug.exception, InputError)  # raised, so the traceback prints
    bad_url = runner.invoke(app, ["--store", "kuzu://u:pw@/x.kuzu", "groups"])
    assert bad_url.exit_code == 1 and "pw" not in bad_url.output and "three slashes" in bad_url.output
