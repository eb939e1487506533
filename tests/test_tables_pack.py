"""Packed tables (rumbaodds.tables.pack): what they keep, how exactly, and the lookup from them.

Format 2 must give, for every cell, the full table's decision (best, runner-up, best exchange and whether it is
resolved), the values of play and Rumba, the margin and the Rumba's success, each within its documented
rounding (pack.Codec) and never with a narrower interval than the full table's, and the same deal counts; format 1
(the tables shipped before the rebuild) must still be read. ``ask`` must find the row of any hand through its
class (any trump suit, any side-suit order), and refuse what the packed numbers do not answer.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from rumbaodds.answer import simulation
from rumbaodds.cardplay import DEFAULT_PLAY
from rumbaodds.cards import format_card, mask_of
from rumbaodds.engine import NUMBERS_VERSION
from rumbaodds.opponents.models import get_model
from rumbaodds.rules import SWISS, RuleSet
from rumbaodds.tables import TableError, TableSpec, build_table, find_answer, load_table
from rumbaodds.tables import pack as pack_module
from rumbaodds.tables.handclasses import enumerate_trump_rank_pairs
from rumbaodds.tables.lookup import table_discard
from rumbaodds.tables.pack import (
    CODEC,
    SHIPPED,
    SUFFIX,
    Codec,
    answer_from_packed,
    load_packed,
    pack_frame,
    pack_table,
    packed_size,
)
from rumbaodds.tables.validity import check_packed

TINY = RuleSet(name="tiny", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3, exchange_limit=1,
               rumba_min_tricks=2, throw_in_below="J", knock=False)
MODEL = get_model("default")
EPS = 1e-9


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    root = tmp_path_factory.mktemp("pack")
    spec = TableSpec(TINY, 3, MODEL, precision=0.3, seed=21)
    build_table(spec, root / "full", chunk_cells=200)
    path = pack_table(root / "full", root / "tiny3.packed.parquet")
    return load_table(root / "full"), load_packed(path), path


@pytest.fixture(scope="module")
def packed_v1(packed, tmp_path_factory):
    table, _, _ = packed
    root = tmp_path_factory.mktemp("pack1")
    path = pack_table(table.path.parent, root / "tiny3-v1.packed.parquet", fmt=1)
    return load_packed(path), path


def _situation(row, perm=None, passes=0, before=None):
    trump = enumerate_trump_rank_pairs(TINY).classes.trump_suit
    cards = [c for c in range(64) if (int(row["hand"]) >> c) & 1]
    trump_card = trump * 16 + int(row["trump_rank"])
    if perm is not None:
        cards = [perm[c // 16] * 16 + c % 16 for c in cards]
        trump_card = perm[trump_card // 16] * 16 + trump_card % 16
    return simulation.make_situation(" ".join(format_card(c) for c in cards), format_card(trump_card), 3,
                                   int(row["seat"]), TINY, passes, before=before)


def _dropped_all_others(row) -> bool:
    live = [k for k in range(2) if row[f"ev_play{k}_deals"] >= row["samples"]]
    return len(live) <= 1


# -- format 2: every value within its rounding ------------------------------------------------------------------------
def test_format_2_keeps_every_value_of_the_full_table_within_its_rounding(packed):
    table, p, _ = packed
    f = table.frame
    assert p.format == 2 and len(p.columns["code"]) == len(f) == 3 * 124
    codec = Codec(**p.manifest["packed"]["codec"])
    assert codec == CODEC
    checked = {"play": 0, "rumba": 0, "paired margin": 0}
    for i in range(len(f)):
        row, cell = f.iloc[i], p.cell(i)
        assert cell.impossible == (row["tries"] < 0)
        if cell.impossible:
            continue
        assert (cell.best, cell.runner) == (row["best"].rstrip("!"), row["runner_up"].rstrip("!"))
        assert cell.discards == row["best_discards"] and cell.resolved == _dropped_all_others(row)
        assert (cell.samples, cell.rumba_deals) == (row["samples"], row["ev_rumba_deals"])
        for name, est in (("play", cell.play), ("rumba", cell.rumba)):
            half = row[f"ev_{name}_half"]
            # never narrower than the full table's, at most one rounding step (and the inflation) wider
            assert half - EPS <= est.half_width <= half * codec.inflation * codec.sigma_step + codec.sigma0 * 2
            step = max(pack_module.EV_SCALE, codec.half_fraction * est.half_width)
            assert abs(est.mean - row[f"ev_{name}"]) <= step / 2 + EPS
            checked[name] += 1
        m = cell.margin
        assert m.half_width >= row["margin_half"] - EPS
        if "pass" in (cell.best, cell.runner):  # derived: the other choice's value itself (pass is 0)
            other = cell.play if "play" in (cell.best, cell.runner) else cell.rumba
            assert m.mean == pytest.approx(abs(other.mean)) and m.half_width == pytest.approx(other.half_width)
            assert abs(m.mean - row["margin"]) <= max(pack_module.EV_SCALE, codec.half_fraction * m.half_width) / 2 \
                + EPS
        else:
            checked["paired margin"] += 1
            assert abs(m.mean - row["margin"]) <= max(pack_module.EV_SCALE, codec.half_fraction * m.half_width) / 2 \
                + EPS
        p_step = float(codec.p_step_of(cell.p_success.samples))
        assert abs(cell.p_success.mean - row["p_success"]) <= p_step / 2 + EPS
        assert cell.p_success.low <= row["p_success_low"] + EPS and cell.p_success.high >= row["p_success_high"] - EPS
    assert min(checked.values()) > 0, checked  # every kind of value was met
    # small integer types; the codec and how to read it in the metadata
    assert {str(v.dtype) for v in p.columns.values()} <= {"uint8", "int16", "uint16"}
    meta = json.loads(pq.read_schema(p.path).metadata[b"rumbaodds"])
    assert meta["packed"]["format"] == 2 and meta["packed"]["codec"]["sigma_step"] == CODEC.sigma_step
    assert p.manifest["numbers"] == NUMBERS_VERSION and p.manifest["seed"] == 21


def test_the_resolved_exchange_flag_follows_the_dropped_columns(packed):
    """Resolved exactly where the full table stopped simulating every other exchange (both kinds occur here)."""
    table, p, _ = packed
    f = table.frame
    flags = [(p.cell(i).resolved, _dropped_all_others(f.iloc[i])) for i in range(len(f)) if f.iloc[i]["tries"] >= 0]
    assert all(a == b for a, b in flags)
    assert {a for a, _ in flags} == {True, False}


def test_a_coarser_codec_is_smaller_and_still_never_narrower(packed, tmp_path):
    table, p, path = packed
    coarse = load_packed(pack_table(table.path.parent, tmp_path / "coarse.packed.parquet",
                                    codec=pack_module.COARSE))
    assert coarse.manifest["packed"]["codec"]["sigma_step"] == pack_module.COARSE.sigma_step
    for i in range(len(table.frame)):
        a, b = p.cell(i), coarse.cell(i)
        if a.impossible:
            continue
        assert b.play.half_width >= table.frame.iloc[i]["ev_play_half"] - EPS


def test_unrounded_values_would_fail_the_rounding_check(packed):
    """Negative control: a value moved by one step more than the rounding allows is caught."""
    table, p, _ = packed
    row, cell = table.frame.iloc[5], p.cell(5)
    step = max(pack_module.EV_SCALE, CODEC.half_fraction * cell.play.half_width)
    assert abs(cell.play.mean + step - row["ev_play"]) > step / 2


# -- format 1 is still read ---------------------------------------------------------------------------------------
def test_format_1_tables_are_still_read(packed, packed_v1):
    table, _, _ = packed
    p1, path = packed_v1
    assert p1.format == 1 and set(p1.columns) >= {"margin", "margin_half", "p_success"}
    f = table.frame
    row = f.iloc[int(np.flatnonzero((f["best"] != "pass") & (f["runner_up"] != "pass") & (f["tries"] >= 0))[0])]
    answer = answer_from_packed(p1, _situation(row), MODEL, DEFAULT_PLAY)
    assert answer is not None and answer.meta["format"] == 1
    assert answer.margin.mean == pytest.approx(row["margin"], abs=0.025 + EPS)
    assert answer.meta["missing"] == ["play", "rumba"]  # format 1 keeps their difference, not their values
    assert answer.exchange is None or not answer.exchange.resolved  # format 1 never resolves the exchange


@pytest.mark.parametrize("path", sorted(SHIPPED.glob(f"*{SUFFIX}")), ids=lambda p: p.name)
def test_the_shipped_tables_load_whatever_their_format(path):
    packed = load_packed(path)
    assert packed.format in pack_module.READABLE
    cell = packed.cell(packed.pairs)  # seat 1, the first pair
    assert cell.samples >= 1 and 0.0 <= cell.p_success.low <= cell.p_success.high <= 1.0


def test_an_unknown_format_is_refused(packed, tmp_path):
    _, p, path = packed
    t = pq.read_table(path)
    manifest = dict(p.manifest, packed={**p.manifest["packed"], "format": 99})
    bad = tmp_path / "bad.packed.parquet"
    pq.write_table(t.replace_schema_metadata({b"rumbaodds": json.dumps(manifest).encode()}), bad)
    with pytest.raises(TableError, match="not a packed table of format 1 or 2"):
        load_packed(bad)


# -- answers --------------------------------------------------------------------------------------------------------
def test_ask_answers_from_the_packed_table_for_any_suit_naming(packed):
    table, p, path = packed
    rng = random.Random(5)
    f = table.frame
    for r in rng.sample(range(len(f)), 60):
        row = f.iloc[r]
        perm = dict(zip([0, 1, 2], rng.sample([0, 1, 2], 3)))
        for situation in (_situation(row), _situation(row, perm)):
            answer = answer_from_packed(p, situation, MODEL, DEFAULT_PLAY)
            if {row["best"], row["runner_up"]} & {"pass", "pass!"} and row["best"] != row["runner_up"]:
                assert answer is not None
            if answer is None:  # a decision the situation does not allow
                continue
            assert answer.meta["source"] == "packed table" and answer.meta["cell"] == int(row["cell"])
            key = answer.meta["cell_key"]
            assert key["seat"] == row["seat"] and key["class"] == row["class_row"] and answer.meta["deals"] == \
                row["samples"]
            assert answer.recommendation == row["best"].rstrip("!") and answer.samples == row["samples"]
            assert answer.meta["missing"] == []  # format 2: a value for every choice
            assert set(answer.actions) >= {"pass", "play"}
            cell = p.cell(int(row["cell"]))
            assert answer.actions["play"].ev == cell.play and answer.margin == cell.margin
            if "rumba" in answer.actions:
                assert answer.actions["rumba"].p_success == cell.p_success
            assert answer.actions["play"].discard == table_discard(situation.hand, int(row["best_discards"]),
                                                                   situation.trump_card, TINY)


def test_packed_answers_only_what_its_numbers_answer(packed):
    table, p, _ = packed
    row = table.frame.iloc[int(np.flatnonzero(table.frame["seat"] == 2)[0])]
    assert answer_from_packed(p, _situation(row), MODEL, DEFAULT_PLAY) is not None
    assert answer_from_packed(p, _situation(row, passes=2), MODEL, DEFAULT_PLAY) is None  # the sit-out pass
    assert answer_from_packed(p, _situation(row, before="pass,play"), MODEL, DEFAULT_PLAY) is None
    assert answer_from_packed(p, _situation(row), get_model("bold"), DEFAULT_PLAY) is None
    assert answer_from_packed(p, _situation(row), MODEL, "greedy") is None


def test_a_full_table_is_preferred_and_the_shipped_folder_is_searched(packed, tmp_path, monkeypatch):
    table, p, path = packed
    row = table.frame.iloc[10]
    situation = _situation(row)
    assert find_answer(path.parent, situation, MODEL, DEFAULT_PLAY).meta["source"] == "table"
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(pack_module, "SHIPPED", shipped)
    answer = find_answer(tmp_path / "nothing-here", situation, MODEL, DEFAULT_PLAY)
    assert answer is not None and answer.meta["source"] == "packed table"
    assert answer.meta["table"] == str(shipped / path.name)


def test_the_table_discard_is_the_kernels(packed):
    """table_discard (plain Python, no compile wait) equals simulation.discard_cards (the kernel's rule)."""
    rng = random.Random(3)
    deck = list(SWISS.deck)
    for _ in range(300):
        cards = rng.sample(deck, 6)
        hand, trump = cards[:5], cards[5]
        k = rng.randrange(0, 6)
        assert table_discard(hand, k, trump, SWISS) == simulation.discard_cards(hand, k, trump // 16, SWISS)
    assert mask_of(table_discard(hand, 5, trump, SWISS)) == mask_of(hand)


# -- knock values in the metadata --------------------------------------------------------------------------------------
def test_format_2_keeps_the_knock_rows(packed, tmp_path):
    table, _, _ = packed
    rows = [{"trump_rank": 9, "ev_knock": -1.0, "ev_knock_low": -1.2, "ev_knock_high": -0.8, "ev_no_knock": -0.5,
             "ev_no_knock_low": -0.6, "ev_no_knock_high": -0.4, "gain": 0.5, "gain_low": 0.3, "gain_high": 0.7,
             "p_success": 0.8, "samples": 2000, "inner_samples": 200}]
    path = pack_frame(table.frame, table.manifest, len(enumerate_trump_rank_pairs(TINY)), tmp_path / "k.packed.parquet",
                      knock=pd.DataFrame(rows).to_dict(orient="records"))
    assert pack_module.knock_rows(load_packed(path)) == rows


# -- validity, refusals, size ------------------------------------------------------------------------------------------
def test_a_format_2_table_is_valid_and_a_changed_rule_is_caught(packed):
    _, _, path = packed
    assert check_packed(path, blocks=3, block=4).valid
    changed = TINY.replace(rumba_fail_score=TINY.rumba_fail_score + 1)
    assert not check_packed(path, blocks=3, block=4, rules=changed).valid


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
