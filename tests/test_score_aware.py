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
from rumbaodds.match.kernel import MAX_HANDS
from rumbaodds.match.score import PLAYED, VOID_NOBODY, game_array
from rumbaodds.match.scored import scored_batch
from rumbaodds.match.scored_twin import plain_class, table_policy
from rumbaodds.match.twin import twin_game
from rumbaodds.opponents.resolve import opponent_policy
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.strategy import store
from rumbaodds.strategy.game import A_PASS, A_PLAY, A_RUMBA, UNSET
from rumbaodds.strategy.score_aware import bucket_shares, game_table
from rumbaodds.strategy.score_classes import CLASSES, describe_class, score_class
from rumbaodds.strategy.score_solver import GameSampler, Trace, ValueTable, payout_scale
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
def test_settled_payout_by_rule():
    """§9.2 with one winner at 0 and the others at 7 and 12 [D-20]: to-winners 19 to him, the others pay their
    scores; pairwise (7-0)+(12-0); win-only 1; a winner at -2 counts 0 with the floor [D-19] and -2 without."""
    from rumbaodds.strategy.score_solver import settled_payout

    scores = np.array([[0, 7, 12], [0, 7, 12], [-2, 7, 12]])
    me = np.array([0, 1, 0])
    np.testing.assert_allclose(settled_payout(SWISS, scores, me), [19, -7, 19])
    pairwise = settled_payout(SWISS.replace(payout="pairwise"), scores, me)
    np.testing.assert_allclose(pairwise, [19, 19 - 3 * 7, 19])  # player 1 pays the winner 7 and gets 5
    np.testing.assert_allclose(settled_payout(SWISS.replace(payout="win-only"), scores, me), [1, 0, 1])
    assert settled_payout(SWISS.replace(score_floor=False, payout="pairwise"), scores[2:], me[2:])[0] == 17 + 6
    assert settled_payout(SWISS, np.array([[3, 7, 12]]), np.array([0]))[0] == 0  # not over: nothing paid
    assert payout_scale(SWISS, np.array([[7, 12]]))[0] == 19
    assert payout_scale(SWISS.replace(payout="win-only"), np.array([[7, 12]]))[0] == 1


def test_an_outcome_is_valued_in_the_game():
    """Player 0 one point from 0 (two passes behind him), the others at 10 and 20, player 2 deals. A trick wins
    him the game, paid the others' new scores; +3 leaves the game on, valued by the table; and a pass, which costs
    the sit-out penalty (+5, swiss rule 17), loses the game outright when player 1 goes out on that hand: what a
    seat that valued only its own points could not see."""
    rules, n = SWISS, 3
    table = np.full((40, 40), 0.5)
    table[4, 9] = 0.3
    values = ValueTable(table, np.ones((40, 40)))
    scores, passes = np.array([1, 10, 20]), np.array([2, 0, 0])
    trace = Trace(scores[None], passes[None], np.array([2]), np.zeros((1, 3)))
    sampler = GameSampler(rules, n, store.find(rules, n).abstraction, trace, values, 1, 1)
    actions = A_PLAY + rules.exchange_limit + 2
    q = np.full((1, actions), UNSET, dtype=np.int8)
    kinds = np.full((1, actions), -1, dtype=np.int8)
    changes = np.zeros((1, actions, n), dtype=np.int8)
    passed = np.zeros((1, actions, n), dtype=np.int8)
    for a, change, who_passed in ((A_PLAY, [-1, -2, -2], [0, 0, 0]), (A_RUMBA, [3, -1, 0], [0, 0, 1]),
                                  (A_PASS, [0, -10, 5], [1, 0, 0])):
        q[0, a], kinds[0, a] = change[0], PLAYED
        changes[0, a], passed[0, a] = change, who_passed
    info = np.zeros((1, 9), dtype=np.int64)
    classes = np.zeros(n, dtype=np.int64)
    _seat, _info, qf, _knock = sampler._valued(scores, passes, 2, classes, np.array([0]), info, q, kinds, changes,
                                               passed)
    now = 0.5 * (10 + 20)
    assert rules.pass_penalty(2) == 5 and rules.pass_penalty(0) == 0
    assert qf[0, A_PLAY] == pytest.approx(now - (8 + 18))  # he wins: the others pay their new scores
    assert qf[0, A_RUMBA] == pytest.approx(now - 0.3 * (9 + 20))  # at 4 against the leader at 9; player 2 paid
    assert qf[0, A_PASS] == pytest.approx(now - (-6))  # player 1 is out; he pays his 1 + 5
    assert np.isnan(qf[0, A_PLAY + 1])


