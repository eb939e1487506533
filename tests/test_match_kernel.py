"""The game kernel equals its plain-Python twin game by game, and gives the same games however it is batched."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from rumbaodds.engine.rules_layout import rules_array
from rumbaodds.match import game_values
from rumbaodds.match.api import game_policy
from rumbaodds.match.kernel import MAX_HANDS, hand_batch
from rumbaodds.match.score import PLAYED, THROWN_IN, VOID_NOBODY, game_array
from rumbaodds.match.scored import game_batch
from rumbaodds.match.twin import twin_game, twin_hand
from rumbaodds.opponents.models import OpponentModel
from rumbaodds.rules import FLEMISH, SWISS, RuleSet
from rumbaodds.twins.common import Stream, mix64

TINY = RuleSet(name="tiny-swiss", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3,
               exchange_limit=1, rumba_min_tricks=2, throw_in_below="J", start_score=4)
TINY_MODEL = OpponentModel("tiny", rumba_points=7, play_points=3, join_points=5, join_knock_points=4, discard_below=1)
KNOCK_ON_KINGS = np.array([1.0 if r == 11 else 0.0 for r in range(16)])  # K is rank index 11


def run(rules, n, scores, dealer, policy, knock, seed, start, count, passes=None):
    passes = np.zeros(n, np.int64) if passes is None else np.array(passes, np.int64)
    return game_batch(rules.deck_array(), n, np.array(scores, np.int64), passes, dealer, rules_array(rules),
                      game_array(rules), policy.as_tuple(), knock, 1, np.uint64(seed), np.uint64(start), count,
                      MAX_HANDS)


def assert_twin_equal(rules, n, scores, dealer, policy, knock, games, seed=11, passes=None):
    finals, wins, pays, deals = run(rules, n, scores, dealer, policy, knock, seed, 0, games, passes)
    for g in range(games):
        tf, tw, tp, td = twin_game(rules, n, scores, passes or [0] * n, dealer, policy, knock, "expert", seed, g)
        assert (tf.tolist(), tw.tolist(), td) == (finals[g].tolist(), wins[g].tolist(), deals[g]), f"game {g}"
        assert np.allclose(tp, pays[g])
    return deals


@pytest.mark.parametrize("rules, n", [(SWISS, 5), (FLEMISH, 4)])
def test_kernel_equals_twin_on_the_presets_with_the_equilibrium(rules, n):
    policy, knock = game_policy(rules, n)
    assert rules.knock == bool(knock.any())  # the swiss dealer knocks by the solved strategy
    deals = assert_twin_equal(rules, n, [rules.start_score] * n, n - 1, policy, knock, 25)
    assert (deals > 1).all()


@pytest.mark.parametrize("changes", [
    {},
    {"void_counts_as_pass": True, "payout": "pairwise", "score_floor": False},
    {"speaking_order": "rumba-first", "winners": "lowest", "payout": "win-only"},
    {"passer_cards": "put-away", "lone_rumba_allowed": False, "others_after_rumba": "must-play"},
])
def test_kernel_equals_twin_on_house_rules(changes):
    rules = TINY.replace(max_players=3, **changes)
    policy, _ = game_policy(rules, 3, TINY_MODEL)
    assert_twin_equal(rules, 3, [4, 6, 3], 1, policy, KNOCK_ON_KINGS, 60, passes=[0, 2, 1])


def test_single_hands_equal_the_twin_and_cover_every_kind():
    policy, _ = game_policy(TINY, 3, TINY_MODEL)
    kinds, changes, passed = hand_batch(TINY.deck_array(), 3, rules_array(TINY), policy.as_tuple(),
                                        KNOCK_ON_KINGS, 1, np.uint64(3), np.uint64(0), 400)
    for i in range(400):
        kind, ch, ps = twin_hand(TINY, 3, policy, KNOCK_ON_KINGS, "expert", mix64(Stream(3, i).state))
        assert (kind, ch, ps) == (kinds[i], changes[i].tolist(), passed[i].tolist()), f"hand {i}"
    assert {PLAYED, THROWN_IN, VOID_NOBODY} <= set(kinds.tolist())


def test_games_do_not_depend_on_batches_or_threads():
    policy, knock = game_policy(FLEMISH, 4)
    whole = run(FLEMISH, 4, [9, 12, 21, 5], 0, policy, knock, 7, 100, 60)
    parts = [run(FLEMISH, 4, [9, 12, 21, 5], 0, policy, knock, 7, 100 + a, b - a) for a, b in ((0, 17), (17, 60))]
    for k in range(4):
        assert np.array_equal(whole[k], np.concatenate([p[k] for p in parts]))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = run(FLEMISH, 4, [9, 12, 21, 5], 0, policy, knock, 7, 100, 60)
    finally:
        numba.set_num_threads(before)
    for k in range(4):
        assert np.array_equal(whole[k], single[k])
    # another seed gives other games
    assert not np.array_equal(whole[0], run(FLEMISH, 4, [9, 12, 21, 5], 0, policy, knock, 8, 100, 60)[0])


def test_game_values_resume_and_add_up():
    first = game_values("flemish", 3, scores=[6, 8, 10], games=300, seed=5)
    resumed = game_values("flemish", 3, scores=[6, 8, 10], games=200, seed=5, start=300,
                          into=game_values("flemish", 3, scores=[6, 8, 10], games=300, seed=5))
    whole = game_values("flemish", 3, scores=[6, 8, 10], games=500, seed=5)
    assert resumed.games == 500 and np.allclose(resumed.pay_sum, whole.pay_sum) and np.allclose(resumed.wins,
                                                                                                  whole.wins)
    assert first.unfinished == 0 and abs(whole.payout.sum()) < 1e-9  # to-winners is zero-sum
    assert abs(whole.p_win.sum() - 1.0) < 1e-9 and 0 < whole.ties < 100  # shares of a tie add up to one win
    assert whole.p_win[0] > whole.p_win[2]  # 6 points from home beats 10
