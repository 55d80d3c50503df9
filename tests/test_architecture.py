"""The shape of the code: data flows one way between the files of tkg/, planners/ and procedures/.

Read from the source with `ast` (nothing is imported), so a circle fails here before it bites
at import time:

* no import circle between files (module-level imports, those under ``if TYPE_CHECKING:``
  included: a type-only circle still ties two files together);
* `planners/` is pure: it imports nothing from `procedures/` or a store (`tkg.stores`,
  `tkg.context`), not even for a type, nothing it loads does, and it imports no network,
  process or database module (it reads only its own package data, `importlib.resources`);
* no function-local import of a first-party module, except the few listed in `LAZY` with the
  reason each one is lazy (a heavy optional dependency, or a command line that must start fast).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tkg", "planners", "procedures")

# importer (a module, or a package prefix ending in ".") → imported module: why it is imported lazily
LAZY: dict[tuple[str, str], str] = {
    ("tkg", "tkg.memory"): "`import tkg` stays light: Memory pulls in the store drivers and the procedures",
    ("tkg.stores.factory", "tkg.stores.kuzu_store"): "the Kuzu driver is loaded only for a kuzu:// store",
    ("tkg.stores.factory", "tkg.stores.neo4j_store"): "the Neo4j driver is loaded only for a bolt:// store",
    ("tkg.cli.", "*"): "each command imports what it runs, so `tkg --help` and `tkg ask` start fast",
    ("tkg.memory", "tkg.ingest.pipeline"): "a memory that only answers never loads the ingest pipeline",
    ("tkg.memory", "tkg.ingest.model_extract"): "made with the ingest pipeline, at the first ingest",
}
IMPURE_FOR_PLANNERS = ("procedures", "tkg.stores", "tkg.context")
IO_MODULES = frozenset(
    {
        "socket", "subprocess", "sqlite3", "http", "urllib", "requests", "httpx", "kuzu", "neo4j", "openai",
        "anthropic",
    }
)


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str  # a first-party module, or the top-level name of a third-party one
    line: int
    local: bool  # inside a function or a class body
    type_only: bool  # under `if TYPE_CHECKING:`


def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """Every import statement of one file, each resolved to the first-party module it loads."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        if node.level:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        return [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]

    def visit(body: list[ast.stmt], local: bool, type_only: bool) -> None:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in targets(node):
                    first_party = _resolve(target, known) if target.split(".")[0] in PACKAGES else None
                    imported = first_party or target.split(".")[0]
                    if imported != name:
                        found.append(Import(name, imported, node.lineno, local, type_only))
                continue
            inner = local or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.body, inner, True)
                visit(node.orelse, inner, type_only)
                continue
            for field in ("body", "orelse", "finalbody"):
                sub = getattr(node, field, None)
                if isinstance(sub, list):
                    visit([s for s in sub if isinstance(s, ast.stmt)], inner, type_only)
            for handler in getattr(node, "handlers", []):
                visit(handler.body, inner, type_only)

    visit(tree.body, False, False)
    return found


def graph(*, runtime: bool = False) -> tuple[dict[str, set[str]], list[Import]]:
    """File → the files it imports at module level (``runtime``: leaving out type-only imports)."""
    known = modules()
    every = [imp for name, path in known.items() for imp in imports_of(name, path, known)]
    edges: dict[str, set[str]] = {name: set() for name in known}
    for imp in every:
        if not imp.local and imp.imported in known and not (runtime and imp.type_only):
            edges[imp.importer].add(imp.imported)
    return edges, every


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one file (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def _allowed(imp: Import) -> bool:
    return any(
        (imp.importer == who or (who.endswith(".") and imp.importer.startswith(who)))
        and what in ("*", imp.imported)
        for who, what in LAZY
    )


def test_no_import_circle_between_files() -> None:
    edges, _ = graph()
    assert circles(edges) == []


def test_the_checker_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_planners_reach_no_procedure_no_store_and_no_io() -> None:
    edges, every = graph(runtime=True)
    direct = sorted(f"{i.importer}:{i.line} {i.imported}" for i in every
                    if i.importer.startswith("planners") and i.imported.startswith(IMPURE_FOR_PLANNERS))
    assert direct == []  # not even for a type: planners/ names no store and no procedure
    reached: set[str] = set()
    todo = [m for m in edges if m == "planners" or m.startswith("planners.")]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo.extend(edges[module])
    impure = sorted(m for m in reached if m.startswith(IMPURE_FOR_PLANNERS))
    assert impure == [], f"planners/ loads {impure}"
    io = sorted({f"{i.importer}:{i.line} {i.imported}" for i in every
                 if i.importer.startswith("planners") and i.imported in IO_MODULES})
    assert io == []


def test_no_function_local_first_party_import() -> None:
    known = modules()
    _, every = graph()
    local = [f"{i.importer}:{i.line} imports {i.imported}" for i in every
             if i.local and i.imported in known and not _allowed(i)]
    assert local == [], "import at module top, or list it in LAZY with the reason it must be lazy"


def test_every_lazy_exception_is_still_needed() -> None:
    _, every = graph()
    used = {
        (w, m)
        for w, m in LAZY
        for i in every
        if i.local
        and _allowed(i)
        and (i.importer == w or (w.endswith(".") and i.importer.startswith(w)))
        and m in ("*", i.imported)
    }
    assert used == set(LAZY), f"unused LAZY entries: {set(LAZY) - used}"
