"""Tables are stamped with the numbers version (engine.NUMBERS_VERSION), and a table of another version is refused.

What replaced the digest of the source text (issue 18): whether a table's numbers are still today's is proved by
recomputation (tests/test_shipped_validity.py), and a deliberate change that moves numbers bumps the version, which
retires every table of the old one: ask simulates instead, and `tables pack` says why it refuses.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rumbaodds.answer.simulation import make_situation
from rumbaodds.cardplay import DEFAULT_PLAY
from rumbaodds.engine import NUMBERS_VERSION
from rumbaodds.opponents.models import get_model
from rumbaodds.rules import RuleSet
from rumbaodds.tables import TableError, TableSpec, build_table, find_answer, numbers_problem, spec
from rumbaodds.tables.lookup import manifest_matches, read_manifest
from rumbaodds.tables.pack import pack_table

TINY = RuleSet(name="tiny", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3, exchange_limit=1,
               rumba_min_tricks=2, throw_in_below="J", knock=False)
MODEL = get_model("default")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("numbers") / "t"
    build_table(TableSpec(TINY, 2, MODEL, min_samples=8, max_samples=16, seed=1), out)
    return out


def test_tables_are_stamped_with_the_numbers_version(tiny):
    manifest = read_manifest(tiny / "table.parquet")
    assert manifest["numbers"] == NUMBERS_VERSION and "engine" not in manifest
    assert numbers_problem(manifest) is None and manifest_matches(manifest, TINY, 2, MODEL, DEFAULT_PLAY)


def test_a_table_of_another_numbers_version_is_refused_with_a_reason(tiny, tmp_path, monkeypatch):
    situation = make_situation("CJ HK", "HJ", 2, 1, TINY)
    assert find_answer(tiny.parent, situation, MODEL, DEFAULT_PLAY).meta["source"] == "table"
    monkeypatch.setattr(spec, "NUMBERS_VERSION", NUMBERS_VERSION + 1)  # as after a bump
    manifest = read_manifest(tiny / "table.parquet")
    assert numbers_problem(manifest) == (f"it holds numbers version {NUMBERS_VERSION}, this code computes numbers "
                                         f"version {NUMBERS_VERSION + 1}: rebuild it")
    assert not manifest_matches(manifest, TINY, 2, MODEL, DEFAULT_PLAY)
    assert find_answer(tiny.parent, situation, MODEL, DEFAULT_PLAY) is None  # ask simulates instead
    with pytest.raises(TableError, match=rf"cannot be packed: it holds numbers version {NUMBERS_VERSION}"):
        pack_table(tiny, tmp_path / "t.packed.parquet")


def test_a_table_stamped_with_the_old_source_digest_is_refused():
    old = {"engine": "133e03d049df03ee", "rules": TINY.to_dict(), "players": 2, "play": DEFAULT_PLAY}
    assert "numbers digest 133e03d049df03ee, before numbers versions" in numbers_problem(old)
    assert not manifest_matches(old, TINY, 2, MODEL, DEFAULT_PLAY)


def test_a_table_of_other_opponents_is_not_used(tiny):
    """The opponents are guarded by the digest of their policy arrays in the manifest, not by the version."""
    manifest = read_manifest(tiny / "table.parquet")
    assert manifest_matches(manifest, TINY, 2, get_model("default"), DEFAULT_PLAY)
    assert not manifest_matches(manifest, TINY, 2, get_model("bold"), DEFAULT_PLAY)


def test_dask_is_imported_only_when_asked_for(tiny, tmp_path):
    code = ("import json, sys; from rumbaodds.tables import find_answer, build_table; "
            "from rumbaodds.tables.pack import pack_table; "
            f"pack_table({str(tiny)!r}, {str(tmp_path / 'p.packed.parquet')!r}); "
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
