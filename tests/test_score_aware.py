"""Players who see the score (issue 38): score classes by hand, the scored game kernel against the plain one and
against its twin, the game's values of an outcome, and what `game` and `ask --scores` say they assumed."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rumbaodds.cli import main
from rumbaodds.engine.rules_layout import rules_array
from rumbaodds.match.api import table_assumes, table_for
from rumbaodds.match.kernel import MAX_HANDS, game_batch
from rumbaodds.match.score import game_array
from rumbaodds.match.scored import scored_batch
from rumbaodds.match.scored_twin import plain_class, table_policy
from rumbaodds.match.twin import twin_game
from rumbaodds.opponents.resolve import opponent_policy
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.strategy import store
from rumbaodds.strategy.game import A_PASS, A_PLAY, A_RUMBA, UNSET
from rumbaodds.strategy.score_aware import game_table
from rumbaodds.strategy.score_classes import CLASSES, describe_class, score_class
from rumbaodds.strategy.score_solver import GameSampler, Trace, ValueTable, payout_scale, win_payout
from rumbaodds.strategy.tables import Strategy


# -- the score class: hand-worked ------------------------------------------------------------------------------------
@pytest.mark.parametrize("scores, passes, player, words", [
    ([1, 20, 20, 20, 20], [0] * 5, 0, "own 1, leader 9+"),
    ([20, 20, 20, 1, 20], [0] * 5, 2, "own 9+, leader 1"),
    ([5, 4, 8, 9, 3], [0] * 5, 0, "own 4-5, leader 3"),
    ([6, 8, 9, 12, 20], [0] * 5, 1, "own 6-8, leader 6-8"),
    # swiss rule 17: the third pass in a row costs the penalty, so a player with two passes behind him is "due"
    ([14, 20, 20, 20, 2], [2, 0, 0, 0, 0], 0, "own 9+, leader 2, a pass costs the sit-out penalty"),
    ([14, 20, 20, 20, 2], [1, 0, 0, 0, 0], 0, "own 9+, leader 2"),
])
def test_score_class_by_hand(scores, passes, player, words):
    assert describe_class(score_class(SWISS, scores, passes, player)) == words
    assert plain_class(SWISS, scores, passes, player) == score_class(SWISS, scores, passes, player)


def test_flemish_never_charges_a_pass():
    """Flemish has no sit-out penalty: however many passes, no class is "due" (a rule field moves the class)."""
    assert FLEMISH.sit_out_limit == 0
    assert score_class(FLEMISH, [14, 20, 20, 2], [5, 0, 0, 0], 0) % 2 == 0
    assert score_class(SWISS, [14, 20, 20, 20, 2], [5, 0, 0, 0, 0], 0) % 2 == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=2, max_size=7), st.data())
def test_kernel_class_equals_plain_class(scores, data):
    n = len(scores)
    passes = data.draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    player = data.draw(st.integers(0, n - 1))
    c = score_class(SWISS, scores, passes, player)
    assert 0 <= c < CLASSES and c == plain_class(SWISS, scores, passes, player)


# -- the scored game kernel -------------------------------------------------------------------------------------------
def hand_table(rules, n):
    pol = opponent_policy("equilibrium", rules, n)
    knock = np.asarray(store.find(rules, n).strategy.knock, dtype=np.float64)
    return pol, knock, game_table(rules, n, [("hand-equilibrium", pol, knock)] * n, None)


def random_score_solved(rules, n, seed=3):
    """A score-aware strategy whose classes all differ (random rows): class selection shows in every game."""
    base = store.find(rules, n)
    rng = np.random.default_rng(seed)
    word = rng.random((CLASSES * n,) + base.strategy.word.shape[1:])
    word[..., A_RUMBA] *= 0.3
    word /= word.sum(axis=-1, keepdims=True)
    throw = rng.random((CLASSES * n,) + base.strategy.throw.shape[1:]) * 0.3
    knock = rng.random(CLASSES * 16) * (1.0 if rules.knock else 0.0)
    return store.Solved(Strategy(word, throw, knock), rules, n, base.abstraction, {"name": "score-equilibrium"})


def run_scored(rules, n, table, scores, seed, count, trace=0, dealer=None):
    return scored_batch(rules.deck_array(), n, np.array(scores, np.int64), np.zeros(n, np.int64),
                        n - 1 if dealer is None else dealer, rules_array(rules), game_array(rules), table.stack,
                        table.knock_stack, table.fixed, table.fixed_knock, table.aware, 1, np.uint64(seed),
                        np.uint64(0), count, MAX_HANDS, trace)


@pytest.mark.parametrize("rules, n", [(SWISS, 5), (FLEMISH, 4)])
def test_nobody_sees_the_score_plays_the_plain_games(rules, n):
    """With every player on a fixed policy the scored kernel plays exactly ``kernel.game_batch``'s games."""
    pol, knock, table = hand_table(rules, n)
    scores = [rules.start_score] * n
    a = run_scored(rules, n, table, scores, 7, 300)
    b = game_batch(rules.deck_array(), n, np.array(scores, np.int64), np.zeros(n, np.int64), n - 1,
                   rules_array(rules), game_array(rules), pol.as_tuple(), knock, 1, np.uint64(7), np.uint64(0), 300,
                   MAX_HANDS)
    for x, y in zip(a[:4], b):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("rules, n, scores", [(SWISS, 5, [6, 3, 9, 2, 12]), (FLEMISH, 4, [4, 7, 2, 9])])
