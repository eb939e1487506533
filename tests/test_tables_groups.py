"""Neighbour-group tables (rumbaodds.tables.groups, .group_model): one cell per group, a hand answered from its
representative's cell moved by an offset model and widened by what the model leaves.

Hand-worked widening, offsets and ranking; a group table built, packed, proved valid by recomputation (and a changed
rule caught); a member answered from its representative's cell, moved and widened, the representative itself not;
the report's vectorised reading equal to ask's; and on the tiny rule set, where every cell's exact value is
enumerable, the members' intervals hold their exact values at their stated rate while the representative's own
intervals hold them too rarely (negative control).
"""

from __future__ import annotations

import dataclasses
import functools
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from rumbaodds.answer.simulation import make_situation
from rumbaodds.cards import RANKS, cards_of, format_card, parse_card
from rumbaodds.engine.table import Z95
from rumbaodds.report.cells import decode_format2
from rumbaodds.report.group_cells import every_pair, quadrature
from rumbaodds.stats import Estimate
from rumbaodds.tables import TableSpec, build_table
from rumbaodds.tables.build import NEIGHBOURS, calibration_part, plan_rows
from rumbaodds.tables.group_model import (
    GroupModel,
    design,
    factor,
    member_cell,
    moved,
    moved_p,
    position,
    rank,
    widen_margin,
)
from rumbaodds.tables.groups import CALIBRATION_PARTS, calibration_pairs, standardised
from rumbaodds.tables.handclasses import enumerate_trump_rank_pairs
from rumbaodds.tables.neighbours import group_key, representative_index, representative_pair, representative_rows
from rumbaodds.tables.pack import Cell, answer_from_packed, decided_among, group_model, load_packed, pack_table
from rumbaodds.tables.validity import check_packed
from tests.test_pooling import DEALS, MODEL, PLAYERS, TINY, tiny_cells, tiny_runs

BELOW = "Q"  # the tiny deck's low side ranks: 9, T, J


# -- hand-worked --------------------------------------------------------------------------------------------
def test_no_distance_no_widening_and_a_distance_widens_more_with_more_deals():
    z0 = np.zeros(50)
    assert factor(z0, 100) == 1.0
    assert moved(Estimate(3.0, 2.0, 4.0, 100), 0.0, z0, 100) == Estimate(3.0, 2.0, 4.0, 100)
    z = np.full(50, 0.1)  # every member a tenth of a per-deal spread away
    assert 1.0 < factor(z, 16) < factor(z, 256) < factor(z, 4096)


def test_the_factor_is_worked_out_by_hand_for_one_distance():
    # every member exactly one sampling error away (z sqrt(n) = 1): the half-width w (in sampling errors) with
    # Phi(w - 1) - Phi(-w - 1) = 0.95 is w = 2.6461 (normal table: Phi(1.6461) = 0.95013, Phi(-3.6461) = 0.00013,
    # difference 0.95000); without the distance it would be 1.96
    w = factor(np.full(10, 0.1), 100) * Z95
    assert Phi(w - 1) - Phi(-w - 1) == pytest.approx(0.95, abs=1e-9)
    assert w == pytest.approx(2.6461, abs=1e-3)


def test_a_value_moves_by_its_offset_in_per_deal_spreads():
    # half 1 over 100 deals: sigma = 10 / Z95 per deal; an offset of 0.2 spreads moves the mean by 2 / Z95
    est = moved(Estimate(0.0, -1.0, 1.0, 100), 0.2, np.full(10, 0.1), 100)
    assert est.mean == pytest.approx(2 / Z95)
    assert est.half_width == pytest.approx(factor(np.full(10, 0.1), 100))


def test_the_margin_and_the_success_move_and_widen_as_the_module_says():
    m = widen_margin(Estimate(1.0, 0.0, 2.0, 100), [1.0, 2.0])
    assert m.half_width == pytest.approx(np.sqrt(1 + 1 + 4))
    p = moved_p(Estimate(0.5, 0.4, 0.6, 100), 0.0, np.full(10, 0.1))
    assert p.low < 0.4 and p.high > 0.6 and p.mean == 0.5
    up = moved_p(Estimate(0.5, 0.4, 0.6, 100), 0.1, np.zeros(10))  # 0.1 spreads of sqrt(0.25): +0.05
    assert (up.mean, up.low, up.high) == pytest.approx((0.55, 0.45, 0.65))
    sure = moved_p(Estimate(1.0, 0.97, 1.0, 100), 0.0, np.full(10, 0.1))  # a sure Rumba still widens downwards
    assert sure.low < 0.97 and sure.high == 1.0
    lower = moved_p(Estimate(1.0, 0.97, 1.0, 100), -0.05, np.full(10, 0.1))  # moved below 1, it may still be 1
    assert lower.mean == pytest.approx(0.99) and lower.high == 1.0 and lower.low < 0.96


