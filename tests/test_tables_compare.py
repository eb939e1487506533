"""`rumbaodds tables compare`: what moved between two packed tables, weighted by how often hands are dealt.

A table against itself moves nothing; a copy with the best choice of chosen cells swapped moves exactly those
cells' share of the hands (their class weights), and the flow names the swap.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from rumbaodds.cli import main
from rumbaodds.report.cells import read_packed
from rumbaodds.rules import SWISS
from rumbaodds.tables.compare import compare, rumba_threshold
from rumbaodds.tables.pack import KINDS, SHIPPED

TABLE = SHIPPED / "swiss-3p.packed.parquet"


def _swapped(tmp_path, rows: np.ndarray):
    """A copy of TABLE whose cells ``rows`` have best and runner-up swapped (the code's two lowest bit pairs)."""
    table = pq.read_table(TABLE)
    code = table.column("code").to_numpy().copy()
    best, runner = code[rows] & 3, (code[rows] >> 2) & 3
    code[rows] = (code[rows] & ~np.array(15, dtype=code.dtype)) | runner | (best << 2)
    out = tmp_path / "swapped.packed.parquet"
    pq.write_table(table.set_column(table.schema.get_field_index("code"), "code", pa.array(code)), out)
    return out, best, runner


@pytest.fixture(scope="module")
def cells():
    return read_packed(TABLE, SWISS)


def test_a_table_against_itself_moves_nothing():
    result = compare(TABLE, TABLE)
    assert result["best_changed"] == 0.0 and all(v == 0.0 for v in result["flow"].values())
    assert result["rumba_threshold_points"] == [[a, a] for a, _ in result["rumba_threshold_points"]]


def test_swapped_cells_move_by_their_share_of_the_hands_dealt(tmp_path, cells):
    rng = np.random.default_rng(4)
    possible = np.flatnonzero(~cells.impossible & (cells.best != cells.runner))
    rows = np.sort(rng.choice(possible, 5000, replace=False))
    path, best, runner = _swapped(tmp_path, rows)
    result = compare(TABLE, path)
    w = cells.weight
    assert result["best_changed"] == pytest.approx(w[rows].sum() / w.sum(), rel=1e-9)
    first = KINDS[int(best[0])] + "->" + KINDS[int(runner[0])]
    assert result["flow"][first] > 0
    assert sum(result["flow"].values()) == pytest.approx(result["best_changed"], rel=1e-9)
    printed = CliRunner().invoke(main, ["tables", "compare", str(TABLE), str(path), "--json"])
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.stdout)["best_changed"] == pytest.approx(result["best_changed"])
    words = CliRunner().invoke(main, ["tables", "compare", str(TABLE), str(path)])
    assert f"{100 * result['best_changed']:.1f}% of hands dealt" in words.output


def test_the_rumba_threshold_is_the_points_from_which_rumba_is_best(cells):
    seat = 0
    threshold = rumba_threshold(cells, seat)
    s = cells.seat_slice(seat)
    points, w, rumba = cells.pairs.points, cells.weight[s], cells.best[s] == 2
    above = points >= threshold
    assert (w * rumba)[above].sum() / w[above].sum() > 0.5  # from there on, Rumba is best for most hands
    below = points == np.max(points[~above])
    assert (w * rumba)[below].sum() / w[below].sum() < 0.5  # just below, not


def test_tables_of_other_player_counts_are_refused(tmp_path):
    out = CliRunner().invoke(main, ["tables", "compare", str(TABLE), str(SHIPPED / "swiss-4p.packed.parquet")])
    assert out.exit_code == 2 and "not tables of the same rule set and player count" in out.output
    assert "Traceback" not in out.output
