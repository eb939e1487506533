"""Packed decision tables (rumbaodds.tables.pack): what they keep, how exactly, and the lookup from them.

A packed table must give, for every cell, the full table's decision (best,
runner-up, best exchange), its margin and half-width and the Rumba's success
probability within half a quantisation step, and the same deal count; and
``ask`` must find the row of any hand through its class (any trump suit, any
side-suit order), and refuse what the packed numbers do not answer.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pyarrow.parquet as pq
import pytest

from rumbaodds import analysis
from rumbaodds.cards import format_card
from rumbaodds.engine import NUMBERS_VERSION
from rumbaodds.handclasses import enumerate_trump_rank_pairs
from rumbaodds.models import get_model
from rumbaodds.rules import RuleSet
from rumbaodds.tables import TableError, TableSpec, build_table, find_answer, load_table
from rumbaodds.tables import pack as pack_module
from rumbaodds.tables.pack import answer_from_packed, load_packed, pack_table, packed_size

TINY = RuleSet(name="tiny", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3, exchange_limit=1,
               rumba_min_tricks=2, throw_in_below="J", knock=False)
MODEL = get_model("default")


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    root = tmp_path_factory.mktemp("pack")
    spec = TableSpec(TINY, 3, MODEL, precision=0.3, seed=21)
    build_table(spec, root / "full", chunk_cells=200)
    path = pack_table(root / "full", root / "tiny3.packed.parquet")
    return load_table(root / "full"), load_packed(path), path


def _situation(row, perm=None, passes=0, before=None):
    trump = enumerate_trump_rank_pairs(TINY).classes.trump_suit
    cards = [c for c in range(64) if (int(row["hand"]) >> c) & 1]
    trump_card = trump * 16 + int(row["trump_rank"])
    if perm is not None:
        cards = [perm[c // 16] * 16 + c % 16 for c in cards]
        trump_card = perm[trump_card // 16] * 16 + trump_card % 16
    return analysis.make_situation(" ".join(format_card(c) for c in cards), format_card(trump_card), 3,
                                   int(row["seat"]), TINY, passes, before=before)


def test_every_cell_keeps_its_decision(packed):
    table, p, _ = packed
    f = table.frame
    assert len(p.columns["code"]) == len(f) == 3 * 124
    scales = p.manifest["packed"]["scales"]
    for name in ("margin", "margin_half"):
        stored = p.columns[name].astype(float) * scales[name]
        assert np.abs(stored - f[name].to_numpy()).max() <= scales[name] / 2 + 1e-12
    p_stored = p.columns["p_success"].astype(float) * scales["p_success"]
    assert np.abs(p_stored - f["p_success"].to_numpy()).max() <= scales["p_success"] / 2 + 1e-12
    np.testing.assert_array_equal(p.columns["samples"], f["samples"].to_numpy())
    kinds = np.array(pack_module.KINDS)
    code = p.columns["code"]
    assert (kinds[code & 3] == f["best"].replace("pass!", "pass").to_numpy()).all()
    assert (kinds[(code >> 2) & 3] == f["runner_up"].replace("pass!", "pass").to_numpy()).all()
    assert (((code >> 4) & 7) == f["best_discards"].to_numpy()).all()
    assert p.manifest["numbers"] == NUMBERS_VERSION and p.manifest["seed"] == 21
    # small integer types, the scale in the metadata
    assert {str(v.dtype) for v in p.columns.values()} <= {"uint8", "int16", "uint16"}
    meta = json.loads(pq.read_schema(p.path).metadata[b"rumbaodds"])
    assert meta["packed"]["scales"] == {"margin": 0.05, "margin_half": 0.05, "p_success": 0.005}


def test_ask_answers_from_the_packed_table_for_any_suit_naming(packed):
    table, p, path = packed
    rng = random.Random(5)
    f = table.frame
    for r in rng.sample(range(len(f)), 60):
        row = f.iloc[r]
        perm = dict(zip([0, 1, 2], rng.sample([0, 1, 2], 3)))
        for situation in (_situation(row), _situation(row, perm)):
            answer = answer_from_packed(p, situation, MODEL, "expert")
            if {row["best"], row["runner_up"]} & {"pass", "pass!"} and row["best"] != row["runner_up"]:
                assert answer is not None
            if answer is None:  # a decision the situation does not allow
                continue
            assert answer.meta["source"] == "packed table" and answer.meta["cell"] == int(row["cell"])
            assert answer.recommendation == row["best"].rstrip("!") and answer.samples == row["samples"]
            assert answer.margin.mean == pytest.approx(row["margin"], abs=0.025 + 1e-9)
            assert answer.meta["best_discards"] == row["best_discards"]
            assert answer.meta["p_success"][0] == pytest.approx(row["p_success"], abs=0.0025 + 1e-9)
            if row["best"] == "play" and row["runner_up"] == "pass":  # play's value is minus the margin itself
                assert answer.actions["play"].ev.mean == pytest.approx(row["ev_play"], abs=0.025 + 1e-9)
                assert answer.actions["play"].ev.half_width == pytest.approx(row["ev_play_half"], abs=0.025 + 1e-9)


def test_packed_answers_only_what_its_numbers_answer(packed):
    table, p, _ = packed
    row = table.frame.iloc[int(np.flatnonzero(table.frame["seat"] == 2)[0])]
    assert answer_from_packed(p, _situation(row), MODEL, "expert") is not None
    assert answer_from_packed(p, _situation(row, passes=2), MODEL, "expert") is None  # the sit-out pass
    assert answer_from_packed(p, _situation(row, before="pass,play"), MODEL, "expert") is None
    assert answer_from_packed(p, _situation(row), get_model("bold"), "expert") is None
    assert answer_from_packed(p, _situation(row), MODEL, "greedy") is None


def test_a_full_table_is_preferred_and_the_shipped_folder_is_searched(packed, tmp_path, monkeypatch):
    table, p, path = packed
    row = table.frame.iloc[10]
    situation = _situation(row)
    assert find_answer(path.parent, situation, MODEL, "expert").meta["source"] == "table"
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(pack_module, "SHIPPED", shipped)
    answer = find_answer(tmp_path / "nothing-here", situation, MODEL, "expert")
    assert answer is not None and answer.meta["source"] == "packed table"
    assert answer.meta["table"] == str(shipped / path.name)


def test_stale_and_subset_tables_are_refused(packed, tmp_path):
    table, _, _ = packed
    stale = tmp_path / "stale"
    stale.mkdir()
    t = pq.read_table(table.path)
    manifest = dict(table.manifest, numbers=NUMBERS_VERSION + 1)  # a table of another numbers version
    pq.write_table(t.replace_schema_metadata({b"rumbaodds": json.dumps(manifest).encode()}), stale / "table.parquet")
    with pytest.raises(TableError, match=f"cannot be packed: it holds numbers version {NUMBERS_VERSION + 1}"):
        pack_table(stale, tmp_path / "x.packed.parquet")
    build_table(TableSpec(TINY, 2, MODEL, samples_per_cell=20, seed=1, cells=7), tmp_path / "sub")
    with pytest.raises(TableError, match="only a full table"):
        pack_table(tmp_path / "sub", tmp_path / "y.packed.parquet")


def test_size_is_reported(packed):
    _, _, path = packed
    size = packed_size(path)
    assert size["cells"] == 372 and size["bytes"] == path.stat().st_size
    assert size["bytes_per_cell"] == pytest.approx(size["bytes"] / 372)