def test_the_decision_is_ranked_as_the_kernel_ranks_it():
    assert rank({"pass": 0.0, "rumba": -1.0, "play": -2.0}, True) == ("play", "rumba")
    assert rank({"pass": 0.0, "rumba": -3.0, "play": -2.0}, False) == ("play", "pass")  # a dropped Rumba
    assert rank({"pass": 0.0, "rumba": 0.0, "play": 0.0}, True) == ("pass", "rumba")  # ties: pass, Rumba, play


def Phi(x: float) -> float:
    return NormalDist().cdf(x)


def test_position_sums_the_low_ranks_and_the_highest_per_side_suit():
    pairs = enumerate_trump_rank_pairs(TINY)
    # TINY's low side ranks below Q are 9, T, J (rank indices 7, 8, 9); C is the side suit (trumps: the last, D)
    hand = sum(1 << parse_card(c) for c in ("C9", "CJ"))
    row = pairs.row_of(RANKS.index("K"), hand)
    assert position(TINY, [row], BELOW).tolist() == [[7 + 9, 9]]
    trumps = pairs.row_of(RANKS.index("K"), sum(1 << parse_card(c) for c in ("D9", "DJ")))
    assert position(TINY, [trumps], BELOW).tolist() == [[0, 0]]  # trumps are never low side cards


def test_the_offset_model_recovers_a_linear_distance_and_leaves_no_residual():
    pairs = enumerate_trump_rank_pairs(TINY)
    reps = representative_rows(TINY, BELOW)
    index = representative_index(TINY, BELOW)
    members = np.array([p for p in range(len(pairs)) if reps[index[p]] != p])
    representatives = reps[index[members]]
    x = design(TINY, members, representatives, BELOW)
    z = x @ np.array([0.01, 0.05, -0.02])
    calibration = {"member": members, "representative": representatives, "play": z, "rumba": z,
                   "success": [None] * len(z)}
    model = GroupModel.fit(calibration, TINY, BELOW)
    assert model.beta["rumba"] == pytest.approx([0.01, 0.05, -0.02])
    assert np.abs(model.residual["rumba"]).max() < 1e-9 and len(model.residual["success"]) == 0
    noisy = dict(calibration, rumba=z + np.random.default_rng(1).normal(0, 0.1, len(z)))  # negative control
    assert np.quantile(GroupModel.fit(noisy, TINY, BELOW).residual["rumba"], 0.95) > 0.1


def test_every_pair_maps_to_a_representative_of_its_own_group_and_trump_rank():
    pairs = enumerate_trump_rank_pairs(TINY)
    reps = representative_rows(TINY, BELOW)
    suit = pairs.classes.trump_suit
    for pair in range(len(pairs)):
        rep = representative_pair(TINY, pair, BELOW)
        assert rep in reps and pairs.trump_ranks[rep] == pairs.trump_ranks[pair]
        key = group_key(int(pairs.classes.hands[pairs.class_rows[pair]]), suit, TINY, BELOW)
        assert group_key(int(pairs.classes.hands[pairs.class_rows[rep]]), suit, TINY, BELOW) == key
        if pair in reps:
            assert rep == pair


# -- a group table, built and packed --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def group_table(tmp_path_factory):
    spec = TableSpec(TINY, PLAYERS, MODEL, "expert", samples_per_cell=64, seed=5, neighbours=BELOW)
    folder = tmp_path_factory.mktemp("groups") / "tiny"
    build_table(spec, folder, chunk_cells=40)
    return spec, folder, pack_table(folder, folder.parent / "tiny.packed.parquet")


def test_a_group_table_holds_the_representatives_and_the_calibration(group_table):
    spec, folder, path = group_table
    reps = representative_rows(TINY, BELOW)
    assert np.array_equal(plan_rows(spec), reps) and len(reps) < len(enumerate_trump_rank_pairs(TINY))
    packed = load_packed(path)
    assert packed.pairs == len(reps) and len(packed.columns["code"]) == PLAYERS * len(reps)
    calibration = pd.read_parquet(folder / NEIGHBOURS)
    seats, members, rep_rows = calibration_pairs(spec)
    assert np.array_equal(calibration["member"], members) and not np.isin(members, reps).any()
    assert np.isin(rep_rows, reps).all()
    groups = packed.manifest["packed"]["neighbours"]
    z = standardised(calibration)
    assert groups["calibration"]["member"] == z["member"].tolist()
    assert groups["model"] == GroupModel.fit(groups["calibration"], TINY, BELOW).summary()
    assert groups["model"]["rumba"]["q95"] > 0  # the tiny deck's neighbours truly differ


