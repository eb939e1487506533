"""The Numba cache folder is keyed by the kernel files only (engine.KERNEL_FILES), and tables by NUMBERS_VERSION.

Editing a help text or the report must not recompile a kernel; editing a kernel file, or a module a kernel module
imports (its constants are frozen into the compiled code), must. The key's list is checked against the source:
every module that defines a kernel, and every package module it imports, is in it (negative control: the same
check flags a module taken out of the list).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rumbaodds
from rumbaodds import engine
from rumbaodds.engine import KERNEL_DIGEST, KERNEL_FILES, NUMBERS_VERSION, kernel_digest, kernel_paths

PACKAGE = Path(rumbaodds.__file__).resolve().parent


def _resolve(path: Path, module: str | None, level: int, names: list[str]) -> set[Path]:
    """Package files an import statement of ``path`` names (``from .x import y``: x, or x/y where y is a module)."""
    if level == 0:
        if not (module or "").startswith("rumbaodds"):
            return set()
        base, parts = PACKAGE.parent, (module or "").split(".")
    else:
        base = path.parent
        for _ in range(level - 1):
            base = base.parent
        parts = module.split(".") if module else []
    target = base.joinpath(*parts)
    out = set()
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file():
            out.add(candidate)
    for name in names:  # from . import policy
        if (target / f"{name}.py").is_file():
            out.add(target / f"{name}.py")
    return out


def kernel_sources(package: Path = PACKAGE) -> set[Path]:
    """Modules defining a kernel and the package modules they import (top level or inside functions)."""
    needed = set()
    for path in package.rglob("*.py"):
        text = path.read_text()
        if "@njit" not in text and "njit(" not in text and "cuda.jit" not in text:
            continue
        needed.add(path)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom):
                needed |= _resolve(path, node.module, node.level, [a.name for a in node.names])
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    needed |= _resolve(path, alias.name, 0, [])
    return {p for p in needed if p.name != "__init__.py" or p.parent.name == "engine"}


def missing(patterns=KERNEL_FILES) -> list[str]:
    listed = set(kernel_paths(patterns=patterns))
    return sorted(p.relative_to(PACKAGE).as_posix() for p in kernel_sources() - listed)


def test_every_kernel_module_and_its_imports_are_in_the_key():
    assert "engine/hand.py" in [p.relative_to(PACKAGE).as_posix() for p in kernel_sources()]
    assert missing() == [], "add these files to engine.KERNEL_FILES"


def test_the_check_flags_a_file_left_out_of_the_key():
    """Negative control: without cards.py (engine/speak.py imports RANKS from it) the check complains."""
    assert missing(tuple(p for p in KERNEL_FILES if p != "cards.py")) == ["cards.py"]


def test_the_cache_folder_is_named_after_the_kernel_digest():
    assert Path(engine.config.CACHE_DIR).name == f"numba-{KERNEL_DIGEST}" and kernel_digest() == KERNEL_DIGEST


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    out = tmp_path_factory.mktemp("pkg") / "rumbaodds"
    shutil.copytree(PACKAGE, out, ignore=shutil.ignore_patterns("__pycache__", "*.parquet", "*.npz"))
    return out


def _edited(copy: Path, tmp: Path, name: str) -> Path:
    edited = tmp / name.replace("/", "_")
    shutil.copytree(copy, edited)
    (edited / name).write_text((edited / name).read_text() + "\n# edited\n")
    return edited


@pytest.mark.parametrize("name", ["cli/ask_cmd.py", "cli/__init__.py", "report/page.py", "tables/build.py",
                                  "answer/simulation.py", "answer/situation.py", "web/app.py"])
def test_editing_a_file_without_kernels_keeps_the_cache(copy, tmp_path, name):
    assert kernel_digest(copy) == KERNEL_DIGEST
    assert kernel_digest(_edited(copy, tmp_path, name)) == KERNEL_DIGEST


@pytest.mark.parametrize("name", ["engine/hand.py", "engine/tricks.py", "cards.py", "rules.py", "rummy/solver.py",
                                  "strategy/game.py"])
def test_editing_a_kernel_file_changes_the_cache(copy, tmp_path, name):
    assert kernel_digest(_edited(copy, tmp_path, name)) != KERNEL_DIGEST


def test_a_cli_edit_recompiles_nothing_in_a_fresh_interpreter(copy, tmp_path):
    """The folder a fresh interpreter picks, before and after a help text changes: the same."""
    code = "from numba.core import config; import rumbaodds.engine; print(config.CACHE_DIR)"
    before = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=copy.parent,
                            env={"PYTHONPATH": str(copy.parent), "NUMBA_CACHE_DIR": str(tmp_path)}, check=True)
    (copy / "cli" / "ask_cmd.py").write_text((copy / "cli" / "ask_cmd.py").read_text().replace("help=", "help= "))
    after = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=copy.parent,
                           env={"PYTHONPATH": str(copy.parent), "NUMBA_CACHE_DIR": str(tmp_path)}, check=True)
    assert before.stdout == after.stdout == f"{tmp_path}/numba-{KERNEL_DIGEST}\n"


def test_numbers_version_is_a_positive_integer():
    assert isinstance(NUMBERS_VERSION, int) and NUMBERS_VERSION >= 1
