"""Store URLs: which backend, where, with which credentials, and never a password in print."""

from __future__ import annotations

from pathlib import Path

import pytest

from tkg.errors import ConfigError
from tkg.stores import open_store, parse_store_url

SECRET = "hunter2-Sekr3t"


@pytest.fixture(autouse=True)
def _no_ambient_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TKG_NEO4J_USER", "TKG_NEO4J_PASSWORD", "TKG_STORE"):
        monkeypatch.delenv(name, raising=False)


def test_kuzu_url_with_absolute_path(tmp_path: Path) -> None:
    spec = parse_store_url(f"kuzu://{tmp_path}/db.kuzu")
    assert (spec.backend, spec.target) == ("kuzu", str(tmp_path / "db.kuzu"))
    assert spec.user is None and spec.password is None and spec.database is None
    assert spec.redacted == f"kuzu://{tmp_path}/db.kuzu"


def test_bare_paths_are_kuzu_and_resolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert parse_store_url("data/mem.kuzu").target == str(tmp_path / "data" / "mem.kuzu")
    assert parse_store_url(str(tmp_path / "x.kuzu")).backend == "kuzu"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert parse_store_url("~/tkg.kuzu").target == str(tmp_path / "tkg.kuzu")


def test_default_comes_from_tkg_store_or_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    default = parse_store_url(None)
    assert (
        default.backend == "kuzu"
        and default.target.endswith("tkg.kuzu")
        and Path(default.target).is_absolute()
    )
    monkeypatch.setenv("TKG_STORE", "bolt://db.internal:7688")
    assert parse_store_url(None).target == "bolt://db.internal:7688"
    assert parse_store_url(str(tmp_path / "explicit.kuzu")).backend == "kuzu"  # an explicit URL wins


def test_bolt_with_credentials_and_database() -> None:
    spec = parse_store_url(f"bolt://neo4j:{SECRET}@127.0.0.1:7687?database=tkg")
    assert (spec.backend, spec.target, spec.user, spec.password, spec.database) == (
        "neo4j", "bolt://127.0.0.1:7687", "neo4j", SECRET, "tkg")
    assert spec.redacted == "bolt://neo4j:***@127.0.0.1:7687?database=tkg"


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("bolt://localhost", "bolt://localhost:7687"),
        ("neo4j://graph.example.org:7688", "neo4j://graph.example.org:7688"),
        ("neo4j+s://abc123.databases.neo4j.io", "neo4j+s://abc123.databases.neo4j.io:7687"),
        ("bolt+ssc://10.0.0.5:9999", "bolt+ssc://10.0.0.5:9999"),
        ("BOLT://[::1]:7687", "bolt://[::1]:7687"),
    ],
)
def test_bolt_schemes_hosts_and_ports(url: str, target: str) -> None:
    spec = parse_store_url(url)
    assert (spec.backend, spec.target, spec.user, spec.password) == ("neo4j", target, None, None)
    assert spec.redacted == target


def test_escaped_credentials_are_decoded() -> None:
    spec = parse_store_url("bolt://ana%40ops:p%40ss%3Aw0rd@db:7687")
    assert (spec.user, spec.password) == ("ana@ops", "p@ss:w0rd")
    assert "p@ss" not in spec.redacted and "w0rd" not in spec.redacted


def test_credentials_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TKG_NEO4J_USER", "reader")
    monkeypatch.setenv("TKG_NEO4J_PASSWORD", SECRET)
    spec = parse_store_url("bolt://db:7687")
    assert (spec.user, spec.password) == ("reader", SECRET)
    assert spec.redacted == "bolt://reader:***@db:7687"
    explicit = parse_store_url("bolt://admin:other-pass@db:7687")  # the URL wins over the environment
    assert (explicit.user, explicit.password) == ("admin", "other-pass")


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://db:7474", "unknown store scheme 'http'"),
        ("postgres://u:p@db/x", "unknown store scheme 'postgres'"),
        ("bolt://db:7687?database=tkg&tls=1", "unknown store URL option(s): tls"),
        ("bolt://db:notaport", "bad port"),
        ("bolt://db:99999", "bad port"),
        ("bolt://:7687", "has no host"),
        ("kuzu://", "has no path"),
        ("   ", "empty store URL"),
    ],
)
def test_bad_urls_raise_config_error(url: str, reason: str) -> None:
    with pytest.raises(ConfigError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        parse_store_url(url)


@pytest.mark.parametrize(
    "url",
    [
        f"bolt://neo4j:{SECRET}@db:notaport",
        f"bolt://neo4j:{SECRET}@:7687",
        f"bolt://neo4j:{SECRET}@db:7687?x=1",
        f"http://neo4j:{SECRET}@db:7474",
    ],
)
def test_errors_never_show_the_password(url: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_store_url(url)
    assert SECRET not in str(info.value)


def test_parsed_url_never_shows_the_password() -> None:
    spec = parse_store_url(f"neo4j+s://neo4j:{SECRET}@db.example:7687?database=mem")
    assert SECRET not in spec.redacted
    assert SECRET not in repr(spec) and SECRET not in str(spec)  # logged or shown in a traceback


def test_open_store_reports_the_redacted_url() -> None:
    store = open_store(f"bolt://neo4j:{SECRET}@127.0.0.1:1?database=tkg")  # lazy: nothing is contacted
    try:
        assert store.url == "bolt://neo4j:***@127.0.0.1:1?database=tkg"
    finally:
        store.close()


@pytest.mark.parametrize("url", ["bolt://neo4j:se#cret@127.0.0.1:bad", "bolt://neo4j:se?cret@127.0.0.1:bad",
                                 "neo4j://neo4j:se/cret@127.0.0.1:bad", "bolt://neo4j:secret@127.0.0.1:bad"])
def test_a_password_is_never_printed_however_it_is_written(url: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_store_url(url)
    assert "cret" not in str(refused.value) and "127.0.0.1" in str(refused.value)


@pytest.mark.parametrize("url", ["kuzu://u:pw@/tmp/x.kuzu", "kuzu://tmp/x.kuzu", "kuzu://~/x.kuzu", "kuzu:///tmp/a#b.kuzu",
                                 "kuzu:///tmp/a.kuzu?mode=ro"])
def test_ambiguous_kuzu_urls_are_refused_and_make_nothing(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as refused:
        open_store(url)
    assert "pw" not in str(refused.value)
    assert list(tmp_path.iterdir()) == []  # no folder named 'u:pw@' or 'tmp'
