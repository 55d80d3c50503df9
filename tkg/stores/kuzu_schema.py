"""What tkg's Kuzu schema file makes, read from its statements: the tables and the indexes.

`KuzuStore` drops and remakes indexes (a bulk load writes without them) and, on an empty store,
whole tables (Kuzu 0.11.3 drops no vector index from a table that keeps its rows); it finds what to
drop and what to make again here, so the schema file stays the one place they are written. Kuzu's
vector index is *deferred*: made when a search first needs it, not with the schema
(tkg/stores/kuzu_store.py says why).

Example::

    >>> [(ix.kind, ix.table, ix.name, ix.deferred) for ix in schema_indexes(
    ...     ["CALL CREATE_FTS_INDEX('Chunk', 'chunk_text', ['search_text'])",
    ...      "CALL CREATE_VECTOR_INDEX('Chunk', 'chunk_embedding', 'embedding')"])]
    [('FTS', 'Chunk', 'chunk_text', False), ('VECTOR', 'Chunk', 'chunk_embedding', True)]
    >>> schema_indexes(["CALL CREATE_FTS_INDEX('Chunk', 'chunk_text', ['t'])"])[0].drop
    "CALL DROP_FTS_INDEX('Chunk', 'chunk_text')"
"""

from __future__ import annotations

import re
from typing import NamedTuple

# kind, table and index name of a schema statement that creates an index (names are \w+ only)
INDEX_CALL = re.compile(r"CALL\s+CREATE_(FTS|VECTOR)_INDEX\(\s*'(\w+)'\s*,\s*'(\w+)'", re.I)
# a statement that searches a vector index (built first when it is not there yet)
VECTOR_QUERY = re.compile(r"QUERY_VECTOR_INDEX", re.I)
# kind, name and (for a rel table) the FROM and TO tables of a schema statement that creates a table
TABLE = re.compile(
    r"CREATE\s+(NODE|REL)\s+TABLE\s+IF\s+NOT\s+EXISTS\s+(\w+)\s*\(\s*(?:FROM\s+(\w+)\s+TO\s+(\w+))?", re.I
)


class Index(NamedTuple):
    """One index of the schema file."""

    kind: str  # FTS | VECTOR
    table: str
    name: str
    create: str  # the schema statement

    @property
    def key(self) -> tuple[str, str]:
        return (self.table, self.name)

    @property
    def deferred(self) -> bool:
        """Made when a search first needs it, not with the schema."""
        return self.kind.upper() == "VECTOR"

    @property
    def drop(self) -> str:
        """The statement that drops it (names are \\w+ words of tkg's own schema file, never input)."""
        return f"CALL DROP_{self.kind.upper()}_INDEX('{self.table}', '{self.name}')"


def schema_indexes(schema: list[str]) -> list[Index]:
    """The indexes a schema makes, in its order."""
    found = ((INDEX_CALL.search(stmt), stmt) for stmt in schema)
    return [Index(m.group(1), m.group(2), m.group(3), stmt) for m, stmt in found if m]
