"""Which Cypher a read-only call may run: an allow-list over a real tokenisation of the query.

``tkg cypher`` without ``--write`` and ``Memory.cypher(...)`` run a statement only if every clause
in it is one of ``READ_CLAUSES`` and every ``CALL`` names one of ``READ_PROCEDURES``; anything
else is refused with the clause named. The query is tokenised as Kuzu and Neo4j tokenise it
(``//`` and ``/* */`` comments, strings with escapes, backtick names, numbers, parameters), and
whatever the two databases could read differently is refused instead of guessed: a block comment
Kuzu ends elsewhere than at its first ``*/``, a number glued to a name (``1LOAD``), a non-ASCII
character outside a string or name, an escape outside the common set, a line break other than
``\\n`` inside a ``//`` comment. One statement per call: Kuzu 0.11.3 crashes the process on some
query strings holding several.

    >>> check_read_only("MATCH (n:Entity) WHERE n.group_id = $g RETURN n.name AS name LIMIT 3")
    >>> write_clause("MATCH (n) /* **/ RETURN n */ DETACH DELETE n")
    'ambiguous comment'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputError, ReadOnlyViolation

READ_CLAUSES = ("MATCH", "OPTIONAL MATCH", "WHERE", "WITH", "UNWIND", "RETURN", "ORDER BY", "SKIP", "LIMIT",
                "UNION", "CALL", "YIELD")
# the read-only procedures tkg names: schema listings, and the full-text and vector queries it runs
READ_PROCEDURES = frozenset(p.lower() for p in (
    "SHOW_TABLES", "TABLE_INFO", "SHOW_INDEXES", "SHOW_CONNECTION", "DB_VERSION",
    "QUERY_FTS_INDEX", "QUERY_VECTOR_INDEX",
    "db.labels", "db.relationshipTypes", "db.propertyKeys", "db.schema.visualization",
    "db.schema.nodeTypeProperties", "db.schema.relTypeProperties",
    "db.index.fulltext.queryNodes", "db.index.fulltext.queryRelationships",
    "db.index.vector.queryNodes", "db.index.vector.queryRelationships",
))
_CLAUSE_STARTS = frozenset(
    {
        "MATCH", "OPTIONAL", "WHERE", "WITH", "UNWIND", "RETURN", "ORDER", "SKIP", "LIMIT", "UNION", "CALL",
        "YIELD",
    }
)
# words that continue an expression or a clause (never start one)
_CONTINUE = frozenset(
    {
        "AS", "AND", "OR", "XOR", "NOT", "IN", "IS", "STARTS", "ENDS", "CONTAINS", "ASC", "DESC", "ASCENDING",
        "DESCENDING", "WHEN", "THEN", "ELSE", "END", "BY", "ALL", "DISTINCT", "NULL", "TRUE", "FALSE", "CASE",
    }
)
# words that end an operand although they are keywords
_OPERAND_WORDS = frozenset({"NULL", "TRUE", "FALSE", "END", "ASC", "DESC", "ASCENDING", "DESCENDING"})
# refused wherever they stand as a bare word (belt and braces beside the clause allow-list)
_WRITES = frozenset(
    {
        "CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "ALTER", "COPY", "EXPORT", "IMPORT",
        "ATTACH", "USE", "LOAD", "INSTALL", "UNINSTALL", "CHECKPOINT", "FOREACH", "BEGIN", "COMMIT",
        "ROLLBACK", "INSERT", "TERMINATE", "GRANT", "DENY", "REVOKE", "NEXTVAL",
    }
)
_SUBQUERY = frozenset({"EXISTS", "COUNT", "COLLECT"})
_NUMBER = re.compile(r"0x[0-9A-Fa-f]+|0o[0-7]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPES = frozenset("\\'\"bfnrtu")
_PUNCT = frozenset("()[]{},.:;=<>+-*/%^|!~?&")
_LINE_BREAKS = frozenset("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


@dataclass(frozen=True)
class Token:
    kind: str  # word | name | string | number | param | punct
    text: str
    pos: int


class _Refused(Exception):
    def __init__(self, what: str, pos: int) -> None:
        super().__init__(what)
        self.what = what
        self.pos = pos


def _kuzu_comment_end(q: str, i: int) -> int:
    """Where Kuzu ends a ``/*`` comment whose body starts at ``i``: its grammar reads ``*`` and the
    character after it as a pair unless that character is ``/``, so ``/* **/`` does not end."""
    n = len(q)
    while i < n:
        if q[i] != "*":
            i += 1
        elif i + 1 < n and q[i + 1] == "/":
            return i
        else:
            i += 2
    return -1


def tokens(q: str) -> list[Token]:
    """The query's tokens, comments dropped; raises _Refused on anything ambiguous."""
    out: list[Token] = []
    i, n = 0, len(q)
    while i < n:
        ch = q[i]
        if ch in " \t\n":
            i += 1
        elif ch == "\r" and q.startswith("\r\n", i):
            i += 2
        elif q.startswith("//", i):
            end = q.find("\n", i)
            end = n if end < 0 else end
            body = q[i + 2 : end].removesuffix("\r")
            if any(c in _LINE_BREAKS for c in body):
                raise _Refused("ambiguous comment", i)
            i = end
        elif q.startswith("/*", i):
            end = q.find("*/", i + 2)
            if end < 0 or _kuzu_comment_end(q, i + 2) != end:
                raise _Refused("ambiguous comment" if end >= 0 else "unterminated comment", i)
            i = end + 2
        elif ch in "'\"":
            j = i + 1
            while j < n and q[j] != ch:
                if q[j] == "\\":
                    if j + 1 >= n or q[j + 1] not in _ESCAPES:
                        raise _Refused("unsupported escape in a string", j)
                    j += 1
                j += 1
            if j >= n:
                raise _Refused("unterminated string", i)
            out.append(Token("string", q[i : j + 1], i))
            i = j + 1
        elif ch == "`":
            m = re.compile(r"(?:`[^`]*`)+").match(q, i)
            if m is None:
                raise _Refused("unterminated backtick name", i)
            out.append(Token("name", m.group(0), i))
            i = m.end()
        elif ch == "$":
            m = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|\d+|(?:`[^`]*`)+)").match(q, i)
            if m is None:
                raise _Refused("a $ without a parameter name", i)
            out.append(Token("param", m.group(0), i))
            i = _glued(q, m.end())
        elif ch.isascii() and ch.isdigit():
            m = _NUMBER.match(q, i)
            assert m is not None
            out.append(Token("number", m.group(0), i))
            i = _glued(q, m.end())
        elif ch.isascii() and (ch.isalpha() or ch == "_"):
            m = _WORD.match(q, i)
            assert m is not None
            out.append(Token("word", m.group(0), i))
            i = _glued(q, m.end())
        elif ch in _PUNCT:
            out.append(Token("punct", ch, i))
            i += 1
        else:
            raise _Refused(f"character U+{ord(ch):04X} outside a string (quote names with backticks)", i)
    return out


def _glued(q: str, end: int) -> int:
    """``end``, after checking that no name or number runs straight on (``1LOAD``, ``a$b``)."""
    if end < len(q) and (q[end].isalnum() or q[end] in "_$`'\"" or not q[end].isascii()):
        raise _Refused("a number or name glued to what follows", end)
    return end


