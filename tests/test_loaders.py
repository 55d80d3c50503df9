"""Loaders: LoCoMo-shaped JSON and JSONL into EpisodeInputs, every malformed input an InputError."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tkg.errors import InputError
from tkg.ingest.load_checks import LoadReport
from tkg.ingest.loaders import detect_format, load, load_jsonl
from tkg.ingest.locomo_loader import load_locomo

DATA = Path(__file__).parent / "data" / "loaders"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _write(tmp_path: Path, name: str, content: Any) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def _sample(**conversation: Any) -> dict[str, Any]:
    conv: dict[str, Any] = {
        "speaker_a": "Ada",
        "speaker_b": "Bo",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [{"speaker": "Ada", "dia_id": "D1:1", "text": "hello"}],
    }
    conv.update(conversation)
    return {"sample_id": "s", "conversation": conv}


# --- LoCoMo ------------------------------------------------------------------------------------


def test_locomo_two_samples_order_times_and_fields() -> None:
    report = load_locomo(DATA / "two_samples.json")
    assert report.groups == ["hana-oskar", "ines-tobi"]
    refs = [e.source_ref for e in report.episodes]
    # session_10 comes after session_2 (numeric order), the blank turn D1:4 is left out
    assert refs == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2", "D10:1", "D10:2", "D1:1", "D1:2"]
    first, second, third = report.episodes[:3]
    session_1 = datetime(2024, 2, 3, 9, 5, tzinfo=UTC)
    assert [first.timestamp, second.timestamp, third.timestamp] == [
        session_1 + timedelta(seconds=j) for j in range(3)
    ]
    assert first.timestamp.tzinfo is UTC
    assert second.text == "Born ready. I finally fixed my bike, so I'll cycle over."
    assert (
        third.text
        == "Look what the ferry crew gave me for my birthday. [image: a photo of a blue mug with a ship on "
           "it]"
    )
    assert first.listeners == ("Oskar",) and second.listeners == ("Hana",)
    assert first.session == "session_1" and first.source_description == "locomo hana-oskar session_1"
    assert report.episodes[5].position == "sample 0 session_10 turn 0"
    assert report.episodes[5].timestamp == datetime(2024, 6, 1, 23, 45, tzinfo=UTC)
    # a photo with no words still says something
    assert report.episodes[6].text == "[image: a photo of a wonky clay bowl]"
    assert report.episodes[-1].text == 'Café Ümlaut at one? They have the {curly} "quoted" `menu` I like.'
    assert report.episodes[-1].timestamp == datetime(2024, 2, 29, 12, 10, 1, tzinfo=UTC)
    assert report.skipped == ["sample 0 session_1 turn 3: empty text", "sample 0 session_11: no turns"]


def test_locomo_turns_strictly_ordered_within_each_group() -> None:
    report = load_locomo(DATA / "two_samples.json")
    for group in report.groups:
        stamps = [e.timestamp for e in report.episodes if e.group == group]
        assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)


def test_locomo_single_sample_object_and_group_override() -> None:
    assert load_locomo(DATA / "one_sample.json").groups == ["solo"]
    report = load_locomo(DATA / "one_sample.json", group="mine")
    assert report.groups == ["mine"]
    assert report.episodes[0].source_description == "locomo solo session_1"


def test_locomo_group_override_merging_samples_collides_on_dia_id() -> None:
    with pytest.raises(InputError, match="duplicate source_ref 'D1:1' in group 'one'") as info:
        load_locomo(DATA / "two_samples.json", group="one")
    assert info.value.position == "sample 1 session_1 turn 0"


# --- JSONL -------------------------------------------------------------------------------------


def test_jsonl_fields_times_and_blank_lines() -> None:
    report = load_jsonl(DATA / "chat.jsonl")
    assert [e.position for e in report.episodes] == ["line 1", "line 3", "line 4", "line 7"]
    lena, sam, ada, noref = report.episodes
    assert lena.timestamp == datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    assert sam.timestamp == datetime(2024, 3, 1, 9, 30, tzinfo=UTC)  # +01:00 converted
    assert ada.timestamp == datetime(2024, 3, 2, 8, 15, 30, 250000, tzinfo=UTC)  # naive = UTC
    assert noref.timestamp == datetime(2024, 3, 4, tzinfo=UTC)
    assert all(e.timestamp.tzinfo is UTC for e in report.episodes)
    assert lena.listeners == ("Sam",) and ada.listeners == ()
    assert lena.source_description == "slack export" and sam.source_description == ""
    assert noref.source_ref is None and noref.session == "week 9"
    assert report.groups == ["team-a", "team-b"]  # m1 twice is fine across groups
    assert report.skipped == ["line 6: empty text"]


def test_jsonl_group_argument_overrides_and_fills(tmp_path: Path) -> None:
    path = _write(
        tmp_path, "nogroup.jsonl", '{"speaker": "A", "text": "hi", "timestamp": "2024-01-01T00:00:00Z"}\n'
    )
    assert load_jsonl(path, group="filled").groups == ["filled"]
    with pytest.raises(InputError, match="missing field 'group'"):
        load_jsonl(path)
    # overriding chat.jsonl's two groups into one makes m1 collide
    with pytest.raises(InputError, match="duplicate source_ref 'm1'"):
        load_jsonl(DATA / "chat.jsonl", group="all")


# --- dispatch ----------------------------------------------------------------------------------


def test_load_picks_format_by_flag_or_suffix(tmp_path: Path) -> None:
    assert detect_format("x.JSONL") == "jsonl" and detect_format("x.json") == "locomo"
    assert load(DATA / "chat.jsonl").episodes == load_jsonl(DATA / "chat.jsonl").episodes
    assert load(DATA / "one_sample.json").groups == ["solo"]
    renamed = _write(tmp_path, "chat.txt", (DATA / "chat.jsonl").read_text(encoding="utf-8"))
    with pytest.raises(InputError, match="cannot tell the format"):
        load(renamed)
    assert len(load(renamed, format="jsonl").episodes) == 4
    with pytest.raises(InputError, match="unknown format 'csv'"):
        load(renamed, format="csv")


# --- errors ------------------------------------------------------------------------------------


def _lines(name: str) -> int:
    return (DATA / name).read_bytes().count(b"\n") + 1


@pytest.mark.parametrize(
    ("name", "reason", "position"),
    [
        ("truncated.json", "invalid JSON", f"line {_lines('truncated.json')} column"),
        ("empty.json", "empty file", None),
        ("blank.jsonl", "empty file", None),
        ("latin1.jsonl", "not UTF-8", f"byte {(DATA / 'latin1.jsonl').read_bytes().index(0xE9)}"),
        ("garbage.json", "not UTF-8", "byte 0"),
        (
            "bad_date.json",
            "session_2_date_time: unrecognised date 'sometime in spring'",
            "sample 0 session_2",
        ),
        ("wrong_type.json", "text must be a string, not list", "sample 0 session_1 turn 1"),
        ("missing_field.jsonl", "missing field 'text'", "line 2"),
        ("duplicate_ref.jsonl", "duplicate source_ref 'r1' in group 'g' (first at line 1)", "line 3"),
        ("bad_timestamp.jsonl", "invalid timestamp '2024-02-30T10:00:00Z'", "line 3"),
    ],
)
def test_fixture_errors_name_file_and_position(name: str, reason: str, position: str | None) -> None:
    with pytest.raises(InputError) as info:
        load(DATA / name)
    err = info.value
    assert reason in err.reason
    assert err.source == str(DATA / name)
    if position is None:
        assert err.position is None
    else:
        assert err.position is not None and err.position.startswith(position)
    assert str(DATA / name) in str(err)


@pytest.mark.parametrize(
    ("content", "reason", "position"),
    [
        (42, "expected a list of samples", None),
        ([], "no samples", None),
        (["nope"], "a sample must be an object", "sample 0"),
        ([{"conversation": {}}], "missing field 'sample_id'", "sample 0"),
        ([{"sample_id": 7, "conversation": {}}], "sample_id must be a string, not int", "sample 0"),
        ([{"sample_id": "s", "conversation": []}], "'conversation' must be an object", "sample 0"),
        ([{"sample_id": "s"}], "missing field 'conversation'", "sample 0"),
        ([_sample(speaker_b=None)], "speaker_b must be a string", "sample 0"),
        (
            [{"sample_id": "s", "conversation": {"speaker_a": "A", "speaker_b": "B"}}],
            "no session_N",
            "sample 0",
        ),
        ([_sample(session_1="hi")], "session_1 must be a list", "sample 0 session_1"),
        ([_sample(session_1_date_time="31 June, 2023")], "impossible date", "sample 0 session_1"),
        (
            [_sample(session_2=[{"speaker": "Bo", "dia_id": "D2:1", "text": "x"}])],
            "missing field 'session_2_date_time'",
            "sample 0 session_2",
        ),
        ([_sample(session_1=[["Ada", "hi"]])], "a turn must be an object", "sample 0 session_1 turn 0"),
        (
            [_sample(session_1=[{"speaker": "Ada", "text": "hi"}])],
            "missing field 'dia_id'",
            "sample 0 session_1 turn 0",
        ),
        (
            [_sample(session_1=[{"speaker": "Cy", "dia_id": "D1:1", "text": "hi"}])],
            "neither speaker_a",
            "sample 0 session_1 turn 0",
        ),
        (
            [_sample(session_1=[{"speaker": "Ada", "dia_id": "D1:1", "text": "a\u0000b"}])],
            "NUL character",
            "sample 0 session_1 turn 0",
        ),
        (
            [_sample(session_1=[{"speaker": "Ada", "dia_id": "D1:1", "text": "x", "blip_caption": 3}])],
            "blip_caption must be a string",
            "sample 0 session_1 turn 0",
        ),
    ],
)
def test_locomo_shape_errors(tmp_path: Path, content: Any, reason: str, position: str | None) -> None:
    with pytest.raises(InputError) as info:
        load_locomo(_write(tmp_path, "bad.json", content))
    assert reason in info.value.reason
    assert info.value.position == position


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("[1, 2]", "each line must be a JSON object, not list"),
        (
            '{"group": "g", "speaker": "A", "text": "x", "timestamp": "2024-01-01", "listeners": "B"}',
            "listeners must be a list",
        ),
        (
            '{"group": "g", "speaker": "A", "text": "x", "timestamp": "2024-01-01", "listeners": [1]}',
            "listener must be a string",
        ),
        (
            '{"group": "g", "speaker": "A", "text": "x", "timestamp": 1704067200}',
            "timestamp must be a string, not int",
        ),
        ('{"group": "", "speaker": "A", "text": "x", "timestamp": "2024-01-01"}', "group is empty"),
        ('{"group": "g", "speaker": "A", "text": "\\ud800", "timestamp": "2024-01-01"}', "lone surrogate"),
        (
            '{"group": "g", "speaker": "A", "text": "x", "timestamp": "2024-01-01", "source_ref": 5}',
            "source_ref must be a string",
        ),
        (
            '{"group": "g", "speaker": "A", "text": "x", "timestamp": "yesterday"}',
            "invalid timestamp 'yesterday'",
        ),
        ('{"group": "g", "speaker": "A", "text": "x", "timestamp": "2024-01-01"', "invalid JSON"),
    ],
)
def test_jsonl_record_errors(tmp_path: Path, line: str, reason: str) -> None:
    good = '{"group": "g", "speaker": "A", "text": "fine", "timestamp": "2024-01-01T00:00:00Z"}'
    with pytest.raises(InputError) as info:
        load_jsonl(_write(tmp_path, "bad.jsonl", f"{good}\n\n{line}\n"))
    assert reason in info.value.reason
    assert info.value.position == "line 3"


def test_missing_file_directory_and_empty_group(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load(tmp_path / "absent.json")
    folder = tmp_path / "dir.json"
    folder.mkdir()
    with pytest.raises(InputError, match="is a directory"):
        load(folder)
    with pytest.raises(InputError, match="non-empty name"):
        load(DATA / "chat.jsonl", group=" ")


def test_huge_text_is_accepted(tmp_path: Path) -> None:
    big = "word " * 190_000  # ~1 MB, just under MAX_TEXT_CHARS: chunking happens at ingest, not here
    path = _write(
        tmp_path,
        "big.jsonl",
        json.dumps({"group": "g", "speaker": "A", "text": big, "timestamp": "2024-01-01"}) + "\n",
    )
    (episode,) = load(path).episodes
    assert len(episode.text) == len(big.strip())
    report = load(
        _write(tmp_path, "big.json", [_sample(session_1=[{"speaker": "Bo", "dia_id": "D1:1", "text": big}])])
    )
    assert len(report.episodes[0].text) == len(big.strip())


def test_utf8_bom_is_tolerated(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf" + (DATA / "one_sample.json").read_bytes()
    assert load(_write(tmp_path, "bom.json", data)).groups == ["solo"]


# --- fuzz: whatever the bytes, the answer is a report or an InputError --------------------------


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _load_or_input_error(path: Path) -> LoadReport | InputError:
    try:
        return load(path)
    except InputError as exc:
        assert exc.source == str(path)
        return exc


@settings(max_examples=60, deadline=None, database=None)
@given(cut=st.integers(min_value=0, max_value=len((DATA / "two_samples.json").read_bytes().rstrip()) - 1))
def test_truncated_locomo_is_always_an_input_error(scratch: Path, cut: int) -> None:
    data = (DATA / "two_samples.json").read_bytes()[:cut]
    result = _load_or_input_error(_write(scratch, "cut.json", data))
    assert isinstance(result, InputError)  # no prefix of a JSON list is valid JSON


@settings(max_examples=40, deadline=None, database=None)
@given(cut=st.integers(min_value=0, max_value=(DATA / "chat.jsonl").stat().st_size))
def test_truncated_jsonl_keeps_only_whole_lines(scratch: Path, cut: int) -> None:
    data = (DATA / "chat.jsonl").read_bytes()[:cut]
    result = _load_or_input_error(_write(scratch, "cut.jsonl", data))
    if isinstance(result, LoadReport):
        complete = data.decode("utf-8").splitlines()
        assert {e.position for e in result.episodes} <= {f"line {n}" for n in range(1, len(complete) + 1)}


@settings(max_examples=60, deadline=None, database=None)
@given(blob=st.binary(max_size=300), suffix=st.sampled_from([".json", ".jsonl"]))
def test_garbage_bytes_never_escape_as_other_errors(scratch: Path, blob: bytes, suffix: str) -> None:
    result = _load_or_input_error(_write(scratch, f"garbage{suffix}", blob))
    if isinstance(result, InputError):
        assert result.reason


# --- the shipped examples ----------------------------------------------------------------------


def test_examples_load_and_stay_consistent_with_their_readme() -> None:
    story = load(EXAMPLES / "priya_marco.json")
    chat = load(EXAMPLES / "priya_marco.jsonl")
    assert story.groups == ["priya-marco"] and chat.groups == ["priya-marco-chat"]
    assert len(story.episodes) >= 55 and len(chat.episodes) == 10
    assert not story.skipped and not chat.skipped
    stamps = [e.timestamp for e in story.episodes]
    assert stamps == sorted(stamps)
    assert (stamps[-1] - stamps[0]).days > 365
    assert {e.speaker for e in story.episodes} == {"Priya", "Marco"}
    assert len({e.session for e in story.episodes}) == 6
    # every source turn the README's fact tables cite exists in the files
    refs = {e.source_ref for e in story.episodes + chat.episodes}
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"\b(D\d+:\d+|c\d+)\b", readme))
    assert len(cited) > 20
    assert cited <= refs, cited - refs