def test_values_by_seat_follow_who_deals_next():
    """``--values-by-seat``: a cell seen often at both seats keeps each seat's mean, a cell seen once leans on its
    (distance, leader distance) value; and an outcome is valued at the seat of the hand that comes next: a played
    hand passes the deal left, a void one is dealt again by the same dealer [D-17]."""
    own = np.array([3] * 200 + [3])
    lead = np.array([2] * 200 + [4])
    seat = np.array([0, 1] * 100 + [1])
    pay = np.array([1.0, 0.0] * 100 + [1.0])
    values = ValueTable.fit(own, lead, pay, 10, seat, 2)
    assert values.value(3, 2) == pytest.approx(0.5, abs=0.01)
    assert values.value(3, 2, 0) == pytest.approx(1 - 10 / 120, abs=1e-3)  # 100 records against 20 of the cell
    assert values.value(3, 2, 1) == pytest.approx(10 / 120, abs=1e-3)
    assert values.value(3, 4, 0) == pytest.approx(values.value(3, 4))  # never seen at seat 0: its cell
    assert values.value(3, 4) < values.value(3, 4, 1) < 0.6  # seen once at seat 1, paying 1
    assert ValueTable.fit(own, lead, pay, 10).by_seat is None and values.value(3, 2, 0) != values.value(3, 2)

    rules, n = SWISS.replace(goal_score=0), 3
    table = np.zeros((40, 40, n))
    table[..., 0] = 1.0  # first to speak in the next hand: worth 1 unit, else 0
    values = ValueTable(np.full((40, 40), 0.5), np.ones((40, 40)), table)
    scores, passes = np.array([10, 10, 10]), np.zeros(3, dtype=np.int64)
    trace = Trace(scores[None], passes[None], np.array([2]), np.zeros((1, 3)))
    sampler = GameSampler(rules, n, store.find(rules, n).abstraction, trace, values, 1, 1)
    actions = A_PLAY + rules.exchange_limit + 2
    q = np.zeros((1, actions), dtype=np.int8)
    kinds = np.full((1, actions), -1, dtype=np.int8)
    kinds[0, A_PLAY], kinds[0, A_PASS] = PLAYED, VOID_NOBODY
    changes = np.zeros((1, actions, n), dtype=np.int8)
    passed = np.zeros((1, actions, n), dtype=np.int8)
    info = np.zeros((1, 9), dtype=np.int64)
    # player 0 speaks first under dealer 2: his value now is one unit (20 points, the others' scores)
    _s, _i, qf, _k = sampler._valued(scores, passes, 2, np.zeros(n, dtype=np.int64), np.array([0]), info, q, kinds,
                                     changes, passed)
    assert qf[0, A_PASS] == pytest.approx(0.0)  # void: dealer 2 deals again, he speaks first again
    assert qf[0, A_PLAY] == pytest.approx(20.0)  # played: dealer 0 deals next, he speaks last: worth 0


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


# -- the end of the game in the report (item 6) ----------------------------------------------------------------------
def test_endgame_grids_move_only_where_the_strategy_moves():
    """The grids are the score-aware strategy's shares; played by the per-hand equilibrium at every class (the
    negative control) every box equals the per-hand share, so the page's colours show only what the score
    changes."""
    from rumbaodds.report import endgame
    from rumbaodds.strategy.score_aware import class_rows

    rules, n = SWISS, 5
    base = store.find(rules, n)
    shares = bucket_shares(rules, base, hands=20_000)
    assert shares.sum() == pytest.approx(1.0) and (shares >= 0).all()
    rumba, play = endgame.first_speaker(base.strategy.word, shares)
    assert 0 <= rumba <= play <= 1
    tiled = Strategy(np.tile(base.strategy.word, (CLASSES, 1, 1, 1)), np.tile(base.strategy.throw, (CLASSES, 1, 1)),
                     np.tile(base.strategy.knock, CLASSES))
    for c in (0, 17, 70):
        assert endgame.first_speaker(class_rows(tiled, n, c).word, shares) == pytest.approx((rumba, play))
    solved = random_score_solved(rules, n)
    moved = [endgame.first_speaker(class_rows(solved.strategy, n, c).word, shares) for c in (0, 70)]
    assert moved[0] != pytest.approx(moved[1])