def _statements(toks: list[Token]) -> None:
    for k, t in enumerate(toks):
        if t.text == ";" and t.kind == "punct" and k != len(toks) - 1:
            raise _Refused("several statements (send one per call)", t.pos)


def _operand_end(toks: list[Token], k: int) -> bool:
    """Whether token ``k`` can end an operand, so that a word after it starts a new clause."""
    t = toks[k]
    if t.kind in ("name", "string", "number", "param"):
        return True
    if t.kind == "word":
        up = t.text.upper()
        return (
            up in _OPERAND_WORDS or (up not in _CONTINUE and up not in _CLAUSE_STARTS) or _property(toks, k)
        )
    if t.text in ")]}":
        return True
    return (
        t.text == "*"
        and k > 0
        and toks[k - 1].kind == "word"
        and toks[k - 1].text.upper() in ("RETURN", "WITH", "DISTINCT")
    )


def _property(toks: list[Token], k: int) -> bool:
    """Whether word ``k`` is a property key (``n.name``): after a ``.`` that follows an operand."""
    if k < 2 or toks[k - 1].text != "." or toks[k - 1].kind != "punct":
        return False
    before = toks[k - 2]
    return before.kind in ("word", "name", "param") or before.text in ")]}"


def _call(toks: list[Token], k: int) -> None:
    """A CALL must name a read procedure and open its arguments."""
    parts: list[str] = []
    j = k + 1
    while j < len(toks) and toks[j].kind == "word":
        parts.append(toks[j].text)
        if j + 1 < len(toks) and toks[j + 1].text == ".":
            j += 2
            continue
        j += 1
        break
    name = ".".join(parts)
    if not name:
        if j < len(toks) and toks[j].text == "{":
            return  # a subquery: its clauses are checked like the rest
        raise _Refused(
            "CALL of a subquery with variables" if j < len(toks) and toks[j].text == "(" else "CALL",
            toks[k].pos,
        )
    if j >= len(toks) or toks[j].text != "(" or name.lower() not in READ_PROCEDURES:
        what = f"CALL {name} (a setting)" if j < len(toks) and toks[j].text == "=" else f"CALL {name}"
        raise _Refused(what, toks[k].pos)


