"""Every clause of RULES.md §9 on hand-worked short games (``match.score``, which kernel and twin both use).

Hand results are written seat by seat (seat 0 is the dealer's left neighbour, §2): (kind, changes, passed).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rumbaodds.match.score import PLAYED, THROWN_IN, VOID_NOBODY, apply_hands, settle_scores
from rumbaodds.rules import FLEMISH, SWISS

NOBODY = [0, 0, 0]


def played(*changes, passed=None):
    return PLAYED, list(changes), list(passed or [0] * len(changes))


def test_the_game_ends_after_the_first_hand_someone_reaches_zero():
    # players 0, 1, 2; player 2 deals first, so seat s is player s in hand 1
    scores, passes, dealer, used, over = apply_hands(SWISS, [3, 10, 12], [0, 0, 0], 2, [
        played(-2, 5, -3),  # -> [1, 15, 9]; the deal passes left: player 0 deals [D-17]
        played(-1, -1, -3),  # dealer 0: seat 0 is player 1, seat 1 player 2, seat 2 player 0 -> [-2, 14, 8]
        played(-5, 0, 0),  # never dealt: the game is over
    ])
    assert (scores.tolist(), dealer, used, over) == ([-2, 14, 8], 1, 2, True)
    won, payout = settle_scores(SWISS, scores)
    # [D-18] the player at 0 or below wins; [D-19] -2 counts as 0; [D-20] the others pay their scores to him
    assert won.tolist() == [1, 0, 0] and payout.tolist() == [22.0, -14.0, -8.0]


def test_reaching_exactly_zero_ends_the_game_and_one_point_does_not():
    assert apply_hands(SWISS, [4, 9, 9], NOBODY, 2, [played(-3, 0, 0)])[4] is False
    assert apply_hands(SWISS, [4, 9, 9], NOBODY, 2, [played(-4, 0, 0)])[4] is True


def test_ties_share_the_win():
    scores = [-1, 0, 10]
    won, payout = settle_scores(SWISS, scores)  # [D-18] both at 0 or below win; [D-20] shared equally
    assert won.tolist() == [1, 1, 0] and payout.tolist() == [5.0, 5.0, -10.0]
    won, payout = settle_scores(SWISS.replace(payout="win-only"), scores)  # §9.2 a shared win of 1
    assert payout.tolist() == [0.5, 0.5, 0.0]
    # winners = lowest: with the floor both count 0 and tie; without it -1 alone wins, the 0 pays nothing
    assert settle_scores(SWISS.replace(winners="lowest"), scores)[0].tolist() == [1, 1, 0]
    won, payout = settle_scores(SWISS.replace(winners="lowest", score_floor=False), scores)
    assert won.tolist() == [1, 0, 0] and payout.tolist() == [10.0, -0.0, -10.0]


def test_below_zero_and_the_pairwise_settlement():
    scores = [-3, 4, 8]
    # pairwise with the floor [D-19]: 0, 4, 8 -> p0 gets 4 + 8, p1 gets 4 from p2 and pays 4 to p0
    assert settle_scores(SWISS.replace(payout="pairwise"), scores)[1].tolist() == [12.0, 0.0, -12.0]
    # score_floor = false: -3 keeps its value: p0 gets 7 + 11, p1 gets 4 and pays 7, p2 pays 11 + 4
    assert settle_scores(SWISS.replace(payout="pairwise", score_floor=False), scores)[1].tolist() == \
        [18.0, -3.0, -15.0]
    assert settle_scores(SWISS.replace(score_floor=False), scores)[1].tolist() == [12.0, -4.0, -8.0]


def test_a_void_hand_is_dealt_again_by_the_same_dealer():
    for kind in (THROWN_IN, VOID_NOBODY):
        scores, passes, dealer, used, over = apply_hands(SWISS, [5, 6, 7], [2, 1, 0], 1, [(kind, NOBODY, None)])
        assert (scores.tolist(), passes.tolist(), dealer, over) == ([5, 6, 7], [2, 1, 0], 1, False)
    # §9.1 void_counts_as_pass: a hand nobody played is everybody's pass (the third pass in a row costs 5)
    rules = SWISS.replace(void_counts_as_pass=True)
    scores, passes, dealer, _, _ = apply_hands(rules, [5, 6, 7], [2, 1, 0], 1, [(VOID_NOBODY, NOBODY, [1, 1, 1])])
    assert (scores.tolist(), passes.tolist(), dealer) == ([10, 6, 7], [3, 2, 1], 1)
    # ... but a throw-in never is [D-4]
    assert apply_hands(rules, [5, 6, 7], [2, 1, 0], 1, [(THROWN_IN, NOBODY, None)])[1].tolist() == [2, 1, 0]


def test_streaks_carry_over_from_hand_to_hand():
    # player 0 passes three played hands in a row while the deal goes round: the third costs +5 (rule 17), a
    # fourth again (sit_out_repeats); playing a hand starts the streak again
    dealer, results = 2, []
    for hand in range(5):
        seat = (0 - dealer - 1) % 3  # player 0's seat in this hand
        change = [-1, -1, -1]
        passed = [0, 0, 0]
        change[seat], passed[seat] = 0, 1
        if hand == 4:
            change[seat], passed[seat] = -2, 0
        results.append(played(*change, passed=passed))
        dealer = (dealer + 1) % 3
    scores, passes, dealer, used, over = apply_hands(SWISS, [20, 20, 20], NOBODY, 2, results)
    # player 0: 0, 0, +5, +5, -2; players 1, 2: -1 in each of 5 hands... minus the hand player 0 played (-1 too)
    assert scores.tolist() == [28, 15, 15] and passes.tolist() == [0, 0, 0] and used == 5 and not over
    # the same passes with streaks from an earlier part of the game: two passes before, the first pass here costs
    assert apply_hands(SWISS, [20, 20, 20], [2, 0, 0], 2, results[:1])[0].tolist() == [25, 19, 19]
    # sit_out_repeats = false: the streak restarts after a penalty (the 3rd and 6th pass cost, the 4th not)
    once = apply_hands(SWISS.replace(sit_out_repeats=False), [20, 20, 20], NOBODY, 2, results[:4])[0]
    assert once.tolist()[0] == 25
    # flemish has no sit-out penalty (§5.8)
    assert apply_hands(FLEMISH, [21, 21, 21], NOBODY, 2, results[:4])[0].tolist()[0] == 21


def test_the_deal_passes_left_and_seats_follow_the_dealer():
    # dealer 1 of 4: seat 0 is player 2, seat 3 (the dealer) player 1
    scores, _, dealer, _, _ = apply_hands(FLEMISH, [21, 21, 21, 21], [0] * 4, 1, [played(-1, -2, -3, 5)])
    assert scores.tolist() == [18, 26, 20, 19] and dealer == 2


@given(st.lists(st.integers(-10, 40), min_size=2, max_size=7).filter(lambda s: min(s) <= 0),
       st.sampled_from(["to-winners", "pairwise"]), st.booleans(), st.sampled_from(["at-goal", "lowest"]))
def test_money_payouts_are_zero_sum_and_winners_never_lose(scores, payout, floor, winners):
    rules = SWISS.replace(payout=payout, score_floor=floor, winners=winners)
    won, pay = settle_scores(rules, scores)
    assert won.sum() >= 1 and abs(pay.sum()) < 1e-9
    assert all(pay[p] >= 0 for p in range(len(scores)) if won[p]) or not floor
    assert all(scores[p] <= 0 for p in np.flatnonzero(won))


@pytest.mark.parametrize("scores", [[3, 4], [5, 9, 12]])
def test_an_open_game_pays_nothing(scores):
    won, pay = settle_scores(SWISS, scores)
    assert won.sum() == 0 and not pay.any()
