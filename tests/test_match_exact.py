"""Truth on a tiny game: the game simulator's values equal exact dynamic programming, state by state (issue 21).

Tiny swiss-like rules (3 suits of T J Q K, two cards each, two players, start score 4). One hand's outcome is
exact over every order of the cards a hand can reach (``match.exact``); the game's values then solve a linear
system over score states (scores, streaks, dealer). Every start state with both scores in 1..4, either dealer,
no streaks or streaks of two passes (the next pass costs +5), is simulated with the kernel; each exact value must
lie in the simulator's interval (Bonferroni over all comparisons), and three wrong games must be caught.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest

from rumbaodds.engine.rules_layout import rules_array
from rumbaodds.match.api import game_policy
from rumbaodds.match.exact import game_table, hand_distribution, outcome_summary
from rumbaodds.match.kernel import MAX_HANDS
from rumbaodds.match.score import PLAYED, apply_hand, game_array
from rumbaodds.match.scored import game_batch
from tests.test_match_kernel import KNOCK_ON_KINGS, TINY, TINY_MODEL

pytestmark = pytest.mark.statistical

RULES = TINY.replace(max_players=2)
N = 2
GAMES = 6_000
STARTS = [((a, b), passes, d) for a in range(1, 5) for b in range(1, 5) for d in range(N)
          for passes in ((0, 0), (2, 2))]
Z = NormalDist().inv_cdf(1 - 0.01 / (2 * 2 * len(STARTS)))  # family-wise 1% over payout and win share


def forget_streaks(scores, passes, dealer, kind, changes, passed, rp):
    """Wrong: the sit-out streak starts again every hand (§9.1 says it carries over)."""
    passes[:] = 0
    return apply_hand(scores, passes, dealer, kind, changes, passed, rp)


def void_passes_the_deal(scores, passes, dealer, kind, changes, passed, rp):
    """Wrong: a void hand is dealt again by the next dealer ([D-17] says the same one)."""
    after = apply_hand(scores, passes, dealer, kind, changes, passed, rp)
    return after if kind == PLAYED else (dealer + 1) % len(scores)


@pytest.fixture(scope="module")
def truth():
    policy, _ = game_policy(RULES, N, TINY_MODEL)
    outcomes = hand_distribution(RULES, N, policy, KNOCK_ON_KINGS)
    kinds = outcome_summary(outcomes)
    assert abs(sum(kinds.values()) - 1) < 1e-12 and min(kinds.values()) > 0.02  # played, void, thrown in
    exact, cut, (wrong_payout,) = game_table(RULES, N, outcomes, STARTS,
                                             also=[RULES.replace(payout="pairwise", score_floor=False)])
    assert cut.max() < 1e-4  # the states cut off above 40 points move no value visibly
    sims = {}
    for k, (scores, passes, dealer) in enumerate(STARTS):
        _f, wins, pays, deals = game_batch(RULES.deck_array(), N, np.array(scores, np.int64),
                                           np.array(passes, np.int64), dealer, rules_array(RULES), game_array(RULES),
                                           policy.as_tuple(), KNOCK_ON_KINGS, 1, np.uint64(21), np.uint64(k * GAMES),
                                           GAMES, MAX_HANDS)
        assert (deals > 0).all()
        share = wins / wins.sum(axis=1, keepdims=True)
        sims[k] = (pays[:, 0], share[:, 0])
    return outcomes, exact, wrong_payout, sims


def misses(pay: dict, sims: dict, share: dict | None = None) -> list:
    """Start states whose exact value lies outside the simulator's interval: player 0's payout (``pay``: state ->
    payout per player) and, where ``share`` is given, his win share."""
    out = []
    for k, (scores, passes, dealer) in enumerate(STARTS):
        key = (scores, passes, dealer)
        checks = [(pay[key][0], sims[k][0])] + ([(share[key][0], sims[k][1])] if share is not None else [])
        for x, sample in checks:
            se = sample.std(ddof=1) / np.sqrt(len(sample))
            if abs(sample.mean() - x) > Z * se:
                out.append((key, float(sample.mean()), float(x), float(se)))
    return out


def split(table: dict) -> tuple[dict, dict]:
    return {key: v[0] for key, v in table.items()}, {key: v[1] for key, v in table.items()}


def test_simulated_games_equal_the_exact_values_in_every_state(truth):
    _outcomes, exact, _wrong, sims = truth
    assert misses(*split(exact)[:1], sims, split(exact)[1]) == []
    # the values say something: the player nearer 0 is worth more, and a streak of two passes costs
    assert exact[((1, 4), (0, 0), 1)][0][0] > exact[((4, 1), (0, 0), 1)][0][0]
    assert exact[((3, 3), (2, 2), 0)][0][0] != exact[((3, 3), (0, 0), 0)][0][0]


def test_a_wrong_payout_rule_is_detected(truth):
    _outcomes, _exact, wrong, sims = truth
    assert len(misses(wrong, sims)) >= 3


@pytest.mark.parametrize("wrong", [forget_streaks, void_passes_the_deal])
def test_a_wrong_game_is_detected(truth, wrong):
    outcomes, _exact, _w, sims = truth
    table, _cut, _ = game_table(RULES, N, outcomes, STARTS, apply=wrong)
    assert len(misses(*split(table)[:1], sims, split(table)[1])) >= 3