def _clauses(toks: list[Token]) -> None:
    expect_clause = True  # at the start, and wherever a new clause must begin
    for k, t in enumerate(toks):
        if t.kind != "word":
            expect_clause = t.text == "{" and k > 0 and toks[k - 1].text.upper() in _SUBQUERY | {"CALL"}
            continue
        up = t.text.upper()
        prop = _property(toks, k)
        if up in _WRITES and not prop:
            raise _Refused(up, t.pos)
        starts = expect_clause or (k > 0 and _operand_end(toks, k - 1) and up not in _CONTINUE and not prop)
        union_all = up == "ALL" and k > 0 and toks[k - 1].text.upper() == "UNION"
        if starts and up not in _CLAUSE_STARTS and not union_all:
            raise _Refused(up, t.pos)
        if up == "OPTIONAL" and starts and (k + 1 >= len(toks) or toks[k + 1].text.upper() != "MATCH"):
            raise _Refused("OPTIONAL without MATCH", t.pos)
        if up == "CALL" and not prop:
            _call(toks, k)
        expect_clause = up == "UNION" or union_all


def _where(query: str, pos: int) -> str:
    line = query.count("\n", 0, pos) + 1
    col = pos - (query.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"


def write_clause(query: str) -> str | None:
    """What a read-only call would refuse in ``query`` (a clause, or why it is ambiguous), or None."""
    try:
        toks = tokens(query)
        _statements(toks)
        _clauses(toks)
    except _Refused as exc:
        return exc.what
    return None


def check_read_only(query: str) -> None:
    """Raise ReadOnlyViolation naming the clause (and where) unless ``query`` is one allowed read."""
    try:
        toks = tokens(query)
        _statements(toks)
        _clauses(toks)
    except _Refused as exc:
        allowed = ", ".join(READ_CLAUSES[:-2])
        raise ReadOnlyViolation(
            f"read-only: {exc.what} is not allowed (at {_where(query, exc.pos)}); a read may use {allowed} "
            "and "
            "CALL of the schema, full-text and vector procedures; run it with --write (or write=True) if you "
            "mean to change the graph"
        ) from None


def check_one_statement(query: str) -> None:
    """Raise InputError unless ``query`` holds exactly one statement (for writes, which skip the
    allow-list)."""
    try:
        toks = tokens(query)
        _statements(toks)
    except _Refused as exc:
        raise InputError(exc.what, source="query", position=_where(query, exc.pos)) from None
    if all(t.text == ";" for t in toks):
        raise InputError("the query is empty", source="query")
