"""The kernels and the rule book sit at the bottom: ``engine/`` and ``game/`` import nothing above them.

Every import of every module in ``rumbaodds/engine/`` and ``rumbaodds/game/`` (top level and inside functions)
is read with ``ast``; it may name only the package itself, ``rumbaodds.cards`` and ``rumbaodds.rules`` (and
outside libraries). The twins, which import policies and the conditioning plan, live in ``rumbaodds/twins/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rumbaodds"
BASE = {"rumbaodds.cards", "rumbaodds.rules"}


def imported_modules(path: Path, source: str | None = None) -> set[str]:
    """Absolute names of the rumbaodds modules ``path`` imports (``from ..x import y`` resolved against it)."""
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    package = ["rumbaodds", *path.relative_to(PACKAGE).parent.parts]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("rumbaodds")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if name.startswith("rumbaodds"):
                out.add(name)
    return out


def above(layer: str, names: set[str]) -> list[str]:
    own = f"rumbaodds.{layer}"
    return sorted(n for n in names if not (n == own or n.startswith(own + ".") or n in BASE))


@pytest.mark.parametrize("layer", ["engine", "game"])
def test_nothing_below_imports_from_above(layer):
    files = sorted((PACKAGE / layer).glob("*.py"))
    bad = {str(p.relative_to(PACKAGE)): above(layer, imported_modules(p)) for p in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_check_sees_an_upward_import_inside_a_function():
    """Negative control: the import the twins used to make from ``engine/``."""
    source = "def f():\n    from ..analysis import Job\n    from . import hand\n"
    names = imported_modules(PACKAGE / "engine" / "twin_table.py", source)
    assert names == {"rumbaodds.analysis", "rumbaodds.engine"}
    assert above("engine", names) == ["rumbaodds.analysis"]