def test_scored_kernel_equals_twin_game_by_game(rules, n, scores):
    """Score-aware players (random class strategies, so that a wrong class shows) and one blind player: the kernel
    and the twin (``twin.continue_game`` with ``scored_twin.table_policy``) play the same games."""
    pol, knock, _ = hand_table(rules, n)
    solved = random_score_solved(rules, n)
    table = game_table(rules, n, [("equilibrium", None, None)] * (n - 1) + [("hand-equilibrium", pol, knock)], solved)
    finals, wins, pays, deals, *_ = run_scored(rules, n, table, scores, 11, 8)
    at = table_policy(rules, table)
    for g in range(8):
        tf, tw, tp, td = twin_game(rules, n, scores, [0] * n, n - 1, at, None, "expert", 11, g)
        assert (finals[g].tolist(), int(deals[g])) == (list(tf), td), g
        np.testing.assert_allclose(pays[g], tp)


def test_a_class_strategy_changes_the_games():
    """Negative control: the same table with the classes' rows shuffled plays other games."""
    rules, n = SWISS, 5
    solved = random_score_solved(rules, n)
    table = game_table(rules, n, [("equilibrium", None, None)] * n, solved)
    other = random_score_solved(rules, n, seed=4)
    table2 = game_table(rules, n, [("equilibrium", None, None)] * n, other)
    a = run_scored(rules, n, table, [6, 3, 9, 2, 12], 11, 200)
    b = run_scored(rules, n, table2, [6, 3, 9, 2, 12], 11, 200)
    assert not np.array_equal(a[0], b[0])


def test_trace_records_every_hand_state():
    rules, n = SWISS, 4
    _pol, _knock, table = hand_table(rules, n)
    finals, _w, _p, deals, ts, tp, td = run_scored(rules, n, table, [20] * n, 5, 50, trace=256)
    for g in range(50):
        hands = int(deals[g])
        assert (ts[g, 0] == 20).all() and td[g, 0] == n - 1
        assert (td[g, :hands] >= 0).all() and (td[g, hands:] == -1).all()
        assert (ts[g, hands - 1] > 0).all()  # the last hand starts before anybody is out


# -- the game's value of an outcome ----------------------------------------------------------------------------------
def test_win_payout_by_rule():
    """§9.2 for one winner with the others at 7 and 12 [D-20]: to-winners 19, pairwise (7-0)+(12-0), win-only 1;
    a winner at -2 counts 0 with the floor [D-19]."""
    others = np.array([[7, 12]])
    assert win_payout(SWISS, others, np.array([0]))[0] == 19
    assert win_payout(SWISS.replace(payout="pairwise"), others, np.array([-2]))[0] == 19
    assert win_payout(SWISS.replace(payout="win-only"), others, np.array([0]))[0] == 1
    assert payout_scale(SWISS, others)[0] == 19 and payout_scale(SWISS.replace(payout="win-only"), others)[0] == 1


def test_an_outcome_is_valued_in_the_game():
    """A seat one point from 0: a trick (-1) wins the game, paid in full; +3 costs the table's value at distance 4;
    a pass after two passes in a row costs the sit-out penalty (+5, swiss rule 17): the value at distance 6."""
    rules, n = SWISS, 3
    table = np.ones((40, 40)) * 0.5
    table[6, :] = 0.2
    table[4, :] = 0.3
    values = ValueTable(table, np.ones((40, 40)))
    trace = Trace(np.array([[1, 10, 20]]), np.array([[2, 0, 0]]), np.array([2]), np.zeros((1, 3)))
    sampler = GameSampler(rules, n, store.find(rules, n).abstraction, trace, values, 1, 1)
    traversers = np.array([0])
    info = np.zeros((1, 9), dtype=np.int64)
    q = np.full((1, A_PLAY + rules.exchange_limit + 2), UNSET, dtype=np.int8)
    q[0, A_PASS], q[0, A_RUMBA], q[0, A_PLAY] = 0, 3, -1
    classes = np.zeros(n, dtype=np.int64)
    _seat, _info, qf, _knock = sampler._valued(trace.scores[0], trace.passes[0], 2, classes, traversers, info, q)
    scale = 10 + 20
    now = 0.5 * scale
    assert qf[0, A_PLAY] == pytest.approx(now - 30)  # wins now: the others' 10 + 20
    assert qf[0, A_RUMBA] == pytest.approx(now - 0.3 * scale)
    assert rules.pass_penalty(2) == 5  # his third pass in a row: +5, to distance 6
    assert qf[0, A_PASS] == pytest.approx(now - 0.2 * scale)
    assert np.isnan(qf[0, A_PLAY + 1])


# -- what the answers say -------------------------------------------------------------------------------------------
def test_table_names_who_sees_the_score():
    table = table_for(SWISS, 5, "equilibrium,0=hand-equilibrium,3=bold")
    assert table.names[0] == "hand-equilibrium" and table.names[3] == "bold"
    if table.sees_score[1]:  # a score-aware strategy is shipped
        assert table.sees_score == [False, True, True, False, True]
        assert "player 0 by hand-equilibrium, blind to the score" in table_assumes(table)
    blind = table_for(SWISS, 5, "hand-equilibrium")
    assert blind.sees_score == [False] * 5 and "nobody looks at the score" in table_assumes(blind)


def test_game_seat_model_is_a_player_and_says_so():
    result = CliRunner().invoke(main, ["game", "--rules", "swiss", "--players", "4", "--games", "300", "--seed", "1",
                                       "--seat-model", "0=hand-equilibrium", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["players_see_the_score"][0] is False
    assert "player 0 by hand-equilibrium" in data["assumes"] or "nobody looks at the score" in data["assumes"]
    bad = CliRunner().invoke(main, ["game", "--rules", "swiss", "--players", "4", "--seat-model", "9=bold"])
    assert bad.exit_code == 2 and "player 9 does not exist" in bad.output
