"""The numbers digest (engine.NUMBERS_DIGEST) that stamps tables: it covers exactly the code behind table numbers.

Packed tables ship in the package, so their stamp must not change with the
command line or the report, and must change with anything that changes a
number. The guard: a table build, a pack and both lookups run in a fresh
interpreter, and every rumbaodds module that ended up in ``sys.modules`` has
to be one of the digest's files. Negative control: the same check flags a
module outside the list (the report) once it is imported.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rumbaodds
from rumbaodds.engine import NUMBERS_DIGEST, OPPONENT_FILES, SOURCE_DIGEST, numbers_digest, numbers_paths

PACKAGE = Path(rumbaodds.__file__).resolve().parent

BUILD_PATH = r"""
import json, sys, tempfile
from rumbaodds.models import get_model
from rumbaodds.rules import RuleSet
from rumbaodds.analysis import make_situation
from rumbaodds.tables import TableSpec, build_table, find_answer
from rumbaodds.tables.pack import pack_table
TINY = RuleSet(name="tiny", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3, exchange_limit=1,
               rumba_min_tricks=2, throw_in_below="J", knock=True)
with tempfile.TemporaryDirectory() as tmp:
    spec = TableSpec(TINY, 2, get_model("default"), min_samples=16, max_samples=64, seed=1, knock_samples=4)
    build_table(spec, tmp + "/t", chunk_cells=100)  # knock=True: knock.parquet too (analysis.knock)
    pack_table(tmp + "/t", tmp + "/p/t.packed.parquet")
    situation = make_situation("CJ HK", "HJ", 2, 1, TINY)
    assert find_answer(tmp, situation, get_model("default"), "expert").meta["source"] == "table"
    assert find_answer(tmp + "/p", situation, get_model("default"), "expert").meta["source"] == "packed table"
EXTRA
print(json.dumps(sorted(name for name in sys.modules if name == "rumbaodds" or name.startswith("rumbaodds.")
                        or name.split(".")[0] in ("dask", "distributed"))))
"""


def imported_by_a_build(extra: str = "") -> list[str]:
    code = BUILD_PATH.replace("EXTRA", extra)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def module_file(name: str) -> Path:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def not_in_digest(modules: list[str]) -> list[str]:
    """Modules neither in the numbers digest nor among the opponents' sources (stamped by the policy digest)."""
    listed = set(numbers_paths()) | set(numbers_paths(patterns=OPPONENT_FILES))
    return [m for m in modules if m.startswith("rumbaodds") and module_file(m).resolve() not in listed]


@pytest.fixture(scope="module")
def modules():
    return imported_by_a_build("import rumbaodds.report")  # the report imported on purpose: the control


def test_every_module_of_the_build_path_is_in_the_digest(modules):
    build_modules = [m for m in modules if not _report(m)]
    assert "rumbaodds.engine.table" in build_modules and "rumbaodds.tables.pack" in build_modules
    assert not_in_digest(build_modules) == [], "add these files to engine.NUMBERS_FILES"


def test_the_check_flags_a_module_outside_the_digest(modules):
    """Negative control: the report (imported by the subprocess on purpose) is not part of the numbers."""
    flagged = not_in_digest(modules)
    assert "rumbaodds.report" in flagged and "rumbaodds.report.page" in flagged and all(map(_report, flagged))


def _report(module: str) -> bool:
    return module == "rumbaodds.report" or module.startswith("rumbaodds.report.")


def test_dask_is_imported_only_when_asked_for(modules):
    assert not any(m.split(".")[0] in ("dask", "distributed") for m in modules)


def test_the_digest_follows_the_numbers_files_only(tmp_path):
    copy = tmp_path / "rumbaodds"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.packed.parquet"))
    assert numbers_digest(copy) == numbers_digest(PACKAGE)
    (copy / "cli" / "ask_cmd.py").write_text((copy / "cli" / "ask_cmd.py").read_text() + "\n# edited\n")
    (copy / "report" / "page.py").write_text((copy / "report" / "page.py").read_text() + "\n# edited\n")
    assert numbers_digest(copy) == NUMBERS_DIGEST  # the command line and the report are not numbers
    for name in ("rules.py", "engine/hand.py", "tables/build.py", "handclasses.py"):
        edited = tmp_path / name.replace("/", "_")
        shutil.copytree(copy, edited)
        (edited / name).write_text((edited / name).read_text() + "\n# edited\n")
        assert numbers_digest(edited) != NUMBERS_DIGEST, name
    data = copy / "data" / "strategies"
    data.mkdir(parents=True, exist_ok=True)
    (data / "new-strategy.npz").write_bytes(b"x")  # a strategy reaches tables through the policy digest instead
    (copy / "strategy" / "solver.py").write_text((copy / "strategy" / "solver.py").read_text() + "\n# edited\n")
    assert numbers_digest(copy) == NUMBERS_DIGEST


def test_a_table_of_other_opponents_is_not_used_though_the_numbers_digest_is_the_same(tmp_path):
    """Strategies are outside the numbers digest (OPPONENT_FILES): the manifest's policy digest guards them."""
    from rumbaodds.models import get_model
    from rumbaodds.rules import RuleSet
    from rumbaodds.tables import TableSpec, build_table
    from rumbaodds.tables.lookup import manifest_matches, read_manifest

    tiny = RuleSet(name="tiny", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3,
                   exchange_limit=1, rumba_min_tricks=2, throw_in_below="J")
    build_table(TableSpec(tiny, 2, get_model("default"), min_samples=8, max_samples=16, seed=1), tmp_path / "t")
    manifest = read_manifest(tmp_path / "t" / "table.parquet")
    assert manifest["engine"] == NUMBERS_DIGEST
    assert manifest_matches(manifest, tiny, 2, get_model("default"), "expert")
    assert not manifest_matches(manifest, tiny, 2, get_model("bold"), "expert")


def test_tables_are_stamped_with_the_numbers_digest_not_the_source_digest(tmp_path):
    from rumbaodds.models import get_model
    from rumbaodds.rules import RuleSet
    from rumbaodds.tables import TableSpec

    tiny = RuleSet(name="tiny", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3,
                   exchange_limit=1, rumba_min_tricks=2, throw_in_below="J", knock=False)
    manifest = TableSpec(tiny, 2, get_model("default")).manifest()
    assert manifest["engine"] == NUMBERS_DIGEST != SOURCE_DIGEST
