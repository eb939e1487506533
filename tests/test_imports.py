"""The package's import structure (issue 18): no circles, the bottom layers import nothing above them, no private
names across modules.

Every ``import`` / ``from ... import`` of ``rumbaodds/`` is read from the
source, at the top of a module and inside functions alike (an import inside a
function is still a dependency; it only runs later). Imports under
``if TYPE_CHECKING:`` are left out: they never run, so they cannot close a
circle at run time, and annotations may name what a module is used with.

Negative controls: the same checks, run on a small package written into a
temporary folder, find the circle, the upward import and the private name
planted there.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import rumbaodds

PACKAGE = Path(rumbaodds.__file__).resolve().parent
# The bottom layers, the kernels (``engine/``) and the rule book in code (``game/``), may import only themselves
# and the card and rule-set records they are built on. The twins, which import policies and the conditioning plan,
# live above them in ``twins/``.
BOTTOM_LAYERS = ("engine", "game")
BOTTOM_MAY_IMPORT = ("cards", "rules")


@dataclass
class Graph:
    root: str
    edges: dict[str, set[str]] = field(default_factory=dict)
    private: list[tuple[str, str, str]] = field(default_factory=list)  # (importer, module, private name)


def module_names(package: Path, root: str) -> dict[str, Path]:
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = (root, *path.relative_to(package).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:``."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skip


def import_graph(package: Path, root: str) -> Graph:
    modules = module_names(package, root)
    graph = Graph(root, {name: set() for name in modules})
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = type_checking_nodes(tree)
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        aliases: dict[str, str] = {}  # local name -> package module it names
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        graph.edges[name].add(alias.name)
                        aliases[alias.asname or alias.name] = alias.name
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target != root and not target.startswith(root + "."):
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in modules:  # ``from . import analysis``: the submodule itself
                        graph.edges[name].add(sub)
                        aliases[alias.asname or alias.name] = sub
                    elif target in modules:
                        graph.edges[name].add(target)
                        if alias.name.startswith("_") and target != name:
                            graph.private.append((name, target, alias.name))
        for node in ast.walk(tree):  # ``analysis._check_seed(...)``: a private name reached through a module
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                target = aliases[node.value.id]
                if node.attr.startswith("_") and not node.attr.startswith("__") and target != name:
                    graph.private.append((name, target, node.attr))
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """Strongly connected components of more than one module (or a module importing itself), by Tarjan's
    algorithm with an explicit stack."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found = []
    counter = 0
    for start in sorted(graph.edges):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
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
                if len(component) > 1 or node in graph.edges[node]:
                    found.append(sorted(component))
    return found


def upward_from(graph: Graph, layer: str) -> list[tuple[str, str]]:
    """(importer, imported) pairs where a module of ``layer`` imports a package module outside it and its base."""
    own = f"{graph.root}.{layer}"
    allowed = {f"{graph.root}.{name}" for name in BOTTOM_MAY_IMPORT}
    inside = lambda name: name == own or name.startswith(own + ".")  # noqa: E731
    return sorted((a, b) for a, targets in graph.edges.items() if inside(a)
                  for b in targets if not (inside(b) or b in allowed))


def test_no_import_circles():
    assert circles(import_graph(PACKAGE, "rumbaodds")) == []


@pytest.mark.parametrize("layer", BOTTOM_LAYERS)
def test_the_bottom_layers_import_nothing_above_them(layer):
    assert upward_from(import_graph(PACKAGE, "rumbaodds"), layer) == []


def test_no_private_names_across_modules():
    assert import_graph(PACKAGE, "rumbaodds").private == []


def test_the_checks_find_what_is_planted(tmp_path):
    """Negative control: a circle through a function-level import, an upward import from engine/ and a private
    name (imported, and reached through a module) are all found; a TYPE_CHECKING import is not a circle."""
    pkg = tmp_path / "fake"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "__init__.py").write_text("")
    (pkg / "engine" / "kernel.py").write_text("from ..rules import X\n\ndef f():\n    from ..report import page\n")
    (pkg / "rules.py").write_text("X = 1\n")
    (pkg / "report.py").write_text("from .engine import kernel\nfrom .rules import _hidden\n\n\n"
                                   "def page():\n    pass\n")
    (pkg / "cli.py").write_text("from typing import TYPE_CHECKING\nfrom . import rules\n"
                                "if TYPE_CHECKING:\n    from .views import V\n\nrules._secret\n")
    (pkg / "views.py").write_text("from .cli import rules\n")
    graph = import_graph(pkg, "fake")
    assert circles(graph) == [["fake.engine.kernel", "fake.report"]]
    assert upward_from(graph, "engine") == [("fake.engine.kernel", "fake.report")]
    assert sorted(graph.private) == [("fake.cli", "fake.rules", "_secret"), ("fake.report", "fake.rules", "_hidden")]
