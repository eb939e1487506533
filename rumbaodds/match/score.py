"""The score sheet of a whole game (RULES.md §9): one hand's result applied to the score state, the end, the payout.

A *score state* is every player's score, every player's passes in a row and
the dealer, players numbered clockwise. A *hand result* is what one hand did,
seat by seat (seat 0 speaks first, seat ``n - 1`` deals, §2): its kind
(played, void because nobody played [D-6], void by a throw-in [D-4]), each
seat's score change before the sit-out penalty, and who passed. The penalty
depends on the streak, which is the game's and not the hand's, so it is added
here. These functions are compiled for the game kernel and called as plain
Python by the twin and the exact dynamic programme: one definition of §9.
"""

import numpy as np
from numba import njit

from ..engine.hand import pass_penalty
from ..engine.rules_layout import R_VOID_PASS
from ..rules import PAYOUTS, WINNERS

# hand kinds
PLAYED, VOID_NOBODY, THROWN_IN = 0, 1, 2
# the game's rule fields in kernel form (RuleSet §9 fields): game_array()
G_START, G_GOAL, G_LOWEST, G_FLOOR, G_PAYOUT, G_SIZE = range(6)
PAY_TO_WINNERS, PAY_PAIRWISE, PAY_WIN_ONLY = range(3)


def game_array(rules) -> np.ndarray:
    """The §9 fields of a RuleSet as an int64 array (G_* indices)."""
    out = np.zeros(G_SIZE, dtype=np.int64)
    out[G_START] = rules.start_score
    out[G_GOAL] = rules.goal_score
    out[G_LOWEST] = WINNERS.index(rules.winners)
    out[G_FLOOR] = int(rules.score_floor)
    out[G_PAYOUT] = PAYOUTS.index(rules.payout)
    return out


@njit(cache=True)
def player_of(seat, dealer, n):
    """The player at ``seat`` of a hand dealt by ``dealer``: seat 0 is the dealer's left neighbour (§2)."""
    return (dealer + 1 + seat) % n


@njit(cache=True)
def apply_hand(scores, passes, dealer, kind, changes, passed, rp):
    """Add one hand's result (seat order) to ``scores`` and ``passes`` (player order, in place); the next dealer.

    Played: the deal passes left [D-17]; a passer pays the sit-out penalty of his streak and extends it, a player
    who played starts it again (§9.1). Void (nobody played, or thrown in): the same dealer deals again [D-17]; a
    throw-in is nobody's pass [D-4], a hand nobody played a pass only where ``void_counts_as_pass`` (§9.1).
    """
    n = scores.shape[0]
    if kind == THROWN_IN:
        return dealer
    if kind == VOID_NOBODY:
        if rp[R_VOID_PASS] == 1:
            for s in range(n):
                p = player_of(s, dealer, n)
                scores[p] += pass_penalty(passes[p], rp)
                passes[p] += 1
        return dealer
    for s in range(n):
        p = player_of(s, dealer, n)
        if passed[s]:
            scores[p] += changes[s] + pass_penalty(passes[p], rp)
            passes[p] += 1
        else:
            scores[p] += changes[s]
            passes[p] = 0
    return (dealer + 1) % n


@njit(cache=True)
def game_over(scores, gp):
    """The game ends after the first hand in which one or more players reach the goal (0) or below (§9)."""
    for p in range(scores.shape[0]):
        if scores[p] <= gp[G_GOAL]:
            return True
    return False


@njit(cache=True)
def settle(scores, gp, won, payout):
    """Winners and payout (stake units, positive = received) of a finished game; returns the number of winners.

    Winners: every player at the goal or below [D-18] (``lowest``: only the lowest of them, ties share). A score
    below 0 counts as 0 [D-19] unless ``score_floor`` is off. Payout [D-20]: ``to-winners`` every other player
    pays his score, shared equally by the winners; ``pairwise`` every two players settle the difference of their
    scores, the higher paying the lower; ``win-only`` a winner gains 1 (shared), the others 0 (§9.2).
    """
    n = scores.shape[0]
    total = 0.0
    best = 0.0
    for p in range(n):
        payout[p] = max(scores[p], 0) if gp[G_FLOOR] == 1 else scores[p]  # the counted score, for now
        total += payout[p]
        best = payout[p] if p == 0 else min(best, payout[p])
    winners = 0
    for p in range(n):
        at_goal = scores[p] <= gp[G_GOAL]
        won[p] = 1 if at_goal and (gp[G_LOWEST] == 0 or payout[p] == best) else 0
        winners += won[p]
    if winners == 0:  # not over: nobody wins, nothing is paid
        for p in range(n):
            payout[p] = 0.0
        return 0
    if gp[G_PAYOUT] == PAY_PAIRWISE:
        for p in range(n):
            payout[p] = total - n * payout[p]
        return winners
    losers = 0.0
    for p in range(n):
        if won[p] == 0:
            losers += payout[p]
    for p in range(n):
        if gp[G_PAYOUT] == PAY_WIN_ONLY:
            payout[p] = 1.0 / winners if won[p] else 0.0
        else:
            payout[p] = losers / winners if won[p] else -payout[p]
    return winners


def apply_hands(rules, scores, passes, dealer, results):
    """Plain Python: a list of hand results ``(kind, changes, passed)`` applied in turn until the game ends.

    Returns (scores, passes, dealer, hands applied, over); what the hand-worked tests of §9 read.
    """
    from ..engine.rules_layout import rules_array

    rp = rules_array(rules)
    gp = game_array(rules)
    scores = np.array(scores, dtype=np.int64)
    passes = np.array(passes, dtype=np.int64)
    used = 0
    for kind, changes, passed in results:
        n = len(scores)
        dealer = int(apply_hand(scores, passes, dealer, kind, np.array(changes, dtype=np.int64),
                                np.array(passed, dtype=np.int64) if passed is not None else np.zeros(n, np.int64),
                                rp))
        used += 1
        if game_over(scores, gp):
            return scores, passes, dealer, used, True
    return scores, passes, dealer, used, False


def settle_scores(rules, scores) -> tuple[np.ndarray, np.ndarray]:
    """(won flags, payout) of final ``scores`` under the rule set's §9 fields."""
    scores = np.array(scores, dtype=np.int64)
    won = np.zeros(len(scores), dtype=np.int64)
    payout = np.zeros(len(scores), dtype=np.float64)
    settle(scores, game_array(rules), won, payout)
    return won, payout


__all__ = ["PLAYED", "VOID_NOBODY", "THROWN_IN", "game_array", "apply_hand", "game_over", "settle", "apply_hands",
           "settle_scores", "player_of"]