def test_a_group_table_is_valid_and_a_changed_rule_is_caught(group_table):
    _, _, path = group_table
    assert check_packed(path, blocks=3, block=4).valid
    changed = dataclasses.replace(TINY, rumba_min_tricks=1)
    assert not check_packed(path, blocks=3, block=4, rules=changed).valid


def test_a_member_is_answered_from_its_representative_moved_and_widened(group_table):
    _, _, path = group_table
    packed = load_packed(path)
    pairs = enumerate_trump_rank_pairs(TINY)
    reps = set(representative_rows(TINY, BELOW).tolist())
    suit = format_card(pairs.classes.trump_suit * 16)[0]
    model = group_model(packed)
    checked = 0
    for pair in range(len(pairs)):
        rep = representative_pair(TINY, pair, BELOW)
        if pair in reps:
            continue

        def answer(p):
            hand = " ".join(format_card(c) for c in cards_of(int(pairs.classes.hands[pairs.class_rows[p]])))
            situation = make_situation(hand, f"{suit}{format_card(int(pairs.trump_ranks[p]))[1]}", PLAYERS, 0, TINY)
            return answer_from_packed(packed, situation, MODEL, "expert")

        own, member = answer(rep), answer(pair)
        if own is None or member is None:  # a decision the situation does not allow
            continue
        assert own.meta["group"]["own_cell"] and not member.meta["group"]["own_cell"]
        assert member.meta["cell"] == own.meta["cell"]  # the representative's cell
        shared = [name for name in own.options if name in member.options and name not in ("pass", "throw-in")]
        assert "rumba" in shared and any(name.startswith("play") for name in shared), shared
        x = design(TINY, [pair], [rep], BELOW)[0]
        for name in shared:  # the representative's numbers moved by the offset, each interval wider
            a, b = own.options[name].ev, member.options[name].ev
            key = "rumba" if name == "rumba" else "play"
            sigma = a.half_width * np.sqrt(a.samples) / Z95
            assert b.mean == pytest.approx(a.mean + float(model.offset(key, x)) * sigma, abs=1e-9)
            assert b.half_width > a.half_width
        p, q = own.options["rumba"].p_success, member.options["rumba"].p_success
        assert q.high - q.low > p.high - p.low
        checked += 1
    assert checked >= 5


# -- statistical: moved and widened intervals against the members' exact values -------------------------------
@functools.lru_cache(maxsize=1)
def member_coverage() -> dict[str, np.ndarray]:
    """Per value (Rumba, play): how often a member's interval from its representative's deals holds the member's
    exact value, over the RUNS simulations of tiny_runs: with the offset model and its widening (as shipped), with
    the widening of the raw distances alone, and bare (the representative's own interval: the negative control)."""
    seats, rows, _, exact = tiny_cells()
    ys, vs = tiny_runs()
    spec = TableSpec(TINY, PLAYERS, MODEL, "expert", samples_per_cell=64, seed=5, neighbours=BELOW)
    calibration = standardised(pd.concat([calibration_part(spec, p) for p in range(CALIBRATION_PARTS)]))
    model = GroupModel.fit(calibration, TINY, BELOW)
    reps = set(representative_rows(TINY, BELOW).tolist())
    where = {(int(s), int(r)): i for i, (s, r) in enumerate(zip(seats, rows))}
    members = [(i, where[(int(s), representative_pair(TINY, int(r), BELOW))], int(r))
               for i, (s, r) in enumerate(zip(seats, rows)) if int(r) not in reps]
    x = design(TINY, [m[2] for m in members], [int(rows[m[1]]) for m in members], BELOW)
    held = {"model": np.zeros(2), "raw": np.zeros(2), "bare": np.zeros(2)}
    for run in range(ys.shape[0]):
        for j, key in enumerate(("rumba", "play")):
            for (m, r, _), row in zip(members, x):
                half = Z95 * np.sqrt(vs[run, r, j])
                est = Estimate(ys[run, r, j], ys[run, r, j] - half, ys[run, r, j] + half, DEALS)
                fitted = moved(est, float(model.offset(key, row)), model.residual[key], DEALS)
                raw = moved(est, 0.0, model.raw[key], DEALS)
                held["model"][j] += abs(fitted.mean - exact[m, j]) <= fitted.half_width
                held["raw"][j] += abs(est.mean - exact[m, j]) <= raw.half_width
                held["bare"][j] += abs(est.mean - exact[m, j]) <= half
    return {k: v / (ys.shape[0] * len(members)) for k, v in held.items()} | {"summary": model.summary()}


