"""The score map (issue 21 item 5): where the score changes a hand's best choice, and what the per-hand answer costs.

Hand-reasoned: with 1 point left any trick ends the game and wins it (RULES.md §9 [D-18]), everybody paying his
score [D-20]; a weak hand the per-hand answer passes is then played by the game value, clearly (the cost's interval
above 0) when the leader is one trick from home too. Negative control: far from the end (everybody near the start
score) the map finds no state where the per-hand answer is clearly wrong.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rumbaodds.cli import main
from rumbaodds.match.ask import ask_game
from rumbaodds.match.maps import cell_seed, grid_values, map_text, score_map
from rumbaodds.rules import RulesError

WEAK = ("ST C7 D8 S9 C6", "H8")  # per hand: pass (a trickless +5 costs more than a trick's -1 gains)


@pytest.fixture(scope="module")
def near_the_end():
    return score_map(*WEAK, 5, 2, (1, 16), (1,), samples=2000, seed=5)


def test_one_point_from_home_the_map_plays_what_the_hand_passes(near_the_end):
    m = near_the_end
    assert m.per_hand == "pass" and m.leader == 3 and m.others == 20
    home = m.cell(1, 1)
    assert home.game == "play" and home.cost_low > 1.0 and home.confirmed  # stakes, measured on other deals
    assert home in m.wrong and m.share_clearly_wrong >= 0.5
    low, high = m.share_wrong_95
    assert low <= m.share_wrong <= high and low == m.share_clearly_wrong
    for c in m.cells:  # a kept per-hand answer costs nothing; a changed one is measured, never assumed
        assert (c.cost == 0) == (c.game == m.per_hand) and c.cost_low <= c.cost <= c.cost_high
    assert m.mean_cost == pytest.approx(sum(c.cost for c in m.cells) / 2)
    cost_low, cost_high = m.mean_cost_95
    assert cost_low < m.mean_cost < cost_high
    assert m.per_hand_margin is not None and m.per_hand_runner_up is not None


def test_a_cell_chooses_on_one_run_and_measures_on_another(near_the_end):
    """The cell's action is the choosing run's, its payout and cost the measuring run's (other deals, other seed)."""
    scores = [20, 20, 1, 1, 20]
    choose = ask_game(*WEAK, 5, 2, scores, samples=2000, seed=cell_seed(5, 1, 1, "choose"))
    measure = ask_game(*WEAK, 5, 2, scores, samples=2000, seed=cell_seed(5, 1, 1, "measure"))
    cell = near_the_end.cell(1, 1)
    chosen = choose.game_actions()[choose.recommendation]
    assert cell.game == choose.recommendation and cell.payout == measure.payout(chosen).mean
    assert cell.p_win == measure.win[chosen].mean
    cost = measure.payout_difference(chosen, measure.game_actions()["pass"])
    assert cell.cost == pytest.approx(cost.mean) and cell.cost_low == pytest.approx(cost.low)
    assert len({cell_seed(5, o, b, r) for o in (1, 16) for b in (1, 4) for r in ("choose", "measure")}) == 8


@pytest.mark.statistical  # 600-deal games in every cell of the map, twice
def test_choosing_and_measuring_on_the_same_deals_biases_the_cost_upward():
    """The reason for two runs (issue 38 item 4): a per-hand answer that is right everywhere (far from the end)
    looks wrong in some cells when the best of noisy payouts is taken, and the margin measured on the same deals
    is then positive by construction; measured on other deals, the mean cost's interval holds 0."""
    m = score_map("HA HK S6 C7 D9", "H8", 5, 2, (17, 19), (17, 19), samples=600, seed=2)
    assert m.per_hand == "play"
    same_deal_costs = []
    for c in m.cells:
        scores = [20] * 5
        scores[2], scores[3] = c.own, c.best
        choose = ask_game("HA HK S6 C7 D9", "H8", 5, 2, scores, samples=600, seed=cell_seed(2, c.own, c.best,
                                                                                           "choose"))
        best = choose.game_actions()[choose.recommendation]
        same_deal_costs.append(choose.payout_difference(best, choose.game_actions()["play"]).mean)
    assert all(x >= 0 for x in same_deal_costs)  # the negative control: never below 0 on the choosing deals
    low, high = m.mean_cost_95
    assert low <= 0 <= high or m.mean_cost < sum(same_deal_costs) / len(same_deal_costs)


@pytest.mark.statistical  # the negative control of the map near the end: 1,500-deal games in every cell
def test_far_from_the_end_the_per_hand_answer_is_never_clearly_wrong():
    m = score_map("HA HK S6 C7 D9", "H8", 5, 2, (17, 19), (17, 19), samples=1500, seed=2)
    assert m.per_hand == "play"
    assert m.share_clearly_wrong == 0 and not any(c.confirmed for c in m.cells)
    text = map_text(m)
    assert "wrong in 0% to" in text and "positive = received" in text and "95% interval" in text


def test_grids_and_seats_are_checked():
    assert grid_values(1, 20, 3) == (1, 4, 7, 10, 13, 16, 19)
    with pytest.raises(RulesError, match="not a grid"):
        grid_values(5, 1, 1)
    with pytest.raises(RulesError, match="--leader"):
        score_map(*WEAK, 5, 2, (1,), (1,), leader=2, samples=10)
    with pytest.raises(RulesError, match="above the others"):
        score_map(*WEAK, 5, 2, (1,), (25,), samples=10)


def test_game_map_cli_json_and_one_line_errors():
    args = ["game-map", WEAK[0], "--trump", WEAK[1], "--players", "5", "--seat", "2"]
    result = CliRunner().invoke(main, [*args, "--own", "1,4,3", "--best", "1,1,1", "--samples", "300", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [(c["own"], c["best_opponent"]) for c in data["cells"]] == [(1, 1), (4, 1)]
    assert data["samples"] == 300 and data["seed"] == 0 and data["per_hand_recommendation"] == "pass"
    assert len(data["share_wrong_95"]) == 2 and len(data["mean_cost_95"]) == 2 and "per_hand_margin_95" in data
    for bad, words in [(["--own", "1,2"], "--own: 2 numbers"), (["--best", "5,1,1"], "--best: 5..1 step 1"),
                       (["--own", "1,x,3"], "'x' is not a whole number"), (["--samples", "0"], "--samples must be"),
                       (["--own", "1,400,1", "--best", "1,20,1"], "cells, more than")]:
        result = CliRunner().invoke(main, [*args, *bad])
        assert result.exit_code == 2 and words in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
