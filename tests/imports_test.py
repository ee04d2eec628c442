"""The import graph of dralint has no cycles, counting imports inside functions and under TYPE_CHECKING.

A cycle means two modules cannot be understood (or tested, or moved) one without the other;
a lazy import only hides it from the interpreter, not from the reader.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

from tests.conftest import FIXTURES, ROOT

Graph = Mapping[str, frozenset[str]]


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (a folder under ``root``) by dotted name; packages by their own name."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imported(node: ast.AST, name: str, is_package: bool) -> Iterator[str]:
    """The dotted names an import statement may load (``from a import b``: ``a.b`` if a module, else ``a``)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        yield module
        yield from (f"{module}.{alias.name}" for alias in node.names)


def graph(root: Path, package: str) -> dict[str, frozenset[str]]:
    """Module → the modules of the package it imports anywhere in its source.

    ``from a import b`` loads ``a`` (a package's ``__init__`` is a module too) and, when ``b``
    is a module, ``a.b``.
    """
    known = modules(root, package)
    out: dict[str, frozenset[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets: set[str] = set()
        for node in ast.walk(tree):
            for imported in _imported(node, name, path.name == "__init__.py"):
                if imported in known and imported != name:
                    targets.add(imported)
        out[name] = frozenset(targets)
    return out


def cycles(edges: Graph) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module, as a closed path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm without recursion: (node, iterator over its successors).
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return [_path_through(edges, component) for component in components]


def _path_through(edges: Graph, component: list[str]) -> list[str]:
    """A shortest cycle from the component's first module back to itself (breadth first)."""
    members = set(component)
    first = component[0]
    previous: dict[str, str] = {}
    frontier = [first]
    while frontier:
        following = []
        for node in frontier:
            for successor in sorted(edges[node] & members):
                if successor == first:
                    path = [node]
                    while path[-1] != first:
                        path.append(previous[path[-1]])
                    return [first, *reversed(path[:-1]), first]
                if successor not in previous:
                    previous[successor] = node
                    following.append(successor)
        frontier = following
    raise AssertionError(f"no cycle through {component}")  # pragma: no cover - a component always has one


def test_the_cycle_finder_names_a_cycle_of_deferred_and_relative_imports() -> None:
    edges = graph(FIXTURES / "imports", "cyclic")
    assert edges["cyclic.a"] == {"cyclic", "cyclic.b"}
    assert edges["cyclic.d"] == set()
    assert cycles(edges) == [["cyclic.a", "cyclic.b", "cyclic.inner.c", "cyclic.a"]]


def test_dralint_has_no_import_cycles() -> None:
    found = cycles(graph(ROOT, "dralint"))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in found)


# The flow of docs/architecture.md: the stages before the pipeline's owner read no module of the
# owner or of what comes after it (the checks, findings, suppressions, reports, commands, editor).
BEFORE_THE_OWNER = (
    "read",
    "api",
    "apimachinery",
    "config",
    "validate",
    "admission",
    "cluster",
    "dryrun",
    "allocator",
    "diagnose",
    "cel",
    "plan",
    "profiles",
)
AFTER_THE_STAGES = ("pipeline", "checks", "suppress", "policy", "report", "commands", "lsp", "cli")
# Known exceptions, each with its reason. Admission names the finding that rejects an object
# ("see DRA125 at slices.yaml:15") through the one problem -> rule id table of checks/.
LAYERING_EXCEPTIONS = {
    ("dralint.admission.verdicts", "dralint.checks.api_problems"),
    ("dralint.admission.verdicts", "dralint.checks.rule_ids"),
}


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def upward_imports(edges: Graph) -> set[tuple[str, str]]:
    """(module, imported) where a stage before the owner imports the owner or a later stage."""
    return {
        (module, imported)
        for module, targets in edges.items()
        if _stage(module) in BEFORE_THE_OWNER
        for imported in targets
        if _stage(imported) in AFTER_THE_STAGES
    }


def test_the_stages_before_the_owner_import_nothing_after_them() -> None:
    found = upward_imports(graph(ROOT, "dralint"))
    assert found == LAYERING_EXCEPTIONS, "imports against the flow:\n" + "\n".join(
        f"{module} -> {imported}" for module, imported in sorted(found - LAYERING_EXCEPTIONS)
    )