@pytest.mark.statistical
def test_moved_and_widened_intervals_hold_the_members_exact_values():
    c = member_coverage()
    print(f"group cells for members (Rumba, play): offset model {c['model'].round(4).tolist()}, raw distances "
          f"{c['raw'].round(4).tolist()}, bare {c['bare'].round(4).tolist()}; model {c['summary']}")
    assert (c["model"] >= 0.93).all() and (c["raw"] >= 0.93).all(), c


@pytest.mark.statistical
def test_bare_the_representatives_intervals_hold_members_too_rarely():
    c = member_coverage()
    assert c["bare"].min() < 0.85 and (c["model"] - c["bare"]).min() > 0.05, c


def test_the_report_reads_every_pair_as_ask_does(group_table):
    """report.group_cells.every_pair (vectorised) against pack's reader and group_model.member_cell, cell by cell."""
    _, _, path = group_table
    packed = load_packed(path)
    d, source = every_pair(decode_format2(packed), packed, TINY, PLAYERS)
    index = representative_index(TINY, BELOW)
    reps = representative_rows(TINY, BELOW)
    model = group_model(packed)
    kinds = {"pass": 0, "rumba": 1, "play": 2}
    assert len(d.code) == PLAYERS * len(index)
    for seat in range(PLAYERS):
        for pair in range(len(index)):
            cell = packed.cell(seat * packed.pairs + int(index[pair]))
            if reps[index[pair]] != pair:
                cell = member_cell(cell, model, design(TINY, [pair], [reps[index[pair]]], BELOW)[0])
            i = seat * len(index) + pair
            assert source[i] == seat * packed.pairs + int(index[pair])
            assert d.samples[i] == (cell.samples if reps[index[pair]] == pair else 0)  # each deal counted once
            assert d.values["play"][0][i] == pytest.approx(cell.play.mean)
            assert d.values["play"][1][i] == pytest.approx(cell.play.half_width)
            assert d.values["rumba"][1][i] == pytest.approx(cell.rumba.half_width)
            assert d.values["rumba"][0][i] == pytest.approx(cell.rumba.mean)
            assert d.margin_half[i] == pytest.approx(cell.margin.half_width)
            assert d.margin[i] == pytest.approx(cell.margin.mean)
            assert (d.code[i] & 3, (d.code[i] >> 2) & 3) == (kinds[cell.best], kinds[cell.runner])
            assert d.p_success[i] == pytest.approx(cell.p_success.mean)


def test_cells_of_one_group_share_their_error_in_a_box():
    """report.group_cells.quadrature: independent cells add in quadrature; cells reading one group's cell add first."""
    key = np.array([0, 0, 0, 1])
    x = np.array([3.0, 4.0, 12.0, 5.0])
    assert quadrature(key, x, 2).tolist() == pytest.approx([13.0, 5.0])
    # the first two cells read one packed cell: (3 + 4)^2 + 12^2 = 193
    assert quadrature(key, x, 2, np.array([7, 7, 2, 7])).tolist() == pytest.approx([np.sqrt(193.0), 5.0])


def test_a_decision_the_situation_bars_is_ranked_again_among_the_allowed_choices():
    """pack.decided_among: the table ranked pass first, pass is barred: play against the Rumba, unpaired."""
    est = lambda m, h: Estimate(m, m - h, m + h, 48)  # noqa: E731
    cell = Cell("pass", "play", 1, False, False, 48, 48.0, 32, est(1.0, 0.5), est(0.4, 0.1), est(1.0, 0.5),
                est(3.0, 1.2))
    again = decided_among(cell, {"play", "rumba"})
    assert (again.best, again.runner) == ("play", "rumba")
    assert again.margin.mean == pytest.approx(2.0) and again.margin.half_width == pytest.approx(np.hypot(0.5, 1.2))
    assert decided_among(cell, {"play"}) is None  # one choice: nothing to decide
    assert decided_among(dataclasses.replace(cell, play=None, rumba=None), {"play", "rumba"}) is None  # format 1
