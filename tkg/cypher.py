"""Named Cypher, loaded from the `cypher/` tree shipped inside the package.

Each query is written once in ``cypher/ops/common/NAME.cypher``; where a dialect truly differs
(vector and full-text calls, Kuzu's typed tables) ``cypher/ops/<dialect>/NAME.cypher`` overrides
it. Wheels carry the tree as ``tkg/_cypher``; editable installs read the repo copy.

Example::

    >>> text = load_query("episode.existing", "kuzu")
    >>> "$group_id" in text
    True
    >>> load_query("chunk.create_many", "kuzu") != load_query("chunk.create_many", "neo4j")  # a dialect file
    True
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from .errors import NotFound

_NAME = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)*$")


@cache
def cypher_root() -> Traversable:
    """The directory holding ``schema/``, ``ops/`` and ``queries/``."""
    packaged = resources.files("tkg").joinpath("_cypher")
    if packaged.is_dir():
        return packaged
    repo = Path(__file__).resolve().parent.parent / "cypher"
    if repo.is_dir():
        return repo
    raise NotFound("the cypher/ query tree is missing from this installation; reinstall tkg")


def _read(*parts: str) -> str | None:
    node = cypher_root()
    for part in parts:
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8") if node.is_file() else None


@cache
def load_query(name: str, dialect: str) -> str:
    """Text of the named operation for a dialect (``kuzu`` or ``neo4j``)."""
    if not _NAME.match(name):
        raise NotFound(f"invalid query name {name!r}")
    text = _read("ops", dialect, f"{name}.cypher") or _read("ops", "common", f"{name}.cypher")
    if text is None:
        raise NotFound(f"no query named {name!r} for {dialect} in cypher/ops")
    return text


@cache
def load_check(name: str) -> str:
    """Text of an invariant-check query in ``cypher/checks`` (the same for both dialects).

    The checks read a group back independently of the ops that wrote it (tkg/bench/invariants.py).
    """
    text = _read("checks", f"{name}.cypher") if _NAME.match(name) else None
    if text is None:
        raise NotFound(f"no check query named {name!r} in cypher/checks")
    return text


def load_schema(dialect: str, dim: int) -> list[str]:
    """Schema statements for a dialect with the vector dimension filled in."""
    if not isinstance(dim, int) or not 1 <= dim <= 8192:
        raise ValueError(f"embedding dimension must be an integer in 1..8192, got {dim!r}")
    text = _read("schema", f"{dialect}.cypher")
    if text is None:
        raise NotFound(f"no schema for dialect {dialect!r}")
    return split_statements(text.replace("{dim}", str(dim)))


def split_statements(text: str) -> list[str]:
    """Split a .cypher file on ``;`` at line ends, dropping ``//`` comment lines."""
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("//")]
    out = []
    for stmt in re.split(r";\s*(?:\n|$)", "\n".join(lines)):
        stmt = stmt.strip()
        if stmt:
            out.append(stmt)
    return out


def list_exploration_queries() -> dict[str, str]:
    """The analyst queries in ``cypher/queries`` by file stem, with their first comment line."""
    out: dict[str, str] = {}
    folder = cypher_root().joinpath("queries")
    if not folder.is_dir():
        return out
    for item in sorted(folder.iterdir(), key=lambda t: t.name):
        if item.name.endswith(".cypher"):
            first = item.read_text(encoding="utf-8").splitlines()[:1]
            out[item.name[: -len(".cypher")]] = first[0].lstrip("/ ").strip() if first else ""
    return out


def exploration_query_path(name: str) -> Traversable:
    node = cypher_root().joinpath("queries").joinpath(f"{name}.cypher")
    if not node.is_file():
        raise NotFound(f"no exploration query named {name!r}; see `tkg cypher --list`")
    return node
