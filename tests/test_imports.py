"""The package's import structure (issue 18): no circles, the bottom layers import nothing above them, no private
names across modules; and the house in rooms (issue 37): the package root holds only the entry points and the few
ideas every room uses, every room (sub-package) says in its docstring what it holds, and the answer pipeline's
modules (``rumbaodds/answer/``) read top to bottom in the order its docstring lists, none importing one below it.

Every ``import`` / ``from ... import`` of ``rumbaodds/`` is read from the
source, at the top of a module and inside functions alike (an import inside a
function is still a dependency; it only runs later). Imports under
``if TYPE_CHECKING:`` are left out: they never run, so they cannot close a
circle at run time, and annotations may name what a module is used with.

Negative controls: the same checks, run on a small package written into a
temporary folder, find the circle, the upward import and the private name
planted there; and the loose module, the room without a docstring and the
import back up the reading order planted in another.
"""

from __future__ import annotations

import ast
import re
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
# The package root: the entry points and the ideas every room uses (cards, rule sets, estimates, the door's limits,
# seeds, the card plays a question may name). Everything else lives in a room (a sub-package).
ROOT_MODULES = ("__init__", "__main__", "cards", "rules", "stats", "limits", "seeds", "cardplay")
# The room whose modules are read top to bottom: its ``__init__`` docstring lists them in order ("1. :mod:`.name`").
ORDERED_ROOMS = ("answer",)


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


def loose_modules(package: Path, allowed=ROOT_MODULES) -> list[str]:
    """Modules at the package root that are not in ``allowed`` (they belong in a room)."""
    return sorted(p.stem for p in package.glob("*.py") if p.stem not in allowed)


def rooms_without_docstring(package: Path) -> list[str]:
    """Folders of the package holding Python modules whose ``__init__.py`` is missing or has no docstring (its
    first line says what the room holds)."""
    out = []
    for folder in sorted({p.parent for p in package.rglob("*.py")} - {package}):
        if "__pycache__" in folder.parts:
            continue
        init = folder / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) if init.exists() else None
        if not doc or not doc.splitlines()[0].strip():
            out.append(folder.relative_to(package).as_posix())
    return out


def reading_order(init: Path) -> list[str]:
    """The modules a room's ``__init__`` docstring lists, in order: lines ``1. :mod:`.name`: ...``."""
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    return re.findall(r"^\s*\d+\. :mod:`\.(\w+)`", doc, flags=re.MULTILINE)


def order_problems(graph: Graph, package: Path, room: str) -> list[str]:
    """What breaks ``room``'s reading order: a module of the room the order leaves out (or lists twice, or that
    does not exist), and every import (at the top or inside a function) of a module listed later than the
    importer, or of the room's ``__init__`` (which may re-export from its modules, so it comes after them all)."""
    order = reading_order(package / room / "__init__.py")
    prefix = f"{graph.root}.{room}"
    modules = sorted(p.stem for p in (package / room).glob("*.py") if p.stem != "__init__")
    problems = [f"{name}: not in the reading order" for name in modules if name not in order]
    problems += [f"{name}: listed {order.count(name)} times" for name in sorted(set(order)) if order.count(name) > 1]
    problems += [f"{name}: listed, but no such module" for name in order if name not in modules]
    position = {f"{prefix}.{name}": i for i, name in enumerate(order)}
    for importer, rank in position.items():
        for imported in sorted(graph.edges.get(importer, ())):
            if imported == prefix or position.get(imported, -1) > rank:
                problems.append(f"{importer} imports {imported}, below it")
    return problems


def test_the_package_root_holds_only_the_entry_points_and_the_shared_ideas():
    assert loose_modules(PACKAGE) == []


def test_every_room_says_what_it_holds():
    assert rooms_without_docstring(PACKAGE) == []


@pytest.mark.parametrize("room", ORDERED_ROOMS)
def test_a_room_reads_top_to_bottom(room):
    assert reading_order(PACKAGE / room / "__init__.py"), f"{room}/__init__.py lists no reading order"
    assert order_problems(import_graph(PACKAGE, "rumbaodds"), PACKAGE, room) == []


def test_the_house_checks_find_what_is_planted(tmp_path):
    """Negative control: a loose module at the root, a room whose ``__init__`` has no docstring (and a folder of
    modules with no ``__init__``), a function-level import back up the reading order, a module left out of it and
    one listed that does not exist are all found; an import of an earlier module is not."""
    pkg = tmp_path / "fake"
    (pkg / "answer").mkdir(parents=True)
    (pkg / "quiet").mkdir()
    (pkg / "bare").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "cards.py").write_text("")
    (pkg / "stray.py").write_text("")
    (pkg / "quiet" / "__init__.py").write_text("X = 1\n")
    (pkg / "bare" / "thing.py").write_text("")
    (pkg / "answer" / "__init__.py").write_text(
        '"""The room.\n\n1. :mod:`.first`: read first;\n2. :mod:`.second`: then this;\n3. :mod:`.ghost`: gone.\n"""\n')
    (pkg / "answer" / "first.py").write_text("def f():\n    from .second import g\n")
    (pkg / "answer" / "second.py").write_text("from .first import f\n\n\ndef g():\n    pass\n")
    (pkg / "answer" / "extra.py").write_text("from ..cards import X\n")
    assert loose_modules(pkg) == ["stray"]
    assert rooms_without_docstring(pkg) == ["bare", "quiet"]
    assert reading_order(pkg / "answer" / "__init__.py") == ["first", "second", "ghost"]
    assert order_problems(import_graph(pkg, "fake"), pkg, "answer") == [
        "extra: not in the reading order", "ghost: listed, but no such module",
        "fake.answer.first imports fake.answer.second, below it"]