def test_ask_says_what_the_score_does_to_the_opponents():
    """The issue's question: the opponent one point from 0 decides by his class (own 1, leader 9+); the answer
    gives how often he joins a Rumba beside the per-hand equilibrium's rate, and this hand's opponents are
    score-aware (the per-hand part names them)."""
    result = CliRunner().invoke(main, ["ask", "HA HK HQ HJ S6", "--trump", "H8", "--players", "5", "--seat", "2",
                                       "--scores", "20,20,20,1,20", "--samples", "500", "--seed", "0", "--json"])
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["game"]
    seats = {o["seat"]: o for o in game["opponents_at_this_score"]}
    assert 2 not in seats and seats[3]["score_class"] == "own 1, leader 9+" and seats[0]["score"] == 20
    assert seats[3]["joins_a_rumba"] > seats[3]["joins_a_rumba_per_hand_equilibrium"]
    blind = CliRunner().invoke(main, ["ask", "HA HK HQ HJ S6", "--trump", "H8", "--players", "5", "--seat", "2",
                                      "--scores", "20,20,20,1,20", "--samples", "500", "--seed", "0", "--json",
                                      "--opponents", "hand-equilibrium"])
    assert blind.exit_code == 0, blind.output
    data = json.loads(blind.output)["game"]
    assert data["opponents_at_this_score"] == [] and "nobody looks at the score" in data["assumes"]


# -- the solver: resumable, and the same strategy however often it is stopped -----------------------------------------
@pytest.mark.parametrize("kill_at", [1, 3])
def test_a_killed_solve_resumes_to_the_same_strategy(tmp_path, monkeypatch, kill_at):
    """Stopped after an iteration of either round (a kill) and run again, the solve ends with exactly the strategy
    of a run that was never stopped; the second round's values come from the first round's games (rounds=2)."""
    from rumbaodds.strategy.score_solver import solve_score

    monkeypatch.setenv("RUMBAODDS_STRATEGIES", str(tmp_path / "cache"))
    args = dict(iterations=4, samples=600, seed=5, games=200, states=3, eval_samples=600, rounds=2)

    def kill(done, _total):
        if done == kill_at:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_score(SWISS, 3, out=tmp_path / "a.npz", progress=kill, **args)
    resumed = solve_score(SWISS, 3, out=tmp_path / "a.npz", **args)
    straight = solve_score(SWISS, 3, out=tmp_path / "b.npz", **args)
    assert resumed.meta["iterations"] == 4 and resumed.meta["rounds"] == 2
    for a, b in zip((resumed.strategy.word, resumed.strategy.throw, resumed.strategy.knock),
                    (straight.strategy.word, straight.strategy.throw, straight.strategy.knock)):
        np.testing.assert_array_equal(a, b)
    loaded = store.load(tmp_path / "a.npz")
    assert loaded.strategy.word.shape[0] == CLASSES * 3 and set(loaded.meta["exploitability_stakes"]) == {"0", "1", "2"}
    # negative control: another seed solves to another strategy
    other = solve_score(SWISS, 3, out=tmp_path / "c.npz", **{**args, "seed": 6})
    assert not np.array_equal(other.strategy.word, straight.strategy.word)


def test_a_finished_solve_goes_on_with_more_rounds_of_the_same_length(tmp_path, monkeypatch):
    """4 iterations in 2 rounds, then 6 in 3: exactly the strategy of 6 in 3 from the start; rounds of another
    length (8 in 2) or other settings are refused."""
    from rumbaodds.rules import RulesError
    from rumbaodds.strategy.score_solver import solve_score

    monkeypatch.setenv("RUMBAODDS_STRATEGIES", str(tmp_path / "cache"))
    args = dict(samples=600, seed=5, games=200, states=3, eval_samples=600)
    solve_score(SWISS, 3, out=tmp_path / "a.npz", iterations=4, rounds=2, **args)
    grown = solve_score(SWISS, 3, out=tmp_path / "a.npz", iterations=6, rounds=3, **args)
    straight = solve_score(SWISS, 3, out=tmp_path / "b.npz", iterations=6, rounds=3, **args)
    assert grown.meta["iterations"] == 6
    for a, b in zip((grown.strategy.word, grown.strategy.throw, grown.strategy.knock),
                    (straight.strategy.word, straight.strategy.throw, straight.strategy.knock)):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(RulesError, match="other settings"):
        solve_score(SWISS, 3, out=tmp_path / "b.npz", iterations=8, rounds=2, **args)
    with pytest.raises(RulesError, match="other settings"):
        solve_score(SWISS, 3, out=tmp_path / "b.npz", iterations=8, rounds=4, **{**args, "games": 300})
